import { isDeepStrictEqual } from 'node:util';

import { describe, expect, it } from 'vitest';

import { JsonSyntaxError, scanJson, type Span, withoutWhitespace } from '../../src/core/json-spans.js';
import { jsonGenerator } from '../support/json-generator.js';

const NAME = 'parcelas';
/** Generated JSON texts, each also mutated a few times (property test). */
const CASES = { documents: 5_000, mutationsEach: 4 };

function text(body: Buffer, { start, end }: Span): string {
  return body.toString('utf8', start, end);
}

/** The elements' texts as the spans cut them out of `json`. */
function elements(json: string | Buffer, name = NAME): string[] | undefined {
  const body = Buffer.from(json);
  return scanJson(body, name).elements?.map((span) => text(body, span));
}

/** The top-level members' names and value texts. */
function members(json: string): [string, string][] | undefined {
  const body = Buffer.from(json);
  const found = scanJson(body, NAME).members;
  return found && [...found].map(([name, span]) => [name, text(body, span)]);
}

/** Where the scan refuses `json`, or 'accepted'. */
function refusal(json: string | Buffer): number | 'accepted' {
  try {
    scanJson(Buffer.from(json), NAME);
    return 'accepted';
  } catch (error) {
    if (error instanceof JsonSyntaxError) return error.position;
    throw error;
  }
}

describe('scanJson: spans', () => {
  it('cuts each element out exactly, whatever it holds', () => {
    expect(elements('{"parcelas":[{"a":1}, {"b":"x]\\"},{"}, 3 ,"s",[1,[2]],null,true,-0.5e-3]}')).toEqual([
      '{"a":1}',
      '{"b":"x]\\"},{"}',
      '3',
      '"s"',
      '[1,[2]]',
      'null',
      'true',
      '-0.5e-3',
    ]);
  });

  it('keeps the bytes of multi-byte characters and escapes as sent', () => {
    expect(elements('{ "parcelas" : [ {"nome":"João \\u00e7\\\\"} ,\n\t{"n": 1250.50} ] }')).toEqual([
      '{"nome":"João \\u00e7\\\\"}',
      '{"n": 1250.50}',
    ]);
  });

  it('finds the member among others, even spelled with escapes, and not inside nested objects', () => {
    expect(elements('{"x":[9],"y":{"parcelas":[5]},"parc\\u0065las":[1,2],"z":"parcelas"}')).toEqual(['1', '2']);
  });

  it('takes the last of a member named twice, as JSON.parse does', () => {
    expect(elements('{"parcelas":[1],"parcelas":[2,3]}')).toEqual(['2', '3']);
    expect(elements('{"parcelas":[1],"parcelas":null}')).toBeUndefined();
  });

  it('answers an empty list for an empty array and nothing when the member is missing or not an array', () => {
    expect(elements('{"parcelas":[]}')).toEqual([]);
    expect(elements('{"parcelas":{"a":[1]}}')).toBeUndefined();
    expect(elements('{"alunos":[1]}')).toBeUndefined();
    expect(elements('[{"parcelas":[1]}]')).toBeUndefined();
  });

  it('counts byte offsets from the start of the body, BOM included', () => {
    const body = Buffer.from('\ufeff{"parcelas":["é",2]}');
    expect(scanJson(body, NAME).elements).toEqual([
      { start: 16, end: 20 },
      { start: 21, end: 22 },
    ]);
  });

  it('records only the top-level members, names decoded, the last value of a name given twice', () => {
    expect(members('{"a":1, "b" : {"a":2,"c":[3]} ,"caf\\u00e9":"x","ação":true,"a":[4]}')).toEqual([
      ['a', '[4]'],
      ['b', '{"a":2,"c":[3]}'],
      ['café', '"x"'],
      ['ação', 'true'],
    ]);
  });

  it('tells an object at the top level from any other value', () => {
    expect(scanJson(Buffer.from(' {} '), NAME)).toEqual({
      topLevel: 'object',
      members: new Map(),
      elements: undefined,
    });
    expect(scanJson(Buffer.from('[{"parcelas":[]}]'), NAME)).toEqual({ topLevel: 'other' });
    expect(scanJson(Buffer.from('"{"'), NAME)).toEqual({ topLevel: 'other' });
  });

  it('accepts 10,000 levels of nesting', () => {
    const deep = '[{"a":'.repeat(10_000) + '0' + '}]'.repeat(10_000);
    expect(elements(`{"parcelas":[${deep},1]}`)).toEqual([deep, '1']);
  });
});

