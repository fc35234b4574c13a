import { type Request, type Response, Router } from 'express';

import { InvalidContinuation } from '../../core/continuation.js';
import { isUuid } from '../../core/stable-id.js';
import { rejectNulCharacters } from '../../http/nul-characters.js';
import {
  batchErrorFields,
  batchErrorRecords,
  batchSender,
  listBatches,
} from '../../institution/intake/batch-listing.js';
import { getBatch, listBatchErrors } from '../../institution/intake/batch-reports.js';
import { BatchNotFound } from '../../institution/intake/batches.js';
import { sendCsv } from '../../institution/statements/csv-routes.js';
import { queryOf, valueOf } from '../../pages/list-pages.js';
import { PageLinkRefused, RecordNotFound } from '../errors.js';
import { sendPage } from '../layout.js';
import { UNIVERSITY_SECTIONS } from '../navigation.js';
import type { PanelContext } from '../panel-context.js';
import { institutionOf, requireProfile } from '../session.js';
import { batchesView, batchView } from './pages.js';

const ERROR_CSV = { columns: ['indice', 'campo', 'mensagem'], decimals: new Set<string>() };

const notFound = () =>
  new RecordNotFound('Lote não encontrado', 'Este lote não existe entre os lotes da sua instituição.');

/** The domain's refusals as the panel's pages: another institution's batch is as missing. */
function asPanelError(error: unknown): unknown {
  if (error instanceof BatchNotFound) return notFound();
  if (error instanceof InvalidContinuation) return new PageLinkRefused();
  return error;
}

/**
 * `/painel/lotes` (Administrador and Integração): the institution's batches, newest first, and a
 * batch's page (`GET /v1/lotes/{id}` and its errors, through the same services), its errors
 * filtered by field and downloadable as CSV.
 */
export function batchPages(panel: PanelContext): Router {
  const router = Router();
  const ctx = panel.app;
  router.use('/lotes', requireProfile(...UNIVERSITY_SECTIONS.batches), rejectNulCharacters);

  router.get('/lotes', async (req, res) => {
    const query = queryOf(req);
    try {
      const list = await listBatches(ctx, institutionOf(req), valueOf(query, 'continuable') || undefined);
      sendPage(req, res, 200, batchesView(list, query));
    } catch (error) {
      throw asPanelError(error);
    }
  });

  /** The batch of the path, and the field its errors are filtered by ('' for every field). */
  const batchOf = async (req: Request) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound();
    const institutionId = institutionOf(req);
    const fields = await batchErrorFields(ctx, institutionId, id).catch((error: unknown) => {
      throw asPanelError(error);
    });
    return { id, institutionId, fields, field: valueOf(queryOf(req), 'campo') };
  };

  router.get('/lotes/:id', async (req: Request, res: Response) => {
    const { id, institutionId, fields, field } = await batchOf(req);
    const query = queryOf(req);
    try {
      const [batch, sentWith] = await Promise.all([
        getBatch(ctx, institutionId, id),
        batchSender(ctx.db, institutionId, id),
      ]);
      if (field && !fields.includes(field))
        return sendPage(
          req,
          res,
          400,
          batchView({ batch, sentWith, fields, query, refused: { campo: 'Escolha um campo da lista.' } }),
        );
      const continuable = valueOf(query, 'continuable') || undefined;
      const errors = await listBatchErrors(ctx, institutionId, id, continuable, field || undefined);
      sendPage(req, res, 200, batchView({ batch, sentWith, fields, query, errors }));
    } catch (error) {
      throw asPanelError(error);
    }
  });

  router.get('/lotes/:id/erros.csv', async (req, res) => {
    const { id, institutionId, fields, field } = await batchOf(req);
    if (field && !fields.includes(field)) throw notFound();
    const records = batchErrorRecords(ctx, institutionId, id, field || undefined);
    await sendCsv(res, ERROR_CSV, `lote-${id}-erros`, records);
  });
  return router;
}
