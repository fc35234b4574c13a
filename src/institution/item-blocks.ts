import type { Hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import type { RawElements } from '../http/raw-body.js';
import { batchItemBlocks } from '../db/schema/index.js';

/** Items per block: small enough to read one item back cheaply, large enough to compress well. */
export const BLOCK_SIZE = 500;

const deflate = promisify(zlib.deflateRaw);
const inflate = promisify(zlib.inflateRaw);

export interface ItemBlock {
  firstIndex: number;
  itemCount: number;
  data: Buffer;
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * Items in blocks of JSON arrays, compressed on libuv's thread pool. With `raw`, a block is the
 * items' bytes as sent (what lies between them is JSON separators); otherwise the parsed items are
 * serialised again. `hash` receives the parsed items of every block serialised, in order: the
 * same items sent again with other spacing are the same body.
 */
export async function packBlocks(items: unknown[], hash?: Hash, raw?: RawElements): Promise<ItemBlock[]> {
  const pending: Promise<ItemBlock>[] = [];
  for (let first = 0; first < items.length; first += BLOCK_SIZE) {
    const last = Math.min(first + BLOCK_SIZE, items.length) - 1;
    const json = raw
      ? Buffer.concat([OPEN, raw.body.subarray(raw.spans[first]!.start, raw.spans[last]!.end), CLOSE])
      : JSON.stringify(items.slice(first, last + 1));
    hash?.update(raw ? JSON.stringify(items.slice(first, last + 1)) : json);
    const itemCount = Math.min(BLOCK_SIZE, items.length - first);
    pending.push(deflate(json, { level: 1 }).then((data) => ({ firstIndex: first, itemCount, data })));
  }
  return Promise.all(pending);
}

export async function unpackBlock(block: ItemBlock): Promise<unknown[]> {
  return JSON.parse((await inflate(block.data)).toString('utf8')) as unknown[];
}

export type StoredBlock = typeof batchItemBlocks.$inferSelect;

const b = batchItemBlocks;
/** The blocks of a batch holding any of the items [from, to). */
const covering = (batchId: string, from: number, to: number) => and(eq(b.batchId, batchId), lt(b.firstIndex, to), gt(sql`${b.firstIndex} + ${b.itemCount}`, from));

/** The staged text of the blocks covering items [from, to) of a batch, in order (not their items). */
export async function readStagedBlocks(db: Queryable, batchId: string, from: number, to: number): Promise<Omit<StoredBlock, 'data'>[]> {
  return db
    .select({ batchId: b.batchId, firstIndex: b.firstIndex, itemCount: b.itemCount, stagedSubmissions: b.stagedSubmissions, stagedRows: b.stagedRows })
    .from(b)
    .where(covering(batchId, from, to))
    .orderBy(asc(b.firstIndex));
}

/** Items [from, to) of a batch, as sent, whole blocks (a block straddling `from` or `to` included). */
export async function readBlockItems(db: Queryable, batchId: string, from: number, to: number): Promise<unknown[]> {
  const blocks = await db.select().from(b).where(covering(batchId, from, to)).orderBy(asc(b.firstIndex));
  return (await Promise.all(blocks.map(unpackBlock))).flat();
}

/** Some items of some batches, as sent, keyed `batchId:index`. */
export async function readItemsAt(db: Queryable, refs: { batchId: string; index: number }[]): Promise<Map<string, unknown>> {
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
      (await unpackBlock(block)).forEach((payload, offset) => items.set(`${batchId}:${firstIndex + offset}`, payload));
    }),
  );
  return items;
}
