import { describe, expect, it } from 'vitest';
import { arrayElementSpans } from '../src/http/json-spans.js';

/** The elements' texts as the spans cut them out of `json`. */
function elements(json: string, name = 'parcelas'): string[] | undefined {
  const body = Buffer.from(json);
  return arrayElementSpans(body, name)?.map(({ start, end }) => body.toString('utf8', start, end));
}

describe('arrayElementSpans', () => {
  it('cuts each element out exactly, whatever it holds', () => {
    expect(elements('{"parcelas":[{"a":1}, {"b":"x]\\"},{"}, 3 ,"s",[1,[2]],null,true]}')).toEqual([
      '{"a":1}',
      '{"b":"x]\\"},{"}',
      '3',
      '"s"',
      '[1,[2]]',
      'null',
      'true',
    ]);
  });

  it('keeps the bytes of multi-byte characters and escapes as sent', () => {
    expect(elements('{ "parcelas" : [ {"nome":"João \\u00e7\\\\"} ,\n\t{"n": 1250.50} ] }')).toEqual(['{"nome":"João \\u00e7\\\\"}', '{"n": 1250.50}']);
  });

  it('finds the member among others, even spelled with escapes, and not inside nested objects', () => {
    expect(elements('{"x":[9],"y":{"parcelas":[5]},"parc\\u0065las":[1,2],"z":"parcelas"}')).toEqual(['1', '2']);
  });

  it('takes the last of a member named twice, as JSON.parse does', () => {
    expect(elements('{"parcelas":[1],"parcelas":[2,3]}')).toEqual(['2', '3']);
  });

  it('answers an empty list for an empty array and nothing when the member is missing or not an array', () => {
    expect(elements('{"parcelas":[]}')).toEqual([]);
    expect(elements('{"parcelas":{"a":[1]}}')).toBeUndefined();
    expect(elements('{"alunos":[1]}')).toBeUndefined();
  });
});
