/** Bytes [start, end) of one value in a JSON text. */
export interface Span {
  start: number;
  end: number;
}

/** The JSON text is not valid; `position` is the byte offset where the scan found out. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(`${message} at byte ${position}`);
  }
}

/**
 * The JSON text nests arrays and objects deeper than the scan allows. `element` is the index of
 * the element of the array member being collected when the limit was crossed inside it.
 */
export class JsonTooDeep extends Error {
  constructor(
    readonly maxDepth: number,
    readonly element: number | undefined,
  ) {
    super(`nested deeper than ${maxDepth} levels of arrays and objects`);
  }
}

export interface ScannedJson {
  /** The top-level value's first byte: '{' for an object (then `members` is set), otherwise another JSON value. */
  topLevel: 'object' | 'other';
  /** Top-level object: each member name (escapes decoded, as JSON.parse would) → span of its value; a name given twice keeps its LAST value, as JSON.parse does. */
  members?: Map<string, Span>;
  /** When member `arrayName` (its last occurrence) holds an array: the spans of its elements, in order. Otherwise undefined. */
  elements?: Span[];
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const PLUS = 0x2b;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
/** What `byte` reads past the end of the text: no byte of the grammar, no entry of the tables. */
const END = 0x100;

/**
 * The byte at `i`, or END. The text is never indexed past its end: V8 compiles a load that once
 * read past the end of a typed array to expect undefined from then on, which slowed every later
 * scan after one truncated body (bench/RESULTS.md).
 */
function byte(text: Uint8Array, i: number): number {
  return i < text.length ? text[i]! : END;
}

/**
 * 1 for the bytes a string holds as they are: all but the quote, the backslash and the control
 * characters. Any byte >= 0x80 is kept: a decoder turns an invalid UTF-8 sequence into U+FFFD,
 * which JSON.parse accepts inside a string (and refuses outside one, as this scan does).
 */
const PLAIN = new Uint8Array(END + 1).fill(1, SPACE, END);
PLAIN[QUOTE] = 0;
PLAIN[BACKSLASH] = 0;
/** 1 for the bytes that may follow a backslash on their own (`"\/bfnrt`). */
const SIMPLE_ESCAPE = new Uint8Array(END + 1);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
/** 1 for the hexadecimal digits of `\uXXXX`, either case. */
const HEX = new Uint8Array(END + 1);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

const encoder = new TextEncoder();
/** The literals by their first byte. */
const LITERALS: Record<number, Uint8Array> = {
  0x74: encoder.encode('true'),
  0x66: encoder.encode('false'),
  0x6e: encoder.encode('null'),
};

function unexpected(text: Uint8Array, i: number, expected: string): JsonSyntaxError {
  const c = byte(text, i);
  return new JsonSyntaxError(
    i,
    c === END
      ? `Unexpected end of JSON, expected ${expected}`
      : `Unexpected byte 0x${c.toString(16).padStart(2, '0')}, expected ${expected}`,
  );
}

function skipWhitespace(text: Uint8Array, i: number): number {
  for (const length = text.length; i < length; i++) {
    const c = text[i]!;
    if (c > SPACE || (c !== SPACE && c !== LF && c !== CR && c !== TAB)) break;
  }
  return i;
}

/** The index after the closing quote of the string whose opening quote is at `i`. */
function skipString(text: Uint8Array, i: number): number {
  const length = text.length;
  for (i++; ;) {
    // Hot loop (most bytes of a body are inside strings): one table look-up a byte.
    while (i < length && PLAIN[text[i]!] === 1) i++;
    const c = byte(text, i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      const e = byte(text, i + 1);
      if (SIMPLE_ESCAPE[e] === 1) i += 2;
      else if (
        e === 0x75 &&
        HEX[byte(text, i + 2)] === 1 &&
        HEX[byte(text, i + 3)] === 1 &&
        HEX[byte(text, i + 4)] === 1 &&
        HEX[byte(text, i + 5)] === 1
      )
        i += 6;
      else throw unexpected(text, i + 1, 'an escape (one of "\\/bfnrt or u and 4 hex digits)');
    } else
      throw c === END
        ? unexpected(text, i, 'the end of the string')
        : new JsonSyntaxError(i, 'Control character in a string');
  }
}

/** The index after the number that starts at `i`: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
function skipNumber(text: Uint8Array, i: number): number {
  let c = byte(text, i);
  if (c === MINUS) c = byte(text, ++i);
  if (c === ZERO) c = byte(text, ++i);
  else if (c > ZERO && c <= NINE)
    do c = byte(text, ++i);
    while (c >= ZERO && c <= NINE);
  else throw unexpected(text, i, 'a digit');
  if (c === DOT) {
    c = byte(text, ++i);
    if (!(c >= ZERO && c <= NINE)) throw unexpected(text, i, 'a digit');
    do c = byte(text, ++i);
    while (c >= ZERO && c <= NINE);
  }
  if ((c | 0x20) === 0x65) {
    c = byte(text, ++i);
    if (c === PLUS || c === MINUS) c = byte(text, ++i);
    if (!(c >= ZERO && c <= NINE)) throw unexpected(text, i, 'a digit');
    do c = byte(text, ++i);
    while (c >= ZERO && c <= NINE);
  }
  return i;
}

function skipLiteral(text: Uint8Array, i: number): number {
  const literal = LITERALS[byte(text, i)];
  if (!literal) throw unexpected(text, i, 'a JSON value');
  for (let k = 1; k < literal.length; k++)
    if (byte(text, i + k) !== literal[k]) throw unexpected(text, i + k, `"${String.fromCharCode(...literal)}"`);
  return i + literal.length;
}

/** A member name as JSON.parse gives it: the bytes decoded as UTF-8, escapes resolved. */
function memberName(body: Buffer, start: number, end: number): string {
  const raw = body.toString('utf8', start, end);
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/**
 * Validates a whole JSON text (RFC 8259) in one pass over its bytes, accepting and refusing exactly
 * what JSON.parse accepts after the UTF-8 decoding of a body parser (leading BOM dropped, invalid
 * sequences replaced); throws JsonSyntaxError when invalid. Reports where the members of a top-level
 * object and the elements of its array member `arrayName` are, so that a 10 MB body is neither
 * decoded nor parsed: its elements can be kept as sent. Nesting is tracked on an explicit stack, so
 * the scan itself takes any depth; deeper than `maxDepth` levels throws JsonTooDeep, since what
 * keeps the text (a listing serialising it, a validator walking it) recurses.
 */
export function scanJson(body: Buffer, arrayName: string, maxDepth = Infinity): ScannedJson {
  // A plain byte view: indexing a Buffer goes through its subclass, several times slower.
  const text = new Uint8Array(body.buffer, body.byteOffset, body.length);
  const length = text.length;
  const bom = length >= 3 && text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf;
  let i = skipWhitespace(text, bom ? 3 : 0);
  const members = byte(text, i) === OPEN_OBJECT ? new Map<string, Span>() : undefined;
  let elements: Span[] | undefined;
  // The open arrays and objects, 1 for an object; `inObject` is the innermost one.
  let stack: Uint8Array = new Uint8Array(64);
  let depth = 0;
  let inObject = false;
  // Of the top-level member being read, and of the array element being read when that member is `arrayName`.
  let name = '';
  let memberStart = 0;
  let collecting: Span[] | undefined;
  let elementStart = 0;

  for (;;) {
    // A value starts at i; in an object, after its member name.
    if (inObject) {
      if (byte(text, i) !== QUOTE) throw unexpected(text, i, 'a member name in double quotes');
      const end = skipString(text, i);
      if (depth === 1) name = memberName(body, i, end);
      i = skipWhitespace(text, end);
      if (byte(text, i) !== COLON) throw unexpected(text, i, '":"');
      i = skipWhitespace(text, i + 1);
    }
    const c = byte(text, i);
    if (depth === 1 && members) {
      memberStart = i;
      if (name === arrayName) elements = collecting = c === OPEN_ARRAY ? [] : undefined;
    } else if (depth === 2 && collecting) elementStart = i;

    if (c === QUOTE) i = skipString(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === maxDepth) throw new JsonTooDeep(maxDepth, collecting && depth >= 2 ? collecting.length : undefined);
      if (depth === stack.length) stack = growStack(stack);
      inObject = c === OPEN_OBJECT;
      stack[depth++] = inObject ? 1 : 0;
      i = skipWhitespace(text, i + 1);
      if (byte(text, i) !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) continue;
      i++;
      inObject = --depth > 0 && stack[depth - 1] === 1;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) i = skipNumber(text, i);
    else i = skipLiteral(text, i);

    // A value ended at i: what follows it, closing as many arrays and objects as it takes.
    for (;;) {
      if (depth === 1 && members) {
        members.set(name, { start: memberStart, end: i });
        collecting = undefined;
      } else if (depth === 2 && collecting) collecting.push({ start: elementStart, end: i });
      i = skipWhitespace(text, i);
      if (depth === 0) {
        if (i < length) throw unexpected(text, i, 'the end of the JSON text');
        return members ? { topLevel: 'object', members, elements } : { topLevel: 'other' };
      }
      const d = byte(text, i);
      if (d === COMMA) {
        i = skipWhitespace(text, i + 1);
        break;
      }
      if (d !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY))
        throw unexpected(text, i, inObject ? '"," or "}"' : '"," or "]"');
      i++;
      inObject = --depth > 0 && stack[depth - 1] === 1;
    }
  }
}

