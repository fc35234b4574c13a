/** Reading the statements' pages as a person reads them. */

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const text = (cell: string) =>
  cell
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!)
    .trim();

/**
 * The rows of the first table of a page, each a list of its cells' main text (what comes before
 * the cell's smaller second line, `<span class="sub">`).
 */
export function tableRows(page: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
      text(cell[1]!.split('<span class="sub">')[0]!),
    ),
  );
}

/** The `href` of a link of the page, by its text, as the browser follows it. */
export function linkHref(page: string, label: string): string | undefined {
  const match = new RegExp(`<a href="([^"]+)"[^>]*>${label}</a>`).exec(page);
  return match ? match[1]!.replaceAll('&amp;', '&') : undefined;
}

/** `1234.56` or 1234.56 → `R$ 1.234,56`, `-100.00` → `-R$ 100,00`, written out by hand. */
export function reais(amount: string | number): string {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount;
  const [whole, cents = ''] = text.replace(/^-/, '').split('.');
  return `${text.startsWith('-') ? '-' : ''}R$ ${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${cents.padEnd(2, '0')}`;
}

/** `2026-03-10` → `10/03/2026`; nothing → `—`. */
export const dayBr = (date: string | null | undefined) => (date ? date.split('-').reverse().join('/') : '—');
