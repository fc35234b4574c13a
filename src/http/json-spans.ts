/** Bytes [start, end) of one value in a JSON text. */
export interface Span {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const SPACE = 0x20;

function keyAt(text: Buffer, { start, end }: Span): string {
  const raw = text.subarray(start, end);
  return raw.includes(BACKSLASH) ? (JSON.parse(raw.toString('utf8')) as string) : raw.toString('utf8', 1, raw.length - 1);
}

/**
 * The spans of the elements of the array that member `name` of the top-level object holds, in a
 * JSON text already known to be valid (JSON.parse accepted it); undefined when there is no such
 * array. A member named twice counts once, the last time, as in JSON.parse. One pass over the bytes
 * in the time it takes to copy them a few times: the elements of a large request can be kept as
 * sent instead of serialised again.
 */
export function arrayElementSpans(body: Buffer, name: string): Span[] | undefined {
  // A plain byte view: indexing a Buffer goes through its subclass, several times slower.
  const text = new Uint8Array(body.buffer, body.byteOffset, body.length);
  const length = text.length;
  let depth = 0;
  let lastString: Span | undefined;
  let key: string | undefined;
  let found: Span[] | undefined;
  let elements: Span[] | undefined;
  let start = -1;
  let end = -1;
  for (let i = 0; i < length; i++) {
    const c = text[i]!;
    if (c === QUOTE) {
      // Hot loop (most bytes are inside strings): skip to the closing quote, escapes included.
      const opening = i++;
      for (;;) {
        const d = text[i];
        if (d === QUOTE || d === undefined) break;
        if (d === BACKSLASH) i++;
        i++;
      }
      if (depth === 1) lastString = { start: opening, end: i + 1 };
      else if (depth === 2 && elements) {
        if (start < 0) start = opening;
        end = i + 1;
      }
      continue;
    }
    if (depth > 2) {
      // Inside an element: only its nesting matters.
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 2) end = i + 1;
      continue;
    }
    if (c <= SPACE) continue;
    if (depth === 2 && elements) {
      if (c === COMMA || c === CLOSE_ARRAY) {
        if (start >= 0) elements.push({ start, end });
        start = -1;
        if (c === CLOSE_ARRAY) {
          found = elements;
          elements = undefined;
          depth--;
        }
        continue;
      }
      if (start < 0) start = i;
      end = i + 1;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (c === OPEN_ARRAY && depth === 2 && key === name) elements = [];
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === COLON && depth === 1) key = lastString && keyAt(body, lastString);
  }
  return found;
}
