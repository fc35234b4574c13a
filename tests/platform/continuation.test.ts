import { describe, expect, it } from 'vitest';

import { decodeContinuation, encodeContinuation, InvalidContinuation } from '../../src/core/continuation.js';

const scope = { listing: 'original-installments', tenantId: 'b7e0c9a2-0000-4000-8000-000000000001' };
const isNumbers = (p: unknown[]): p is number[] => p.every((v) => typeof v === 'number');

describe('continuation tokens', () => {
  it('carry a keyset position back unchanged and reveal nothing readable', () => {
    const token = encodeContinuation('secret', scope, [12345, 7]);
    expect(token).not.toContain('12345');
    expect(decodeContinuation('secret', scope, token, isNumbers)).toEqual([12345, 7]);
  });

  it.each([
    ['a changed body', (t: string) => `${Buffer.from('[1]').toString('base64url')}.${t.split('.')[1]}`],
    ['a changed signature', (t: string) => `${t.split('.')[0]}.${'A'.repeat(43)}`],
    ['a truncated token', (t: string) => t.slice(0, -3)],
    ['garbage', () => 'not-a-token'],
    ['an extra part', (t: string) => `${t}.x`],
  ])('refuse %s with PAGING-001', (_name, tamper) => {
    const token = tamper(encodeContinuation('secret', scope, [42]));
    expect(() => decodeContinuation('secret', scope, token, isNumbers)).toThrow(InvalidContinuation);
  });

  it('refuse a token of another listing, another tenant or another secret', () => {
    const token = encodeContinuation('secret', scope, [42]);
    expect(() =>
      decodeContinuation('secret', { ...scope, listing: 'submitted-installments' }, token, isNumbers),
    ).toThrow(InvalidContinuation);
    expect(() => decodeContinuation('secret', { ...scope, tenantId: 'other' }, token, isNumbers)).toThrow(
      InvalidContinuation,
    );
    expect(() => decodeContinuation('other-secret', scope, token, isNumbers)).toThrow(InvalidContinuation);
  });

  it('refuse a well-signed position of the wrong shape', () => {
    const token = encodeContinuation('secret', scope, ['x']);
    expect(() => decodeContinuation('secret', scope, token, isNumbers)).toThrow(InvalidContinuation);
  });
});
