/**
 * Splitting an amount of cents into parts that add up exactly, never through floating point.
 */

/** `total` in `m` equal shares, the odd cents on the first. */
export function equalShares(total: number, m: number): number[] {
  const base = Math.trunc(total / m);
  return Array.from({ length: m }, (_, i) => (i === 0 ? total - base * (m - 1) : base));
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * `amount` (at most the sum of `weights`, all non-negative) shared in proportion to `weights`,
 * largest remainders first: the shares add up to `amount` and none exceeds its weight.
 */
export function apportion(amount: bigint, weights: bigint[]): bigint[] {
  const total = sum(weights);
  if (total === 0n) return weights.map(() => 0n);
  const exact = weights.map((r) => r * amount);
  const shares = exact.map((e) => e / total);
  let left = amount - sum(shares);
  const byRemainder = weights
    .map((_, i) => i)
    .sort((a, b) => {
      const ra = exact[a]! % total;
      const rb = exact[b]! % total;
      return ra === rb ? a - b : ra > rb ? -1 : 1;
    });
  for (const i of byRemainder) {
    if (left === 0n) break;
    if (exact[i]! % total !== 0n) {
      shares[i]!++;
      left--;
    }
  }
  return shares;
}

/** `value × part / whole` rounded half up, for non-negative integers (whole > 0). */
export function proportion(value: number, part: number, whole: number): number {
  return Number((BigInt(value) * BigInt(part) * 2n + BigInt(whole)) / (BigInt(whole) * 2n));
}
