/** mulberry32: a small seeded generator, so that a failing case can be found again. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * n);
  };
}

/**
 * Random JSON texts for the scanner's property test (`document`), with a top-level member `arrayName`
 * holding an array now and then, and random edits that make or break the grammar (`mutate`).
 */
export function jsonGenerator(seed: number, arrayName: string) {
  const int = random(seed);
  const pick = <T>(options: readonly T[]): T => options[int(options.length)]!;
  const digits = (min: number) => Array.from({ length: min + int(4) }, () => int(10)).join('');
  const ws = () => (int(4) === 0 ? pick([' ', '\n', '\t', '\r\n  ', ' \t ']) : '');
  const hex = () => [...int(0x10000).toString(16).padStart(4, '0')].map((c) => (int(2) ? c.toUpperCase() : c)).join('');
  const CHARS = [
    'a',
    'Z',
    '5',
    ' ',
    '/',
    "'",
    '\u007f',
    'é',
    'ção',
    '中',
    '😀',
    '\\"',
    '\\\\',
    '\\/',
    '\\b',
    '\\f',
    '\\n',
    '\\r',
    '\\t',
    '\\ud83d\\ude00',
    '\\uDC00',
  ];
  const string = (): string =>
    `"${Array.from({ length: int(6) }, () => (int(6) === 0 ? `\\u${hex()}` : pick(CHARS))).join('')}"`;
  const number = () =>
    (int(2) ? '-' : '') +
    (int(3) === 0 ? '0' : String(1 + int(9)) + digits(0)) +
    (int(2) ? `.${digits(1)}` : '') +
    (int(2) ? `${pick(['e', 'E'])}${pick(['', '+', '-'])}${digits(1)}` : '');
  const name = () =>
    int(4) === 0 ? pick([`"${arrayName}"`, '"parc\\u0065las"', '"__proto__"', '"1"', '""']) : string();
  const list = (item: () => string, open: string, close: string) =>
    `${open}${ws()}${Array.from({ length: int(5) }, item).join(`${ws()},${ws()}`)}${ws()}${close}`;
  const value = (depth: number): string => {
    const kind = int(depth > 3 ? 3 : 5);
    if (kind === 0) return string();
    if (kind === 1) return number();
    if (kind === 2) return pick(['true', 'false', 'null']);
    if (kind === 3) return list(() => value(depth + 1), '[', ']');
    return list(() => `${name()}${ws()}:${ws()}${value(depth + 1)}`, '{', '}');
  };
  const member = () =>
    int(3) === 0 ? `"${arrayName}"${ws()}:${ws()}${list(() => value(2), '[', ']')}` : `${name()}:${value(1)}`;
  const topLevel = () => (int(5) === 0 ? value(0) : list(member, '{', '}'));
  const document = () => Buffer.from(`${int(8) === 0 ? '\ufeff' : ''}${ws()}${topLevel()}${ws()}`);

  // Edits that make or break the grammar, applied anywhere or next to a byte that matters to it;
  // the usual suspects (signs, commas, closers, escapes, form feed) twice as often.
  const SUSPECTS = [...',]}+-.e0\f"\\x'];
  const EDITS = [
    ...SUSPECTS,
    ...':[{ \t\n\r123456789Etfnulg\u0000\u001f\u007f',
    '00',
    '\\u',
    '\\x',
    'tru',
    'null',
    '\ufeff',
  ];
  const ANCHORS = Buffer.from('{}[],:"\\.eE-0123456789u');
  const edit = () => (int(8) === 0 ? Buffer.from([0x80 + int(0x80)]) : Buffer.from(pick(int(2) ? SUSPECTS : EDITS)));
  const mutate = (body: Buffer): Buffer => {
    const anchors = [...body.keys()].filter((i) => ANCHORS.includes(body[i]!));
    const at = int(2) && anchors.length > 0 ? Math.max(0, pick(anchors) + int(3) - 1) : int(body.length + 1);
    const how = int(4);
    if (how === 0) return Buffer.concat([body.subarray(0, at), edit(), body.subarray(at)]);
    if (how === 1) return Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
    if (how === 2) return Buffer.concat([body.subarray(0, at), edit(), body.subarray(at + 1)]);
    return body.subarray(0, at);
  };
  return { document, mutate, int };
}
