import zlib from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { scanJson } from '../../../src/core/json-spans.js';
import { packBlocks } from '../../../src/institution/intake/item-blocks.js';

/** The items of the blocks `packBlocks` makes of `{"parcelas": <array>}`, each parsed alone at its recorded span. */
const itemsAtSpans = (array: string) => {
  const body = Buffer.from(`{"parcelas":${array}}`);
  return packBlocks({ body, spans: scanJson(body, 'parcelas').elements! }).flatMap((block) => {
    const bytes = zlib.brotliDecompressSync(block.data);
    return Array.from({ length: block.itemCount }, (_, k) => {
      const text = bytes.toString('utf8', block.itemSpans[2 * k], block.itemSpans[2 * k + 1]);
      return JSON.parse(text) as unknown;
    });
  });
};

describe('packBlocks', () => {
  it.each([
    ['objects', '[{"a":1},{"b":[1,2,{"c":"]"}]}]'],
    ['strings holding separators, brackets and escaped quotes', '[{"s":"a,b]}{[\\"x\\\\"},"\\",]","tail\\\\"]'],
    ['items that are not objects, as an invalid item is stored', '[1,-2.5e3,"x",null,true,[],{}, [ [ ] ] ]'],
    ['whitespace and line breaks between items', '[\n  {"a": 1} ,\n\t{"b": "ç ã 🎓"}\r\n]'],
    ['one item', '[{"only":"one"}]'],
  ])('records where each item of %s lies, exactly where JSON.parse finds it', (_name, json) => {
    expect(itemsAtSpans(json)).toEqual(JSON.parse(json));
  });

  it('records the 500 items of a block of real installments', () => {
    const items = Array.from({ length: 500 }, (_, i) => ({ idParcela: `P${i}`, descricao: `Mensalidade, "${i}"` }));
    expect(itemsAtSpans(JSON.stringify(items))).toEqual(items);
  });

  it('packs blocks of 500 items, each item at its recorded span of its block', () => {
    const items = Array.from({ length: 1_200 }, (_, i) => ({ idParcela: `P${i}`, descricao: `"${i}", [x]` }));
    const body = Buffer.from(`{ "parcelas" : [ ${items.map((item) => JSON.stringify(item)).join(' ,\n ')} ] }`);
    const blocks = packBlocks({ body, spans: scanJson(body, 'parcelas').elements! });
    expect(blocks.map((b) => b.itemCount)).toEqual([500, 500, 200]);
    for (const block of blocks) {
      const bytes = zlib.brotliDecompressSync(block.data);
      expect(block.itemSpans).toHaveLength(2 * block.itemCount);
      for (let k = 0; k < block.itemCount; k++) {
        const item = JSON.parse(bytes.toString('utf8', block.itemSpans[2 * k], block.itemSpans[2 * k + 1]));
        expect(item).toEqual(items[block.firstIndex + k]);
      }
    }
  });
});
