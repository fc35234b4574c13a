import zlib from 'node:zlib';

import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';

import type { RawElements, Span } from '../../core/json-spans.js';
import { keepJsonText } from '../../core/json-text.js';
import type { Queryable } from '../../db/client.js';
import { preparedPerHandle } from '../../db/prepared.js';
import { batchItemBlocks, type BlockEncoding } from '../../db/schema/index.js';

/** Items per block: small enough to read one item back cheaply, large enough to compress well. */
export const BLOCK_SIZE = 500;

/**
 * Brotli at quality 1, synchronous: less processor time and fewer bytes than deflate's fastest
 * level on the thread pool, which hands each block over in 16 kB slices (bench/README.md).
 */
const compress = (json: Buffer | string) =>
  zlib.brotliCompressSync(json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });

export interface ItemBlock {
  firstIndex: number;
  itemCount: number;
  encoding: BlockEncoding;
  data: Buffer;
  /** Start and end of each item in the decompressed array, in pairs. */
  itemSpans: number[];
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
    const base = spans[first]!.start - OPEN.length;
    const json = Buffer.concat([OPEN, body.subarray(spans[first]!.start, spans[last]!.end), CLOSE]);
    const itemSpans = spans.slice(first, last + 1).flatMap((s) => [s.start - base, s.end - base]);
    blocks.push({ firstIndex: first, itemCount: last - first + 1, encoding: 'br', data: compress(json), itemSpans });
  }
  return blocks;
}

/** A block's JSON bytes, decompressed (synchronously: a block is a few hundred kilobytes). */
function blockBytes({ encoding, data }: Pick<ItemBlock, 'encoding' | 'data'>): Buffer {
  if (encoding !== 'br') throw new Error(`item block encoded as ${String(encoding)}, which this version does not read`);
  return zlib.brotliDecompressSync(data);
}

/** A block's JSON text, decompressed. */
export const blockText = (block: Pick<ItemBlock, 'encoding' | 'data'>): string => blockBytes(block).toString('utf8');

/** A stored block as the worker reads it: its items' spans stay in the table (only listings use them). */
export type StoredBlock = Omit<typeof batchItemBlocks.$inferSelect, 'itemSpans'>;

const b = batchItemBlocks;
/** The blocks of a batch holding any of the items [from, to). */
const covering = (batchId: string, from: number, to: number) =>
  and(eq(b.batchId, batchId), lt(b.firstIndex, to), gt(sql`${b.firstIndex} + ${b.itemCount}`, from));

/** The stored blocks of items [from, to) of a batch, in order (a block straddling `from` or `to` included). */
export async function readBlocks(db: Queryable, batchId: string, from: number, to: number): Promise<StoredBlock[]> {
  return db
    .select({
      batchId: b.batchId,
      firstIndex: b.firstIndex,
      itemCount: b.itemCount,
      encoding: b.encoding,
      data: b.data,
    })
    .from(b)
    .where(covering(batchId, from, to))
    .orderBy(asc(b.firstIndex));
}

const pairs = (offsets: number[]): Span[] =>
  Array.from({ length: offsets.length >> 1 }, (_, k) => ({ start: offsets[2 * k]!, end: offsets[2 * k + 1]! }));

// Prepared once per database handle: building the select took longer than reading the block.
const blockAt = preparedPerHandle((db) =>
  db
    .select({ data: b.data, encoding: b.encoding, itemSpans: b.itemSpans })
    .from(b)
    .where(and(eq(b.batchId, sql.placeholder('batchId')), eq(b.firstIndex, sql.placeholder('firstIndex'))))
    .prepare('item_block'),
);

interface ReadBlock {
  bytes: Buffer;
  spans: Span[];
}

/**
 * Blocks the listings read lately, decompressed, oldest first: a block never changes once
 * written, and a listing walking a batch reads each one five times (100 items a page, 500 a
 * block). Decompressing one took longer than the rest of the page (bench/RESULTS.md).
 */
const recentBlocks = new Map<string, ReadBlock>();
let recentBytes = 0;
const RECENT_BYTES = 16 * 1024 * 1024;

async function readBlock(db: Queryable, batchId: string, firstIndex: number): Promise<ReadBlock | undefined> {
  const key = `${batchId}:${firstIndex}`;
  const recent = recentBlocks.get(key);
  if (recent) {
    recentBlocks.delete(key);
    recentBlocks.set(key, recent);
    return recent;
  }
  const [block] = await blockAt(db).execute({ batchId, firstIndex });
  if (!block) return undefined;
  const read = { bytes: blockBytes(block), spans: pairs(block.itemSpans) };
  recentBlocks.set(key, read);
  recentBytes += read.bytes.length;
  for (const [oldest, { bytes }] of recentBlocks) {
    if (recentBytes <= RECENT_BYTES) break;
    recentBlocks.delete(oldest);
    recentBytes -= bytes.length;
  }
  return read;
}

/**
 * Some items of some batches, as sent, keyed `batchId:index`: each serialises to its own bytes (see
 * `keepJsonText`). As `values`, each is also parsed, for code that reads it; as `texts`, nothing
 * but its serialisation is meant to read it.
 */
export async function readItemsAt(
  db: Queryable,
  refs: { batchId: string; index: number }[],
  as: 'values' | 'texts' = 'values',
): Promise<Map<string, unknown>> {
  const wanted = new Map<string, { batchId: string; firstIndex: number; indexes: number[] }>();
  for (const { batchId, index } of refs) {
    const firstIndex = index - (index % BLOCK_SIZE);
    const key = `${batchId}:${firstIndex}`;
    const block = wanted.get(key) ?? { batchId, firstIndex, indexes: [] };
    block.indexes.push(index);
    wanted.set(key, block);
  }
  const items = new Map<string, unknown>();
  await Promise.all(
    [...wanted.values()].map(async ({ batchId, firstIndex, indexes }) => {
      const block = await readBlock(db, batchId, firstIndex);
      if (!block) return;
      for (const index of indexes) {
        const span = block.spans[index - firstIndex];
        if (!span) continue;
        const text = block.bytes.toString('utf8', span.start, span.end);
        items.set(`${batchId}:${index}`, keepJsonText(as === 'values' ? JSON.parse(text) : {}, text));
      }
    }),
  );
  return items;
}
