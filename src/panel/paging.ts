import type { Paging } from '../core/paging.js';
import { html, type SafeHtml } from '../payments/html.js';

/** Rows of a panel list page. */
export const PANEL_PAGE_SIZE = 20;

/** Links to the pages around the current one of a list, each named by `href(page)`; nothing when one page holds it all. */
export function pageLinks(paging: Paging, href: (page: number) => string, label: string): SafeHtml {
  if (paging.totalPages <= 1 && paging.currentPage <= 1) return html``;
  return html`<nav class="pages" aria-label="${label}">
    ${paging.previousPage ? html`<a href="${href(paging.previousPage)}" rel="prev">Página anterior</a>` : ''}
    <span>Página ${paging.currentPage} de ${Math.max(paging.totalPages, 1)}</span>
    ${paging.nextPage ? html`<a href="${href(paging.nextPage)}" rel="next">Próxima página</a>` : ''}
  </nav>`;
}
