import { describe, expect, it } from 'vitest';
import { itemSpans } from '../../../src/institution/intake/item-blocks.js';

/** The items of a block as `itemSpans` finds them, each parsed alone. */
const split = (json: string) => {
  const bytes = Buffer.from(json);
  return itemSpans(bytes).map((s) => JSON.parse(bytes.toString('utf8', s.start, s.end)) as unknown);
};

describe('itemSpans', () => {
  it.each([
    ['objects', '[{"a":1},{"b":[1,2,{"c":"]"}]}]'],
    ['strings holding separators, brackets and escaped quotes', '[{"s":"a,b]}{[\\"x\\\\"},"\\",]","tail\\\\"]'],
    ['items that are not objects, as an invalid item is stored', '[1,-2.5e3,"x",null,true,[],{}, [ [ ] ] ]'],
    ['whitespace and line breaks between items', '[\n  {"a": 1} ,\n\t{"b": "ç ã 🎓"}\r\n]'],
    ['one item', '[{"only":"one"}]'],
    ['no item', '[]'],
  ])('splits %s exactly where JSON.parse does', (_name, json) => {
    expect(split(json)).toEqual(JSON.parse(json));
  });

  it('finds the 500 items of a block of real installments', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ idParcela: `P${i}`, descricao: `Mensalidade, "${i}"` }));
    expect(split(JSON.stringify(items))).toEqual(items);
  });
});
