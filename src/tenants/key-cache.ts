import type { Tenant } from './credentials.js';

/** What a process remembers of an active key, found by the SHA-256 of its secret. */
export interface CachedKey {
  readonly tenant: Tenant;
  readonly keyId: string;
  /** The key's last use as this process last read or wrote it (see `key-lookup.ts`). */
  lastUsedAt: Date | null;
}

interface Entry {
  key: CachedKey;
  expiresAt: number;
}

export interface KeyCacheOptions {
  /** How long an entry is trusted without news of its key; 0 keeps nothing. (Default: 30000) */
  ttlMs?: number;
  /** Milliseconds of a clock that never goes back. (Default: `performance.now`) */
  monotonicNow?: () => number;
}

/**
 * Keys in use are few (one or two per tenant), so the map stays small; this bound only stops a
 * flood of distinct valid keys from growing it without end. Past it the cache starts over.
 */
const MOST_ENTRIES = 10_000;

/**
 * The tenants of the API keys this process has looked up lately, so that a request with a known
 * key costs no database round trip. Only active keys are kept: an unknown key is asked of the
 * database every time, so a key issued in another process works at once.
 *
 * Revocation stays instant because the cache is told: a trigger on `credentials` and the tenants
 * notifies every process on commit (`key-changes.ts`), which forgets the key here. An entry expires
 * after `ttlMs` whatever happens, the safety net for a notification lost. Nothing is stored until
 * the process listens (`listening`), since a change made before then would never be heard of.
 */
export class KeyCache {
  readonly ttlMs: number;
  readonly #now: () => number;
  readonly #byHash = new Map<string, Entry>();
  readonly #hashOfKey = new Map<string, string>();
  #epoch = 0;
  #listening = false;

  constructor(options: KeyCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.#now = options.monotonicNow ?? (() => performance.now());
  }

  /** Whether changes are heard of, and so whether anything is kept. */
  get isListening(): boolean {
    return this.#listening;
  }

  /**
   * Moves on at every change heard of. A lookup notes it before asking the database and stores its
   * answer only if it has not moved: a revocation heard of while the answer was on its way may have
   * come after the database read the key.
   */
  get epoch(): number {
    return this.#epoch;
  }

  /** Keys kept now. */
  get size(): number {
    return this.#byHash.size;
  }

  get(secretHash: string): CachedKey | undefined {
    const entry = this.#byHash.get(secretHash);
    if (entry === undefined) return undefined;
    if (this.#now() < entry.expiresAt) return entry.key;
    this.#drop(secretHash, entry.key.keyId);
    return undefined;
  }

  /** Keeps the answer of a lookup started at `epoch`, unless a change came meanwhile. */
  store(secretHash: string, key: CachedKey, epoch: number): void {
    if (!this.#listening || this.ttlMs === 0 || epoch !== this.#epoch) return;
    if (this.#byHash.size >= MOST_ENTRIES) this.#forgetAll();
    this.#byHash.set(secretHash, { key, expiresAt: this.#now() + this.ttlMs });
    this.#hashOfKey.set(key.keyId, secretHash);
  }

  /** A key was revoked, deleted or changed. */
  forgetKey(keyId: string): void {
    this.#epoch++;
    const hash = this.#hashOfKey.get(keyId);
    if (hash !== undefined) this.#drop(hash, keyId);
  }

  /** A tenant was renamed or deleted: its keys go with it. */
  forgetTenant(tenantId: string): void {
    this.#epoch++;
    for (const [hash, { key }] of this.#byHash) if (key.tenant.id === tenantId) this.#drop(hash, key.keyId);
  }

  /** Anything may have changed (a table emptied, changes missed while the listening connection was down). */
  forgetAll(): void {
    this.#epoch++;
    this.#forgetAll();
  }

  /** The process listens again, from now on: whatever changed before is unknown, so nothing kept is trusted. */
  listening(): void {
    this.forgetAll();
    this.#listening = true;
  }

  #drop(hash: string, keyId: string): void {
    this.#byHash.delete(hash);
    this.#hashOfKey.delete(keyId);
  }

  #forgetAll(): void {
    this.#byHash.clear();
    this.#hashOfKey.clear();
  }
}
