import { describe, expect, it } from 'vitest';

import { firstDayOfMonth, lastDayOfMonth } from '../../src/core/local-date.js';
import { type DayChart, dayChart, daysInMonth } from '../../src/pages/day-chart.js';

const chart = (overrides: Partial<DayChart> = {}): string =>
  dayChart({
    id: 'c',
    title: 'Vendas por dia em fevereiro de 2028',
    month: '2028-02-01',
    columns: ['Vendas'],
    figures: [
      { day: '2028-02-03', value: 2, cells: ['2'], href: '/painel/vendas?dia=2028-02-03' },
      { day: '2028-02-29', value: 4, cells: ['4 <b>'] },
    ],
    summary: '6 vendas.',
    totals: ['6'],
    ...overrides,
  }).value;

describe('the day chart of the page kit', () => {
  it('knows the days of each month, leap years included', () => {
    expect([daysInMonth('2028-02-01'), daysInMonth('2026-02-01'), daysInMonth('2026-12-01')]).toEqual([29, 28, 31]);
    expect([firstDayOfMonth('2026-03-16'), lastDayOfMonth('2026-03-16')]).toEqual(['2026-03-01', '2026-03-31']);
    expect([lastDayOfMonth('2028-02-01'), lastDayOfMonth('2026-02-28'), lastDayOfMonth('2026-12-31')]).toEqual([
      '2028-02-29',
      '2026-02-28',
      '2026-12-31',
    ]);
  });

  it('draws one bar per day with a value, scaled to the tallest, placed by attributes and never by a style attribute', () => {
    const svg = chart();
    const bars = [...svg.matchAll(/<rect class="bar" x="([\d.]+)" y="([\d.]+)" width="[\d.]+" height="([\d.]+)">/g)];
    expect(bars.map((b) => Number(b[3]))).toEqual([57, 114]);
    expect(Number(bars[1]![1])).toBeGreaterThan(Number(bars[0]![1]));
    expect(Number(bars[1]![2])).toBeLessThan(Number(bars[0]![2]));
    expect(svg).not.toMatch(/style=/);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('<text class="tick" x="353.8" y="146" text-anchor="middle">29</text>');
  });

  it('names the drawing as one image and repeats its figures, escaped, in a table with caption, headers and total', () => {
    const svg = chart();
    expect(svg).toContain('<svg role="img" aria-labelledby="c-titulo c-resumo"');
    expect(svg).toContain('<desc id="c-resumo">6 vendas.</desc>');
    expect(svg).toContain('<caption>Vendas por dia em fevereiro de 2028</caption>');
    expect(svg).toContain('<thead><tr><th scope="col">Dia</th><th scope="col">Vendas</th></tr></thead>');
    expect(svg).toContain('<tr><th scope="row"><a href="/painel/vendas?dia=2028-02-03">03/02</a></th><td>2</td></tr>');
    expect(svg).toContain('<tr><th scope="row">29/02</th><td>4 &lt;b&gt;</td></tr>');
    expect(svg).toContain('<tfoot><tr><th scope="row">Total</th><td>6</td></tr></tfoot>');
  });

  it('an empty month has no bar, no scale and a row that says so', () => {
    const svg = chart({ figures: [], totals: ['0'], maxLabel: '0 vendas' });
    expect(svg).not.toContain('<rect');
    expect(svg).not.toContain('class="scale"');
    expect(svg).toContain('<td colspan="2">Nenhum dia com movimento.</td>');
  });
});
