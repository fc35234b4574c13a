import zlib from 'node:zlib';
import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { RawElements } from '../../core/json-spans.js';
import { batchItemBlocks, type BlockEncoding } from '../../db/schema/index.js';

/** Items per block: small enough to read one item back cheaply, large enough to compress well. */
export const BLOCK_SIZE = 500;

/**
 * Brotli at quality 1, synchronous: a third less processor time than deflate's fastest level on
 * the thread pool (which hands each block over in 16 kB slices), and a fifth fewer bytes.
 */
const compress = (json: Buffer | string) =>
  zlib.brotliCompressSync(json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });

export interface ItemBlock {
  firstIndex: number;
  itemCount: number;
  encoding: BlockEncoding;
  data: Buffer;
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * The items in blocks of JSON arrays, compressed: a block is the items' bytes as sent (what lies
 * between them is JSON separators), so nothing is serialised again and a number written 12.50
 * stays 12.50.
 */
export function packBlocks({ body, spans }: RawElements): ItemBlock[] {
  const blocks: ItemBlock[] = [];
  for (let first = 0; first < spans.length; first += BLOCK_SIZE) {
    const last = Math.min(first + BLOCK_SIZE, spans.length) - 1;
    const json = Buffer.concat([OPEN, body.subarray(spans[first]!.start, spans[last]!.end), CLOSE]);
    blocks.push({ firstIndex: first, itemCount: last - first + 1, encoding: 'br', data: compress(json) });
  }
  return blocks;
}

/** A block's JSON text, decompressed (synchronously: a block is a few hundred kilobytes). */
export function blockText({ encoding, data }: Pick<ItemBlock, 'encoding' | 'data'>): string {
  if (encoding !== 'br') throw new Error(`item block encoded as ${String(encoding)}, which this version does not read`);
  return zlib.brotliDecompressSync(data).toString('utf8');
}

export type StoredBlock = typeof batchItemBlocks.$inferSelect;

const b = batchItemBlocks;
/** The blocks of a batch holding any of the items [from, to). */
const covering = (batchId: string, from: number, to: number) =>
  and(eq(b.batchId, batchId), lt(b.firstIndex, to), gt(sql`${b.firstIndex} + ${b.itemCount}`, from));

/** The stored blocks of items [from, to) of a batch, in order (a block straddling `from` or `to` included). */
export async function readBlocks(db: Queryable, batchId: string, from: number, to: number): Promise<StoredBlock[]> {
  return db
    .select()
    .from(b)
    .where(covering(batchId, from, to))
    .orderBy(asc(b.firstIndex));
}

/** Some items of some batches, as sent, keyed `batchId:index`. */
export async function readItemsAt(
  db: Queryable,
  refs: { batchId: string; index: number }[],
): Promise<Map<string, unknown>> {
  const wanted = new Map<string, { batchId: string; firstIndex: number }>();
  for (const ref of refs) {
    const firstIndex = ref.index - (ref.index % BLOCK_SIZE);
    wanted.set(`${ref.batchId}:${firstIndex}`, { batchId: ref.batchId, firstIndex });
  }
  const items = new Map<string, unknown>();
  await Promise.all(
    [...wanted.values()].map(async ({ batchId, firstIndex }) => {
      const [block] = await db
        .select()
        .from(b)
        .where(and(eq(b.batchId, batchId), eq(b.firstIndex, firstIndex)));
      if (!block) return;
      (JSON.parse(blockText(block)) as unknown[]).forEach((payload, offset) =>
        items.set(`${batchId}:${firstIndex + offset}`, payload),
      );
    }),
  );
  return items;
}
