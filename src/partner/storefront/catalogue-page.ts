import { formatBrl } from '../../pages/formats.js';
import { html, page, type SafeHtml } from '../../pages/html.js';
import type { WebhookCheckout } from '../sales/events/event-payloads.js';
import type { CatalogueCourse, CataloguePage, ClassOffer } from './catalogue-offer.js';
import type { ContactErrors, ContactForm } from './contact-form.js';
import { classDetail, OFFER_FOOTER, publicFrame, purchaseBody } from './offer-blocks.js';

export const catalogueUrl = (partnerId: string) => `/catalogue/${partnerId}`;
export const classUrl = (partnerId: string, classId: number) => `/catalogue/${partnerId}/turmas/${classId}`;

function courseCard(partnerId: string, { course, classes }: CatalogueCourse): SafeHtml {
  const heading = `curso-${course.id}`;
  const hours = course.workload > 0 ? html`<p class="hint">Carga horária: ${course.workload} horas</p>` : '';
  const offers = classes.length
    ? html`<ul class="offers">${classes.map(
        (c) => html`<li><div><span class="item">${c.name}</span><span class="sub">${classDetail(c)}</span></div>
          <div class="buy"><span class="price">${formatBrl(c.priceInCents)}</span>
          <a class="button" href="${classUrl(partnerId, c.id)}">Comprar<span class="visually-hidden"> a ${c.name} de ${course.name}</span></a></div></li>`,
      )}</ul>`
    : html`<p class="hint">Nenhuma turma aberta no momento.</p>`;
  return html`<section class="card" aria-labelledby="${heading}"><h2 id="${heading}">${course.name}</h2>
    ${course.description && course.description !== course.name ? html`<p>${course.description}</p>` : ''}${hours}${offers}</section>`;
}

function pages(partnerId: string, p: CataloguePage): SafeHtml {
  if (p.totalPages <= 1) return html``;
  const link = (n: number, label: string, rel: string) =>
    html`<a href="${catalogueUrl(partnerId)}?pagina=${n}" rel="${rel}">${label}</a>`;
  return html`<nav class="pages" aria-label="Páginas do catálogo">
    ${p.page > 1 ? link(p.page - 1, 'Página anterior', 'prev') : ''}
    <span>Página ${p.page} de ${p.totalPages}</span>
    ${p.page < p.totalPages ? link(p.page + 1, 'Próxima página', 'next') : ''}</nav>`;
}

/** The partner's catalogue: each course shown on its website with its classes open for sale, each one a way to buy it. */
export function renderCataloguePage(
  partnerId: string,
  partnerName: string,
  p: CataloguePage,
  sandbox: boolean,
): string {
  return page(
    `Cursos - ${partnerName}`,
    html`<section class="card" aria-labelledby="catalogo"><h1 id="catalogo">Cursos de ${partnerName}</h1>
      <p>${p.courses.length ? 'Escolha uma turma para comprar. O pagamento é feito em seguida, em uma página segura.' : 'Nenhum curso disponível no momento.'}</p></section>
    ${p.courses.map((c) => courseCard(partnerId, c))}
    ${pages(partnerId, p)}`,
    publicFrame(partnerName, 'Catálogo de cursos', sandbox, OFFER_FOOTER),
  );
}

export interface ClassPageView {
  offer: ClassOffer;
  methods: WebhookCheckout['paymentMethods'];
  values: ContactForm;
  errors: ContactErrors;
  notice?: { text: string; error?: boolean };
  sandbox: boolean;
}

/** The page of one class of the catalogue: what it is, its price and payment methods, and the buyer's form. */
export function renderClassPage(v: ClassPageView): string {
  const { course, courseClass, partnerId, partnerName } = v.offer;
  return page(
    `${course.name} - ${partnerName}`,
    purchaseBody({
      heading: course.name,
      partnerName,
      items: [
        {
          course: course.name,
          detail: `Turma: ${courseClass.name} · ${classDetail(courseClass)}`,
          priceInCents: courseClass.priceInCents,
        },
      ],
      priceInCents: courseClass.priceInCents,
      facts: course.workload > 0 ? [['Carga horária', `${course.workload} horas`]] : [],
      methods: v.methods,
      form: { action: classUrl(partnerId, courseClass.id), values: v.values, errors: v.errors },
      notice: v.notice,
      back: { href: catalogueUrl(partnerId), label: `Voltar aos cursos de ${partnerName}` },
    }),
    publicFrame(partnerName, 'Catálogo de cursos', v.sandbox),
  );
}
