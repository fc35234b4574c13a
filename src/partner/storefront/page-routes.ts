import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';

import type { AppContext } from '../../context.js';
import { toApiError } from '../../http/error-handler.js';
import { noteErrorOnRequestLog } from '../../http/logging.js';
import { onlyUnder } from '../../http/path-prefixes.js';
import { isReadablePath } from '../../http/request-path.js';
import { HOSTED_PAGE_HEADERS } from '../../pages/html.js';
import { renderMessagePage } from '../../payments/charge-blocks.js';
import { type PurchaseOutcome, type PurchaseScope, startPurchase } from './buyer-purchase.js';
import { campaignMethods, type CampaignOffer, campaignScope, findCampaignOffer, standingOf } from './campaign-offer.js';
import { renderCampaignClosedPage, renderCampaignPage } from './campaign-page.js';
import { catalogueCourses, classMethods, classScope, findClassOffer, partnerNameOf } from './catalogue-offer.js';
import { renderCataloguePage, renderClassPage } from './catalogue-page.js';
import { type ContactErrors, type ContactForm, EMPTY_CONTACT, readContactForm } from './contact-form.js';

/** The public pages a partner shares with buyers; the rest of `/campaigns` is the Partner API. */
const STOREFRONT_PATH = /^\/(campaigns|catalogue)\/[^/]/;

const CAMPAIGN_NOT_FOUND = ['Campanha não encontrada', 'Esta campanha não existe. Confira o link recebido.'] as const;
const CATALOGUE_NOT_FOUND = ['Catálogo não encontrado', 'Este catálogo não existe. Confira o link recebido.'] as const;
const CLASS_NOT_FOUND = ['Turma indisponível', 'Esta turma não existe ou não está mais à venda.'] as const;

/** What the buyer reads when the sale cannot be started for a reason of the partner's offer, not of the form. */
const NOT_STARTED = 'Não foi possível iniciar a compra agora. Tente de novo mais tarde ou fale com a escola.';
const FORM_UNREADABLE = 'O formulário enviado não pôde ser lido. Preencha os campos e envie de novo.';

interface FormState {
  values: ContactForm;
  errors: ContactErrors;
  notice?: { text: string; error?: boolean };
}
const EMPTY_FORM: FormState = { values: EMPTY_CONTACT, errors: {} };

const page = (res: Response, status: number, body: string) => res.status(status).type('html').send(body);
const message = (res: Response, status: number, [title, text]: readonly [string, string]) =>
  page(res, status, renderMessagePage(title, text));
const param = (req: Request, name: string) => String(req.params[name]);

/**
 * The campaign page (`/campaigns/{id}`, a campaign's `redirect_url`) and the partner's catalogue
 * (`/catalogue/{partnerId}`, the course list's `metadata.redirect_url`), outside both OpenAPI
 * documents: pt-BR HTML that works without JavaScript. A buyer gives their CPF, name, e-mail and
 * phone, and goes to the checkout of their sale.
 */
