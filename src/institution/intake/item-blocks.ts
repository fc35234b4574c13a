import zlib from 'node:zlib';

import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';

import type { RawElements, Span } from '../../core/json-spans.js';
import { keepJsonText } from '../../core/json-text.js';
import type { Queryable } from '../../db/client.js';
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

/** Some items of some batches, as sent (each serialises to its own bytes, see `keepJsonText`), keyed `batchId:index`. */
export async function readItemsAt(
  db: Queryable,
  refs: { batchId: string; index: number }[],
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
      const [block] = await db
        .select()
        .from(b)
        .where(and(eq(b.batchId, batchId), eq(b.firstIndex, firstIndex)));
      if (!block) return;
      const bytes = blockBytes(block);
      const spans = pairs(block.itemSpans);
      for (const index of indexes) {
        const span = spans[index - firstIndex];
        if (!span) continue;
        const text = bytes.toString('utf8', span.start, span.end);
        items.set(`${batchId}:${index}`, keepJsonText(JSON.parse(text), text));
      }
    }),
  );
  return items;
}