describe('scanJson: refused as JSON.parse refuses them, with the byte where it is found', () => {
  it.each([
    ['a trailing comma in an array', '[1,2,]', 5],
    ['a trailing comma in an object', '{"a":1,}', 7],
    ['a leading comma', '[,1]', 1],
    ['a leading comma in an object', '{,"a":1}', 1],
    ['a missing comma', '[1 2]', 3],
    ['a missing colon', '{"a" 1}', 5],
    ['a leading zero', '01', 1],
    ['a negative leading zero', '-01', 2],
    ['a point without decimals', '1.', 2],
    ['a point without an integer part', '.5', 0],
    ['a lone minus', '-', 1],
    ['an exponent without digits', '1e', 2],
    ['an exponent with a sign only', '1E+', 3],
    ['a plus sign', '+1', 0],
    ['a hexadecimal number', '0x1', 1],
    ['NaN', 'NaN', 0],
    ['an unquoted member name', '{a:1}', 1],
    ['a number as member name', '{1:1}', 1],
    ['single quotes', "['a']", 1],
    ['a tab in a string', '"a\tb"', 2],
    ['a NUL in a string', '"a\u0000"', 2],
    ['an unknown escape', '"\\x"', 2],
    ['an upper-case escape', '"\\U0041"', 2],
    ['a short unicode escape', '"\\u12"', 2],
    ['a non-hex unicode escape', '"\\u12g4"', 2],
    ['a truncated true', 'tru', 3],
    ['a truncated null', 'nul', 3],
    ['a literal in another case', 'True', 0],
    ['two top-level values', '{} {}', 3],
    ['two numbers', '1 2', 2],
    ['an unterminated string', '"abc', 4],
    ['an unterminated array', '[1,2', 4],
    ['an unterminated object', '{"a":1', 6],
    ['a name without a value', '{"a":', 5],
    ['a mismatched closing bracket', '{"a":1]', 6],
    ['a closing bracket alone', ']', 0],
    ['an empty text', '', 0],
    ['whitespace only', ' \r\n\t', 4],
    ['a form feed as whitespace', '\f1', 0],
    ['a BOM given twice', '\ufeff\ufeff1', 3],
  ])('%s: %j', (_rule, json, position) => {
    expect(() => JSON.parse(json)).toThrow(SyntaxError);
    expect(refusal(json)).toBe(position);
  });

  it('refuses a byte >= 0x80 outside a string, and accepts any inside one', () => {
    expect(refusal(Buffer.from([0x5b, 0x31, 0x2c, 0x80, 0x5d]))).toBe(3);
    expect(refusal(Buffer.from([0x22, 0x80, 0xff, 0xc3, 0x22]))).toBe('accepted');
  });

  it('throws an Error that says where', () => {
    expect(() => scanJson(Buffer.from('[1,]'), NAME)).toThrow(
      new JsonSyntaxError(3, 'Unexpected byte 0x5d, expected a JSON value'),
    );
    expect(new JsonSyntaxError(3, 'x')).toBeInstanceOf(Error);
  });
});