export function storefrontPages(ctx: AppContext): RequestHandler {
  const router = Router();
  const sandbox = ctx.payments.sandbox !== undefined;
  const now = () => ctx.clock.now();

  // A link whose id the router cannot decode (`%zz`) or that holds NUL is no link of ours.
  router.use((req, res, next) => {
    if (!STOREFRONT_PATH.test(req.path)) return next();
    if (!isReadablePath(req.path))
      return message(res, 404, req.path.startsWith('/campaigns') ? CAMPAIGN_NOT_FOUND : CATALOGUE_NOT_FOUND);
    res.set(HOSTED_PAGE_HEADERS);
    next();
  });
  // Four short fields: 10 kB and 20 fields are plenty; more is refused (413) on the page itself.
  const form = express.urlencoded({ extended: false, limit: '10kb', parameterLimit: 20 });

  const campaignView = (offer: CampaignOffer, state: FormState) =>
    renderCampaignPage({ offer, methods: campaignMethods(offer.campaign), sandbox, ...state });

  /** The answer to a purchase: the checkout, or the form again with its messages. */
  const answer = async (
    req: Request,
    res: Response,
    scope: PurchaseScope,
    again: (state: FormState) => string,
  ): Promise<void> => {
    const values = readContactForm(req.body);
    const outcome: PurchaseOutcome = await ctx.db.transaction((tx) => startPurchase(tx, ctx, scope, values));
    if ('checkoutToken' in outcome) return void res.redirect(303, `/checkout/${outcome.checkoutToken}`);
    page(res, outcome.status, again({ values, errors: outcome.errors }));
  };

  router.get('/campaigns/:id', async (req, res) => {
    const offer = await findCampaignOffer(ctx.db, param(req, 'id'));
    if (!offer) return void message(res, 404, CAMPAIGN_NOT_FOUND);
    const standing = standingOf(offer.campaign, now());
    if (standing !== 'open')
      return void page(res, standing === 'ended' ? 410 : 200, renderCampaignClosedPage(offer, standing, sandbox));
    page(res, 200, campaignView(offer, EMPTY_FORM));
  });
  router.post('/campaigns/:id', form, async (req, res) => {
    const offer = await findCampaignOffer(ctx.db, param(req, 'id'));
    if (!offer) return void message(res, 404, CAMPAIGN_NOT_FOUND);
    const standing = standingOf(offer.campaign, now());
    if (standing !== 'open')
      return void page(res, standing === 'ended' ? 410 : 409, renderCampaignClosedPage(offer, standing, sandbox));
    await answer(req, res, campaignScope(offer.campaign), (state) => campaignView(offer, state));
  });

  router.get('/catalogue/:partnerId', async (req, res) => {
    const partnerId = param(req, 'partnerId');
    const name = await partnerNameOf(ctx.db, partnerId);
    if (name === undefined) return void message(res, 404, CATALOGUE_NOT_FOUND);
    const wanted =
      typeof req.query.pagina === 'string' && /^\d{1,6}$/.test(req.query.pagina) ? Number(req.query.pagina) : 1;
    const courses = await catalogueCourses(ctx.db, partnerId, Math.max(1, wanted), now());
    page(res, 200, renderCataloguePage(partnerId, name, courses, sandbox));
  });

  const classOffer = (req: Request) => findClassOffer(ctx.db, param(req, 'partnerId'), param(req, 'classId'), now());
  router.get('/catalogue/:partnerId/turmas/:classId', async (req, res) => {
    const offer = await classOffer(req);
    if (!offer) return void message(res, 404, CLASS_NOT_FOUND);
    page(res, 200, renderClassPage({ offer, methods: classMethods(offer), sandbox, ...EMPTY_FORM }));
  });
  router.post('/catalogue/:partnerId/turmas/:classId', form, async (req, res) => {
    const offer = await classOffer(req);
    if (!offer) return void message(res, 404, CLASS_NOT_FOUND);
    await answer(req, res, classScope(offer), (state) =>
      renderClassPage({ offer, methods: classMethods(offer), sandbox, ...state }),
    );
  });

  /**
   * People get a page, not JSON: a form the parser refuses (too large, too many fields) or a sale
   * the offer cannot start comes back as the page with the reason, at the error's status.
   */
  const htmlErrors =
    (
      notFound: readonly [string, string],
      render: (req: Request, state: FormState) => Promise<string | undefined>,
    ): ErrorRequestHandler =>
    async (thrown, req, res, next) => {
      const error = toApiError(thrown, req.method, req.path);
      if (!error) return next(thrown);
      noteErrorOnRequestLog(res, error);
      const unreadable = /^(BODY|VALIDATION|MEDIA-TYPE)-/.test(error.code);
      const state: FormState = {
        values: unreadable ? EMPTY_CONTACT : readContactForm(req.body),
        errors: {},
        notice: { text: unreadable ? FORM_UNREADABLE : NOT_STARTED, error: true },
      };
      try {
        const body = await render(req, state);
        if (body === undefined) return void message(res, 404, notFound);
        page(res, error.status, body);
      } catch (inner) {
        next(inner);
      }
    };
  router.use(
    '/campaigns/:id',
    htmlErrors(CAMPAIGN_NOT_FOUND, async (req, state) => {
      const offer = await findCampaignOffer(ctx.db, param(req, 'id'));
      if (!offer) return undefined;
      // The campaign may have ended between the page and the purchase (SALE-007).
      const standing = standingOf(offer.campaign, now());
      return standing === 'open' ? campaignView(offer, state) : renderCampaignClosedPage(offer, standing, sandbox);
    }),
  );
  router.use(
    '/catalogue/:partnerId/turmas/:classId',
    htmlErrors(CLASS_NOT_FOUND, async (req, state) => {
      const offer = await classOffer(req);
      return offer && renderClassPage({ offer, methods: classMethods(offer), sandbox, ...state });
    }),
  );
  // Tried only for its own paths: the router matches a request against each of its routes in turn.
  return onlyUnder(['/campaigns', '/catalogue'], router);
}
