/**
 * Money as integer cents. Decimal strings ("1234.56") are parsed digit by digit, never through
 * floating point; integer cents up to 2^53 cover numeric(14,2) exactly.
 */

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Cents of a non-negative decimal string with at most 2 places that fits numeric(14,2); else undefined. */
export function parseCents(value: string): number | undefined {
  const match = DECIMAL.exec(value);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** `123456` → `"1234.56"`. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`not an integer amount of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * `cents × numerator / denominator` rounded half up (non-negative values), in exact integer
 * arithmetic: plain numbers while the product stays below 2^53, BigInt beyond.
 */
export function mulDivRound(cents: number, numerator: bigint, denominator: bigint): number {
  const n = Number(numerator);
  const d = Number(denominator);
  const product = cents * n;
  if (Number.isSafeInteger(product) && Number.isSafeInteger(product * 2 + d))
    return Math.floor((product * 2 + d) / (d * 2));
  return Number((BigInt(cents) * numerator * 2n + denominator) / (denominator * 2n));
}

/**
 * A percentage such as 5, 7.5 or 12.345 as an exact fraction (numerator, denominator of 1/100),
 * read from its decimal text, so 7.5% is 75/1000 and never 0.07499999.
 */
const fractions = new Map<number, { numerator: bigint; denominator: bigint }>();

export function percentFraction(percent: number): { numerator: bigint; denominator: bigint } {
  // Batches repeat the same few percentages thousands of times.
  let fraction = fractions.get(percent);
  if (!fraction) {
    fraction = parsePercent(percent);
    if (fractions.size < 1_000) fractions.set(percent, fraction);
  }
  return fraction;
}

function parsePercent(percent: number): { numerator: bigint; denominator: bigint } {
  const text = String(percent);
  if (!/^\d+(\.\d+)?$/.test(text)) throw new Error(`not a plain non-negative percentage: ${text}`);
  const [whole, fraction = ''] = text.split('.');
  return { numerator: BigInt(whole! + fraction), denominator: 100n * 10n ** BigInt(fraction.length) };
}