/**
 * Whether a JSON text nests arrays and objects deeper than `maxDepth` levels, by one pass over its
 * bytes (brackets inside strings skipped), before anything recursive walks the parsed value.
 */
export function nestsDeeperThan(body: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === QUOTE) {
      for (i++; i < body.length && body[i] !== QUOTE; i++) if (body[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

function growStack(stack: Uint8Array): Uint8Array {
  const larger = new Uint8Array(stack.length * 2);
  larger.set(stack);
  return larger;
}

/**
 * The bytes of `span` without the whitespace outside strings (space, tab, CR, LF): the same JSON
 * value however it was spaced, for an Idempotency-Key fingerprint. The span must be valid JSON.
 */
export function withoutWhitespace(body: Buffer, span: Span): Buffer {
  const text = new Uint8Array(body.buffer, body.byteOffset, body.length);
  const out = Buffer.allocUnsafe(span.end - span.start);
  let n = 0;
  let inString = false;
  for (let i = span.start; i < span.end; i++) {
    const c = text[i]!;
    if (inString) {
      out[n++] = c;
      if (c === BACKSLASH) out[n++] = text[++i]!;
      else if (c === QUOTE) inString = false;
    } else if (c !== SPACE && c !== LF && c !== CR && c !== TAB) {
      out[n++] = c;
      if (c === QUOTE) inString = true;
    }
  }
  return out.subarray(0, n);
}

/** The elements of a JSON array, as their bytes in the request. */
export interface RawElements {
  body: Buffer;
  spans: Span[];
}
