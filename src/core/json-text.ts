/**
 * JSON values answered with the very text they were received as. `JSON.parse` then
 * `JSON.stringify` rewrites numbers (`12.50` becomes `12.5`, `1e400` becomes `null`, being
 * Infinity), and Node 20 has no `JSON.rawJSON`. A parsed value marked with `keepJsonText`
 * serialises to a marker string holding its text; `spliceJsonTexts` then puts the text itself in
 * place of each marker. The parsed value stays what validators and code read.
 */

/** Starts every marker: a NUL, which no text this service stores can hold. */
const MARK = '\u0000json-text:';
/** How a marker starts once `JSON.stringify` has written it as a string. */
const WRITTEN_MARK = JSON.stringify(MARK).slice(0, -1);

/**
 * A marker without the text, written while `collectJsonTexts` collects: the texts go aside in the
 * order JSON.stringify meets them, instead of being escaped into a string and parsed back out.
 */
const SLOT = '\u0000json-text';
const WRITTEN_SLOT = JSON.stringify(SLOT);
let collected: string[] | undefined;

/** `value`, parsed from `text`, now written back as `text` by `spliceJsonTexts(JSON.stringify(…))`. */
export function keepJsonText<T>(value: T, text: string): T {
  if (value === null || typeof value !== 'object') return value;
  const toJSON = () => {
    if (!collected) return MARK + text;
    collected.push(text);
    return SLOT;
  };
  Object.defineProperty(value, 'toJSON', { value: toJSON, enumerable: false, configurable: true });
  return value;
}

/**
 * Runs `write`, whose JSON.stringify (synchronous, within it) writes each kept value as a slot and
 * puts its text in `into`, in order; `fillJsonTexts` then puts the texts in place. On a page of a
 * hundred submitted items this takes about a sixth of the CPU of `spliceJsonTexts` (bench/RESULTS.md).
 */
export function collectJsonTexts<T>(into: string[], write: () => T): T {
  const outer = collected;
  collected = into;
  try {
    return write();
  } finally {
    collected = outer;
  }
}

/** JSON written under `collectJsonTexts` with its slots replaced by the texts collected, in order. */
export function fillJsonTexts(json: string, texts: readonly string[]): string {
  let at = json.indexOf(WRITTEN_SLOT);
  if (at < 0) return json;
  const parts: string[] = [];
  let from = 0;
  let n = 0;
  while (at >= 0) {
    const text = texts[n++];
    if (text === undefined) throw new Error('more JSON text slots than texts collected');
    parts.push(json.slice(from, at), text);
    from = at + WRITTEN_SLOT.length;
    at = json.indexOf(WRITTEN_SLOT, from);
  }
  parts.push(json.slice(from));
  return parts.join('');
}

/** End (exclusive) of the JSON string literal whose opening quote is at `start`. */
function endOfString(json: string, start: number): number {
  for (let i = start + 1; i < json.length; i++) {
    if (json[i] === '\\') i++;
    else if (json[i] === '"') return i + 1;
  }
  throw new Error('unterminated JSON string');
}

/** JSON text from `JSON.stringify` with each value marked by `keepJsonText` replaced by its own text. */
export function spliceJsonTexts(json: string): string {
  let at = json.indexOf(WRITTEN_MARK);
  if (at < 0) return json;
  let out = '';
  let from = 0;
  while (at >= 0) {
    const end = endOfString(json, at);
    out += json.slice(from, at) + (JSON.parse(json.slice(at, end)) as string).slice(MARK.length);
    from = end;
    at = json.indexOf(WRITTEN_MARK, from);
  }
  return out + json.slice(from);
}
