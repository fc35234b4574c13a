import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { scanJson } from '../../../src/core/json-spans.js';
import { packBlocks, scannedSpans } from '../../../src/institution/intake/item-blocks.js';

/** The items of a block as `itemSpans` finds them, each parsed alone. */
const split = (json: string) => {
  const bytes = Buffer.from(json);
  return scannedSpans(bytes).map((s) => JSON.parse(bytes.toString('utf8', s.start, s.end)) as unknown);
};

describe('scannedSpans', () => {
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

  it('packBlocks records where each item lies in its block, the spans a scan would find', () => {
    const items = Array.from({ length: 1_200 }, (_, i) => ({ idParcela: `P${i}`, descricao: `"${i}", [x]` }));
    const body = Buffer.from(`{ "parcelas" : [ ${items.map((item) => JSON.stringify(item)).join(' ,\n ')} ] }`);
    const blocks = packBlocks({ body, spans: scanJson(body, 'parcelas').elements! });
    expect(blocks.map((b) => b.itemCount)).toEqual([500, 500, 200]);
    for (const block of blocks) {
      const bytes = zlib.brotliDecompressSync(block.data);
      const found = scannedSpans(bytes).flatMap((s) => [s.start, s.end]);
      const stored = block.itemSpans!;
      // Both end where the item ends; the scan may also take in the whitespace before a comma.
      expect(stored.filter((_, k) => k % 2 === 0)).toEqual(found.filter((_, k) => k % 2 === 0));
      for (let k = 0; k < block.itemCount; k++) {
        const item = JSON.parse(bytes.toString('utf8', stored[2 * k]!, stored[2 * k + 1]!));
        expect(item).toEqual(items[block.firstIndex + k]);
      }
    }
  });
});
