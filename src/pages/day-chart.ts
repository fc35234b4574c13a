import { html, type SafeHtml } from './html.js';

/** One day of a month's chart: the bar's height, and the cells the table shows for that day. */
export interface DayFigure {
  /** `YYYY-MM-DD`, a day of the chart's month. */
  day: string;
  value: number;
  /** The day's figures as text, one per column after the day (`R$ 1.250,00`, `3`). */
  cells: readonly string[];
  /** The list page of the day's rows, when the reader may open it. */
  href?: string;
}

export interface DayChart {
  /** Prefix of the element ids; unique on the page. */
  id: string;
  /** What the chart shows: the SVG's title and the table's caption. */
  title: string;
  /** `YYYY-MM-01`: the month whose days are the bars. */
  month: string;
  /** Headers of the table's columns after `Dia`. */
  columns: readonly string[];
  /** The days with a figure; a day left out has no bar and no row. */
  figures: readonly DayFigure[];
  /** The figures in one sentence, read with the title in place of the drawing. */
  summary: string;
  /** The totals row of the table, one cell per column. */
  totals: readonly string[];
  /** The tallest bar's value as text, written at the top of the drawing as its scale. */
  maxLabel?: string;
  /** The caption only for screen readers, where a heading above already says it. (Default: false) */
  captionHidden?: boolean;
}

const WIDTH = 360;
const HEIGHT = 150;
const TOP = 18;
const BOTTOM = 18;
const TICKS = [1, 5, 10, 15, 20, 25];

/** Days in the month of `YYYY-MM-…`. */
export const daysInMonth = (month: string): number =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

/** `2026-03-07` → `07/03`. */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/**
 * A bar chart of the days of a month, drawn on the server as inline SVG: no script, no style
 * attribute (the panel's policy allows its stylesheets only, by hash), every shape placed by its
 * attributes and coloured by class. The drawing is one image (`role="img"`) named by its title and
 * the sentence of `summary`; the table beside it holds the same figures, day by day, for screen
 * readers and for reading exact values. At a narrow width the table goes under the drawing.
 */
export function dayChart(chart: DayChart): SafeHtml {
  const days = daysInMonth(chart.month);
  const slot = WIDTH / days;
  const max = Math.max(0, ...chart.figures.map((f) => f.value));
  const plot = HEIGHT - TOP - BOTTOM;
  const bars = chart.figures
    .filter((f) => f.value > 0)
    .map((f) => {
      const index = Number(f.day.slice(8, 10)) - 1;
      const height = Math.max(1, Math.round((f.value / max) * plot * 10) / 10);
      const x = Math.round((index * slot + slot * 0.15) * 10) / 10;
      const y = Math.round((TOP + plot - height) * 10) / 10;
      return html`<rect class="bar" x="${x}" y="${y}" width="${Math.round(slot * 0.7 * 10) / 10}" height="${height}"></rect>`;
    });
  const ticks = [...TICKS, days].map(
    (d) =>
      html`<text class="tick" x="${Math.round((d - 0.5) * slot * 10) / 10}" y="${HEIGHT - 4}" text-anchor="middle">${d}</text>`,
  );
  const cell = (text: string) => html`<td>${text}</td>`;
  const rows = chart.figures.map(
    (f) =>
      html`<tr><th scope="row">${f.href ? html`<a href="${f.href}">${dayMonth(f.day)}</a>` : dayMonth(f.day)}</th>${f.cells.map(cell)}</tr>`,
  );
  return html`<div class="day-chart">
  <svg role="img" aria-labelledby="${chart.id}-titulo ${chart.id}-resumo" viewBox="0 0 ${WIDTH} ${HEIGHT}" focusable="false">
    <title id="${chart.id}-titulo">${chart.title}</title>
    <desc id="${chart.id}-resumo">${chart.summary}</desc>
    <line class="axis" x1="0" y1="${TOP + plot}" x2="${WIDTH}" y2="${TOP + plot}"></line>
    ${max > 0 ? html`<line class="scale" x1="0" y1="${TOP}" x2="${WIDTH}" y2="${TOP}"></line>${chart.maxLabel ? html`<text class="tick" x="0" y="${TOP - 5}">${chart.maxLabel}</text>` : ''}` : ''}
    ${bars}
    ${ticks}
  </svg>
  <table class="day-table">
    <caption${chart.captionHidden ? html` class="visually-hidden"` : ''}>${chart.title}</caption>
    <thead><tr><th scope="col">Dia</th>${chart.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${rows.length ? rows : html`<tr><td colspan="${chart.columns.length + 1}">Nenhum dia com movimento.</td></tr>`}</tbody>
    <tfoot><tr><th scope="row">Total</th>${chart.totals.map(cell)}</tr></tfoot>
  </table>
</div>`;
}
