import { parentPort } from 'node:worker_threads';

import { itemSchemaCheck } from '../../contract/item-schema.js';
import { mayHoldUnstorableText } from '../../core/storable-values.js';
import type { BlockEncoding } from '../../db/schema/index.js';
import { blockText } from '../intake/item-blocks.js';
import { checkItems, packChunk, type PackedChunk } from './installment-staging.js';

/** One chunk of an installment batch to check: its stored blocks, in order. */
export interface CheckRequest {
  id: number;
  batchId: string;
  /** The day the batch arrived (Brasília), which the item rules need. */
  receivedOn: string;
  first: number;
  last: number;
  blocks: { firstIndex: number; encoding: BlockEncoding; data: Uint8Array }[];
}

export type CheckReply = { id: number; chunk: PackedChunk } | { id: number; error: string };

/** Decompresses, parses and checks a chunk's items (see `checkItems`); runs on the checking thread. */
export async function checkChunk(request: CheckRequest): Promise<PackedChunk> {
  const parts = [];
  for (const block of request.blocks) {
    const text = blockText({
      encoding: block.encoding,
      data: Buffer.from(block.data.buffer, block.data.byteOffset, block.data.byteLength),
    });
    const schema = await itemSchemaCheck(mayHoldUnstorableText(text));
    parts.push(
      checkItems(request.batchId, JSON.parse(text) as unknown[], block.firstIndex, request.receivedOn, schema),
    );
  }
  return packChunk(request.first, request.last, parts);
}

parentPort?.on('message', (request: CheckRequest) => {
  checkChunk(request).then(
    (chunk) => parentPort!.postMessage({ id: request.id, chunk } satisfies CheckReply),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies CheckReply),
  );
});
