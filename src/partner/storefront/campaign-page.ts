import { html, page } from '../../pages/html.js';
import type { WebhookCheckout } from '../sales/events/event-payloads.js';
import type { CampaignOffer, CampaignStanding } from './campaign-offer.js';
import type { ContactErrors, ContactForm } from './contact-form.js';
import { classDetail, formatDateTimeBr, OFFER_FOOTER, publicFrame, purchaseBody } from './offer-blocks.js';

export interface CampaignPageView {
  offer: CampaignOffer;
  methods: WebhookCheckout['paymentMethods'];
  values: ContactForm;
  errors: ContactErrors;
  notice?: { text: string; error?: boolean };
  sandbox: boolean;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The page of an open campaign: its courses, price, payment methods and deadlines, and the buyer's form. */
export function renderCampaignPage(v: CampaignPageView): string {
  const { campaign, courses, partnerName } = v.offer;
  const facts: [string, string][] = [];
  if (campaign.endsAt) facts.push(['Oferta válida até', formatDateTimeBr(campaign.endsAt)]);
  facts.push(['Prazo para pagar', `${plural(campaign.runningDaysToExpire, 'dia', 'dias')} depois de começar a compra`]);
  facts.push([
    'No financiamento',
    `primeira parcela em até ${plural(campaign.runningDaysToFirstInstallment, 'dia', 'dias')}, até ${campaign.maxInstallmentsToApply} parcelas`,
  ]);
  return page(
    `${campaign.name} - ${partnerName}`,
    purchaseBody({
      heading: campaign.name,
      partnerName,
      items: courses.map((s) => ({
        course: s.course.name,
        detail: `Turma: ${s.courseClass.name} · ${classDetail(s.courseClass)}`,
        priceInCents: s.priceInCents,
      })),
      priceInCents: campaign.checkoutPriceInCents,
      facts,
      methods: v.methods,
      form: { action: `/campaigns/${campaign.id}`, values: v.values, errors: v.errors },
      notice: v.notice,
    }),
    publicFrame(partnerName, 'Campanha', v.sandbox),
  );
}

/** A campaign that takes no purchase now: ended, or not started yet (with when it starts). */
export function renderCampaignClosedPage(offer: CampaignOffer, standing: CampaignStanding, sandbox: boolean): string {
  const { campaign, partnerName } = offer;
  const title = standing === 'not-started' ? 'Campanha ainda não começou' : 'Campanha encerrada';
  const message =
    standing === 'not-started'
      ? html`A campanha <strong>${campaign.name}</strong> começa em ${formatDateTimeBr(campaign.startsAt)}. Volte a partir dessa data para comprar.`
      : html`A campanha <strong>${campaign.name}</strong> terminou e não aceita mais compras.`;
  return page(
    `${title} - ${partnerName}`,
    html`<section class="card" aria-labelledby="titulo"><h1 id="titulo">${title}</h1>
      <p class="notice error">${message}</p>
      <p><a href="/catalogue/${campaign.partnerId}">Veja os cursos de ${partnerName}</a></p></section>`,
    publicFrame(partnerName, 'Campanha', sandbox, OFFER_FOOTER),
  );
}
