import { describe, expect, it } from 'vitest';

import { type CachedKey, KeyCache } from '../../src/tenants/key-cache.js';
import { applyKeyChange } from '../../src/tenants/key-changes.js';

const key = (keyId: string, tenantId = 'tenant-a'): CachedKey => ({
  tenant: { kind: 'partner', id: tenantId, name: 'Escola' },
  keyId,
  lastUsedAt: null,
});

/** A cache on a clock the test moves, already listening. */
function listeningCache(ttlMs = 30_000) {
  let now = 0;
  const keys = new KeyCache({ ttlMs, monotonicNow: () => now });
  keys.listening();
  return { keys, advance: (ms: number) => (now += ms) };
}

describe('the cache of API keys', () => {
  it('keeps nothing until it listens for changes, then keeps what a lookup found', () => {
    const keys = new KeyCache();
    keys.store('h1', key('k1'), keys.epoch);
    expect(keys.get('h1')).toBeUndefined();
    keys.listening();
    keys.store('h1', key('k1'), keys.epoch);
    expect(keys.get('h1')?.keyId).toBe('k1');
  });

  it('trusts an entry for ttlMs only, the safety net for a notification lost', () => {
    const { keys, advance } = listeningCache(30_000);
    keys.store('h1', key('k1'), keys.epoch);
    advance(29_999);
    expect(keys.get('h1')).toBeDefined();
    advance(1);
    expect(keys.get('h1')).toBeUndefined();
    expect(keys.size).toBe(0);
  });

  it('keeps nothing with ttlMs 0', () => {
    const { keys } = listeningCache(0);
    keys.store('h1', key('k1'), keys.epoch);
    expect(keys.get('h1')).toBeUndefined();
  });

  it('does not keep the answer of a lookup a change overtook: the database may have read the key before its revocation', () => {
    const { keys } = listeningCache();
    const started = keys.epoch;
    keys.forgetKey('k1');
    keys.store('h1', key('k1'), started);
    expect(keys.get('h1')).toBeUndefined();
    keys.store('h1', key('k1'), keys.epoch);
    expect(keys.get('h1')).toBeDefined();
  });

  it('forgets one key, a tenant’s keys, or everything, as the notifications say', () => {
    const { keys } = listeningCache();
    keys.store('h1', key('k1', 'a'), keys.epoch);
    keys.store('h2', key('k2', 'a'), keys.epoch);
    keys.store('h3', key('k3', 'b'), keys.epoch);
    keys.store('h4', key('k4', 'c'), keys.epoch);
    applyKeyChange(keys, 'key k3');
    expect([keys.get('h1'), keys.get('h3')].map((k) => k?.keyId)).toEqual(['k1', undefined]);
    applyKeyChange(keys, 'tenant a');
    expect([keys.get('h1'), keys.get('h2'), keys.get('h4')].map((k) => k?.keyId)).toEqual([undefined, undefined, 'k4']);
    applyKeyChange(keys, 'all');
    expect(keys.size).toBe(0);
    keys.store('h4', key('k4', 'c'), keys.epoch);
    applyKeyChange(keys, 'something newer');
    expect(keys.size).toBe(0);
  });

  it('starts over when it listens again: changes made while the connection was down were never heard of', () => {
    const { keys } = listeningCache();
    keys.store('h1', key('k1'), keys.epoch);
    const started = keys.epoch;
    keys.listening();
    expect(keys.size).toBe(0);
    keys.store('h1', key('k1'), started);
    expect(keys.size).toBe(0);
  });
});
