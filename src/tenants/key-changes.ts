import type { Sql } from '../db/client.js';
import type { KeyCache } from './key-cache.js';

/** The channel the trigger of migration 0041 notifies on commit of a change to a key or its tenant. */
export const KEY_CHANGES_CHANNEL = 'credential_changes';

/** Applies one notification: `key <id>`, `tenant <id>`, or `all` (a table emptied). */
export function applyKeyChange(keys: KeyCache, payload: string): void {
  const [what, id] = payload.split(' ');
  if (what === 'key' && id) keys.forgetKey(id);
  else if (what === 'tenant' && id) keys.forgetTenant(id);
  // `all`, or words of a later trigger this code does not know: forgetting everything is always safe.
  else keys.forgetAll();
}

const watched = new WeakSet<KeyCache>();

/**
 * Makes `keys` hear of every change to a key, in this process and any other: postgres.js LISTENs on
 * a connection of its own beside `sql`'s pool, closed with it (`sql.end()`). It connects again by
 * itself when that connection drops, and LISTENs again; what changed meanwhile was never heard of,
 * so the cache starts over then (`KeyCache.listening`). Once per cache, however many apps share it;
 * a cache that keeps nothing (`ttlMs` 0) needs no connection. Answers when the first LISTEN is in place.
 */
export async function watchKeyChanges(sql: Sql, keys: KeyCache): Promise<void> {
  if (keys.ttlMs === 0 || watched.has(keys)) return;
  watched.add(keys);
  await sql.listen(
    KEY_CHANGES_CHANNEL,
    (payload) => applyKeyChange(keys, payload),
    () => keys.listening(),
  );
}
