import { describe, expect, it } from 'vitest';

import { collectJsonTexts, fillJsonTexts, keepJsonText, spliceJsonTexts } from '../../src/core/json-text.js';

describe('values kept with their JSON text', () => {
  const kept = (text: string) => keepJsonText(JSON.parse(text) as unknown, text);

  it('serialises each kept value as its own text, wherever it sits, and the rest as JSON.stringify does', () => {
    const a = '{"n":1e400,"m":12.50}';
    const b = '[ 1.0 , "x\\"y" ]';
    const body = { first: kept(a), list: [kept(b), { plain: 1.5 }], text: 'a "quoted" \\ value' };
    const json = spliceJsonTexts(JSON.stringify(body));
    expect(json).toBe(`{"first":${a},"list":[${b},{"plain":1.5}],"text":"a \\"quoted\\" \\\\ value"}`);
    expect(JSON.parse(json)).toEqual({
      first: { n: Infinity, m: 12.5 },
      list: [[1, 'x"y'], { plain: 1.5 }],
      text: 'a "quoted" \\ value',
    });
  });

  it('leaves the parsed value as code reads it, and JSON without kept values unchanged', () => {
    const value = kept('{"n":12.50,"s":"\\u00e9"}') as { n: number; s: string };
    expect(value).toEqual({ n: 12.5, s: 'é' });
    expect(Object.keys(value)).toEqual(['n', 's']);
    const plain = JSON.stringify({ a: [1, 'b'], c: null });
    expect(spliceJsonTexts(plain)).toBe(plain);
  });

  it('writes collected texts in place of their slots, byte for byte as the marker splice does', () => {
    const a = '{"n":1e400,"m":12.50,"s":"</script>\\u2028 é"}';
    const b = '[ 1.0 , "x\\"y" ]';
    const body = { first: kept(a), list: [kept(b), { plain: 1.5 }, kept(a)], text: 'a "quoted" \u0001 value' };
    const texts: string[] = [];
    const json = collectJsonTexts(texts, () => JSON.stringify(body));
    expect(texts).toEqual([a, b, a]);
    expect(json).not.toContain('12.50');
    expect(fillJsonTexts(json, texts)).toBe(spliceJsonTexts(JSON.stringify(body)));
    expect(fillJsonTexts(json, texts)).toBe(
      `{"first":${a},"list":[${b},{"plain":1.5},${a}],"text":"a \\"quoted\\" \\u0001 value"}`,
    );
  });

  it('writes the whole marker again once collecting is over, and refuses slots without texts', () => {
    const value = kept('{"n":12.50}');
    const texts: string[] = [];
    const slotted = collectJsonTexts(texts, () => JSON.stringify([value]));
    expect(spliceJsonTexts(JSON.stringify([value]))).toBe('[{"n":12.50}]');
    expect(() => fillJsonTexts(slotted, [])).toThrow(/more JSON text slots/);
  });
});
