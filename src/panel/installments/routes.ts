import { type Request, type Response, Router } from 'express';

import { checkRequestBody } from '../../contract/request-bodies.js';
import { checkQuery } from '../../contract/request-queries.js';
import { InvalidContinuation } from '../../core/continuation.js';
import { ApiError, ValidationFailed } from '../../core/errors.js';
import { isUuid } from '../../core/stable-id.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import { installmentPaymentsOf } from '../../institution/listings/installment-payments.js';
import { InvertedDateRange, type OriginalsQuery } from '../../institution/listings/original-filters.js';
import { findInstitutionInstallment, listOriginalInstallments } from '../../institution/listings/originals.js';
import { listSubmittedInstallments, type SubmittedQuery } from '../../institution/listings/submitted.js';
import { createPaymentLink } from '../../institution/payments/payment-links.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { queryOf } from '../../pages/list-pages.js';
import { PageLinkRefused, RecordNotFound } from '../errors.js';
import { type PanelView, sendPage } from '../layout.js';
import { UNIVERSITY_SECTIONS } from '../navigation.js';
import type { PanelContext } from '../panel-context.js';
import { institutionOf, requireProfile } from '../session.js';
import { installmentView } from './detail-page.js';
import { FILTERS } from './filters.js';
import { installmentsView } from './list-page.js';
import { SUBMITTED_FILTERS, submittedView } from './submitted-page.js';

type OriginalsPage = Awaited<ReturnType<typeof listOriginalInstallments>>;
type SubmittedPage = Awaited<ReturnType<typeof listSubmittedInstallments>>;

const notFound = () =>
  new RecordNotFound('Parcela não encontrada', 'Esta parcela não existe entre as parcelas da sua instituição.');

const FILTER_MESSAGE = 'Valor não aceito neste filtro.';

/** The filter a refusal of the contract or of the listing blames, with a message in pt-BR. */
function refusedFilters(error: ApiError, filters: readonly string[]): FieldErrors {
  if (error instanceof InvertedDateRange) return { form: 'A data inicial é posterior à data final (PARCELA-001).' };
  const names = (error.details ?? []).map((d) => d.path.replace(/^query\./, ''));
  const known = names.filter((n) => filters.includes(n));
  if (known.length === 0) return { form: 'Filtro desconhecido ou mal formado.' };
  return Object.fromEntries(known.map((n) => [n, FILTER_MESSAGE]));
}

/** Pt-BR words of the payment link's refusals (the API's codes, beside them). */
const LINK_REFUSALS: Record<string, string> = {
  'LINK-003': 'A parcela foi cancelada pela instituição e não pode ser paga (LINK-003).',
  'LINK-004': 'A parcela já está paga (LINK-004).',
  'LINK-002': 'O documento do responsável financeiro não confere com o da parcela (LINK-002).',
  'LINK-001': 'Parcela não encontrada pelo idParcela (LINK-001).',
  'VALIDATION-001': 'Os dados da parcela não formam um pedido de link válido (VALIDATION-001).',
};

/**
 * `/painel/parcelas` (Administrador and Financeiro): the original installments with the filters of
 * `GET /v1/parcela/originais` (checked against its query parameters, read by the same service,
 * paged by its `continuable`), the submitted ones at `/painel/parcelas/enviadas` as
 * `GET /importacao/enviados/parcelas` lists them, an installment's page with its payments, and **Gerar link de
 * pagamento** (`POST /v1/parcela/link_pagamento`'s body, checked by its contract, the same service).
 */
export function installmentPages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  router.use('/parcelas', requireProfile(...UNIVERSITY_SECTIONS.installments), rejectNulCharacters);

  /**
   * A list page over an API listing: its query read by the operation's contract (each filter once),
   * the listing's own service, its refusals on their fields.
   */
  const listPage = <Query extends object, Page>(
    operation: 'listOriginalInstallments' | 'listSubmittedInstallments',
    filters: readonly string[],
    list: (institutionId: string, query: Query) => Promise<Page>,
    view: (state: { query: URLSearchParams; page?: Page; errors?: FieldErrors }) => PanelView,
  ) =>
    async function (req: Request, res: Response) {
      const query = queryOf(req);
      const repeated = [...new Set(query.keys())].filter((name) => query.getAll(name).length > 1);
      if (repeated.length > 0)
        return sendPage(req, res, 400, view({ query, errors: { form: 'Envie cada filtro uma vez.' } }));
      try {
        const checked = await checkQuery<Query>('institution', operation, Object.fromEntries(query));
        sendPage(req, res, 200, view({ query, page: await list(institutionOf(req), checked) }));
      } catch (error) {
        if (error instanceof InvalidContinuation) throw new PageLinkRefused();
        if (!(error instanceof ValidationFailed || error instanceof InvertedDateRange)) throw error;
        sendPage(req, res, 400, view({ query, errors: refusedFilters(error, filters) }));
      }
    };

  router.get(
    '/parcelas',
    listPage<OriginalsQuery, OriginalsPage>(
      'listOriginalInstallments',
      FILTERS,
      (id, q) => listOriginalInstallments(ctx, id, q),
      installmentsView,
    ),
  );
  router.get(
    '/parcelas/enviadas',
    listPage<SubmittedQuery, SubmittedPage>(
      'listSubmittedInstallments',
      SUBMITTED_FILTERS,
      (id, q) => listSubmittedInstallments(ctx, id, q),
      submittedView,
    ),
  );

  const installmentOf = async (req: Request) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound();
    const institutionId = institutionOf(req);
    const installment = await findInstitutionInstallment(ctx, institutionId, id);
    if (!installment) throw notFound();
    return { institutionId, installment, payments: await installmentPaymentsOf(ctx.db, institutionId, id) };
  };

  router.get('/parcelas/:id', async (req: Request, res: Response) => {
    const { installment, payments } = await installmentOf(req);
    sendPage(req, res, 200, installmentView(req, res, panel, { installment, payments }));
  });

  router.post('/parcelas/:id/link-pagamento', async (req: Request, res: Response) => {
    const { institutionId, installment, payments } = await installmentOf(req);
    if (!installment.id_externo) throw notFound();
    const body = {
      parcelaOriginalIdExterno: installment.id_externo,
      responsavelFinanceiroDocumento: installment.responsavel_financeiro.documento,
    };
    try {
      await checkRequestBody('institution', 'createPaymentLink', body);
      const link = await createPaymentLink(ctx, institutionId, body);
      sendPage(
        req,
        res,
        201,
        installmentView(req, res, panel, { installment, payments, link: link.link_pagamento_url }),
      );
    } catch (error) {
      const text = error instanceof ApiError ? LINK_REFUSALS[error.code] : undefined;
      if (!text || !(error instanceof ApiError)) throw error;
      sendPage(
        req,
        res,
        error.status,
        installmentView(req, res, panel, { installment, payments, notice: { text, error: true } }),
      );
    }
  });
  return router;
}