describe('scanJson: accepted as JSON.parse accepts them', () => {
  it.each([
    ['a BOM before an object', '\ufeff{"a":1}'],
    ['minus zero', '-0'],
    ['an exponent with a sign', '1E+2'],
    ['every number form', '[0,-0,1.5,-12.25e-3,3E7,0e0,1e+01]'],
    ['a unicode escape', '"\\u00e9"'],
    ['every escape', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\uABcd\\ud83d\\ude00\\ud800"'],
    ['nested empty containers', '{"a":[[],{}]}'],
    ['whitespace everywhere allowed', ' \t\r\n{ \n"a" \t: [ 1 , { "b" : null } , [ ] ] , "c" :"d" }\r\n'],
    ['a top-level literal', 'false'],
    ['DEL and non-ASCII raw in a string', '"\u007f é 😀"'],
  ])('%s: %j', (_rule, json) => {
    expect(() => JSON.parse(json.replace(/^\ufeff/, ''))).not.toThrow();
    expect(refusal(json)).toBe('accepted');
  });
});

describe('withoutWhitespace', () => {
  it('removes the spacing outside strings and keeps it inside them', () => {
    const body = Buffer.from('{ "a" : "x y" , "b":[ 1 , 2 ] }');
    expect(withoutWhitespace(body, { start: 0, end: body.length }).toString()).toBe('{"a":"x y","b":[1,2]}');
  });

  it('is not fooled by escaped quotes and backslashes', () => {
    const body = Buffer.from('{ "a" : "say \\"hi , there\\" " , "b\\\\" :\r\n[ "\\\\" ,\t1 ] }');
    expect(withoutWhitespace(body, { start: 0, end: body.length }).toString()).toBe(
      '{"a":"say \\"hi , there\\" ","b\\\\":["\\\\",1]}',
    );
  });

  it('gives the same bytes for an element however it was spaced', () => {
    const body = Buffer.from(
      '{"parcelas":[ {"nome": "João da Silva", "v":[1, 2]} ,\n{"nome":"João da Silva","v":[1,2]}]}',
    );
    const [spaced, compact] = scanJson(body, NAME).elements!.map((span) => withoutWhitespace(body, span).toString());
    expect(spaced).toBe('{"nome":"João da Silva","v":[1,2]}');
    expect(compact).toBe(spaced);
  });
});

/** JSON.parse as the service would have done it: body-parser decodes UTF-8 and drops a leading BOM. */
function parsed(body: Buffer): { value: unknown } | undefined {
  const decoded = body.toString('utf8');
  try {
    return { value: JSON.parse(decoded.startsWith('\ufeff') ? decoded.slice(1) : decoded) };
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

const byName = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** How the scan of `body` disagrees with JSON.parse, if it does. */
function disagreement(body: Buffer): string | undefined {
  const expected = parsed(body);
  let scanned;
  try {
    scanned = scanJson(body, NAME);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) return `throws ${String(error)}`;
    return expected && `refused, JSON.parse accepts: ${error.message}`;
  }
  if (!expected) return 'accepted, JSON.parse refuses';
  const { value } = expected;
  const parseSpan = (span: Span) => JSON.parse(text(body, span)) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return isDeepStrictEqual(scanned, { topLevel: 'other' })
      ? undefined
      : `not a top-level object: ${JSON.stringify(scanned)}`;
  }
  if (scanned.topLevel !== 'object') return 'a top-level object not seen as one';
  const entries = [...scanned.members!].map(([name, span]): [string, unknown] => [name, parseSpan(span)]);
  if (!isDeepStrictEqual(entries.sort(byName), Object.entries(value).sort(byName)))
    return `members ${JSON.stringify(entries)}`;
  const array = (value as Record<string, unknown>)[NAME];
  const found = scanned.elements?.map(parseSpan);
  return isDeepStrictEqual(found, Array.isArray(array) ? array : undefined)
    ? undefined
    : `elements ${JSON.stringify(found)}`;
}

describe('scanJson against JSON.parse (property)', () => {
  it('accepts exactly the texts JSON.parse accepts and reports the same members and elements', () => {
    const { document, mutate, int } = jsonGenerator(20_260_115, NAME);
    const failures: string[] = [];
    const counts = { documents: 0, withElements: 0, mutations: 0, validMutations: 0 };
    const check = (body: Buffer) => {
      const problem = disagreement(body);
      if (problem && failures.length < 5) failures.push(`${JSON.stringify(body.toString('latin1'))}: ${problem}`);
    };
    for (let n = 0; n < CASES.documents; n++) {
      const body = document();
      check(body);
      counts.documents++;
      if (parsed(body) && scanJson(body, NAME).elements) counts.withElements++;
      for (let m = 0; m < CASES.mutationsEach; m++) {
        let mutated = mutate(body);
        for (let more = int(3); more > 0; more--) mutated = mutate(mutated);
        check(mutated);
        counts.mutations++;
        if (parsed(mutated)) counts.validMutations++;
      }
    }
    expect(failures).toEqual([]);
    // The cases are worth something only if every side is well represented.
    expect(counts.withElements).toBeGreaterThan(CASES.documents / 10);
    expect(counts.validMutations).toBeGreaterThan(counts.mutations / 20);
    expect(counts.validMutations).toBeLessThan(counts.mutations * 0.9);
  });
});
