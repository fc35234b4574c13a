import type { components } from '../../../generated/partner.js';
import { formatBrl } from '../../pages/formats.js';
import { html, type SafeHtml } from '../../pages/html.js';
import { pager, tableBox } from '../../pages/list-pages.js';
import type { CourseList } from '../../partner/catalogue/courses.js';
import { classDetail } from '../../partner/storefront/offer-blocks.js';
import type { PanelView } from '../layout.js';
import { formatInstant } from '../time.js';

type CourseListItem = components['schemas']['CourseListItem'];
type CourseClass = components['schemas']['CourseClass'];

export const CATALOGUE_PATH = '/painel/catalogo';
export const CAMPAIGNS_PATH = `${CATALOGUE_PATH}/campanhas`;

/** The two pages of the catalogue, the current one marked. */
export function catalogueTabs(current: string): SafeHtml {
  const tab = (href: string, label: string) =>
    html`<li><a href="${href}"${href === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="tabs" aria-label="Partes do catálogo"><ul>${tab(CATALOGUE_PATH, 'Cursos e turmas')}${tab(CAMPAIGNS_PATH, 'Campanhas')}</ul></nav>`;
}

export const yesNo = (value: boolean) => (value ? 'Sim' : 'Não');

function classRow(c: CourseClass, now: Date): SafeHtml {
  const detail = classDetail({
    modalityId: c.CourseClassModalityId,
    attendTypeId: c.CourseClassAttendTypeId,
    startsAt: c.startsAt,
    endsAt: c.endsAt,
    durationId: c.CourseClassDurationId,
    durationTime: c.durationTime,
  });
  const expiry = c.expiresAt ? new Date(c.expiresAt) : null;
  return html`<tr>
  <td><span class="item">${c.name}</span><span class="sub">${detail}</span></td>
  <td>${c.partnerSKU ? html`<code>${c.partnerSKU}</code>` : '—'}</td>
  <td class="amount">${formatBrl(c.priceInCents)}</td>
  <td>${c.visible ? 'Visível' : 'Oculta'}${c.active ? '' : html`<span class="sub">inativa</span>`}</td>
  <td>${expiry ? `${expiry <= now ? 'Expirou em' : 'Expira em'} ${formatInstant(expiry)}` : 'Não expira'}</td>
  <td>${c.gracePeriodDays} dias</td>
</tr>`;
}

function courseCard(course: CourseListItem, now: Date): SafeHtml {
  const heading = `curso-${course.id}`;
  return html`<section class="card" aria-labelledby="${heading}">
  <h2 id="${heading}">${course.name}</h2>
  <dl class="facts">
    <dt>Preço</dt><dd>${formatBrl(course.priceInCents)}</dd>
    <dt>SKU do curso</dt><dd>${course.internalPartnerProductId ? html`<code>${course.internalPartnerProductId}</code>` : 'Sem SKU'}</dd>
    <dt>Visível no site</dt><dd>${yesNo(course.showOnWebsite)}</dd>
    <dt>Ativo</dt><dd>${yesNo(course.active)}</dd>
    <dt>Área</dt><dd>${course.MicroArea.name}</dd>
    <dt>Carga horária</dt><dd>${course.workload} horas</dd>
    <dt>Máximo de parcelas</dt><dd>${course.maxInstallmentsToApply ?? 'O padrão da empresa'}</dd>
    <dt>Processo seletivo</dt><dd>${yesNo(course.hasSelectionProcess)}</dd>
    <dt>Número</dt><dd>${course.id}</dd>
  </dl>
  <h3>Turmas</h3>
  ${
    course.CourseClasses.length
      ? tableBox(
          `Turmas de ${course.name}`,
          html`
    <thead><tr><th scope="col">Turma</th><th scope="col">SKU da turma</th><th scope="col" class="amount">Preço</th><th scope="col">Visibilidade</th><th scope="col">Validade</th><th scope="col">Carência</th></tr></thead>
    <tbody>${course.CourseClasses.map((c) => classRow(c, now))}</tbody>`,
        )
      : html`<p>Nenhuma turma.</p>`
  }
</section>`;
}

/** `/painel/catalogo`: the partner's courses, each with its classes, as `GET /courses` answers them. */
export function coursesView(list: CourseList, query: URLSearchParams, now: Date): PanelView {
  return {
    title: 'Catálogo',
    body: html`${catalogueTabs(CATALOGUE_PATH)}
<section class="card" aria-labelledby="sobre">
  <h2 id="sobre">Cursos e turmas</h2>
  <p>No painel, um produto é um <strong>Curso</strong> e uma variação é uma <strong>Turma</strong>: numa venda de checkout (<code>POST /sales</code>), o <code>productSku</code> é o SKU do curso e o <code>variantSku</code>, o da turma. Cursos e turmas são cadastrados pela Partner API.</p>
  <p>${list.paging.totalItems} ${list.paging.totalItems === 1 ? 'curso' : 'cursos'}. Página pública do catálogo: <a href="${list.metadata.redirect_url}">${list.metadata.redirect_url}</a></p>
</section>
${list.content.map((course) => courseCard(course, now))}
${pager(CATALOGUE_PATH, query, list.paging, 'Páginas do catálogo')}`,
  };
}
