import type { RequestHandler, Response } from 'express';

import type { operations } from '../../generated/institution.js';
import type { AppContext } from '../context.js';
import { BatchTooLarge } from '../core/errors.js';
import { institutionId } from '../http/auth.js';
import { jsonKeepingTexts } from '../http/json-texts.js';
import { rawElements } from '../http/raw-body.js';
import type { Routes } from '../http/typed.js';
import { getBatch, listBatchErrors } from './intake/batch-reports.js';
import { jsonItems, MAX_BATCH_ITEMS, rawItems, submitBatch, type SubmittedBatch } from './intake/batches.js';
import { listOriginalInstallments } from './listings/originals.js';
import { listSubmittedInstallments } from './listings/submitted.js';
import { createPaymentLink } from './payments/payment-links.js';
import { statementRoutes } from './statements/routes.js';
import { institutionWebhookRoutes } from './webhooks/routes.js';

/** Largest inclusion body: 10,000 installments with every optional field fit well below it. */
const INCLUSION_BODY_LIMIT = '50mb';

const inclusion = { bodyLimit: INCLUSION_BODY_LIMIT, tooLargeCode: 'BATCH-001' };

/** Answers 413 `BATCH-001` before the (costly) schema validation of an oversized batch. */
function limitBatchItems(field: string): RequestHandler {
  return (req, _res, next) => {
    const items = (req.body as Record<string, unknown> | undefined)?.[field];
    if (Array.isArray(items) && items.length > MAX_BATCH_ITEMS)
      return next(new BatchTooLarge(field, MAX_BATCH_ITEMS, items.length));
    next();
  };
}

function answerBatch(res: Response, submitted: SubmittedBatch): void {
  if (submitted.replayed) res.set('Idempotent-Replayed', 'true');
  res.status(202).json(submitted.receipt);
}

/** Handlers of the Institution API by operationId; operations not listed here answer 501. */
export function institutionRoutes(ctx: AppContext): Routes<operations> {
  return {
    createStudentBatch: {
      ...inclusion,
      before: [limitBatchItems('alunos')],
      handler: async (req, res) => {
        const idempotencyKey = req.get('idempotency-key');
        answerBatch(
          res,
          await submitBatch(ctx, institutionId(req), 'aluno', jsonItems(req.body.alunos), {
            idempotencyKey,
            sentWith: req.keyId,
          }),
        );
      },
    },
    createInstallmentBatch: {
      ...inclusion,
      // The items stay bytes: the worker parses and checks them (see `rawArrayBody`).
      rawArray: 'parcelas',
      before: [limitBatchItems('parcelas')],
      handler: async (req, res) => {
        const idempotencyKey = req.get('idempotency-key');
        answerBatch(
          res,
          await submitBatch(ctx, institutionId(req), 'parcela', rawItems(rawElements(req)), {
            idempotencyKey,
            sentWith: req.keyId,
          }),
        );
      },
    },
    getBatch: {
      handler: async (req, res) => {
        res.json(await getBatch(ctx, institutionId(req), req.params.id));
      },
    },
    listBatchErrors: {
      handler: async (req, res) => {
        res.json(await listBatchErrors(ctx, institutionId(req), req.params.id, req.query.continuable));
      },
    },
    listOriginalInstallments: {
      handler: async (req, res) => {
        res.json(await listOriginalInstallments(ctx, institutionId(req), req.query));
      },
    },
    listSubmittedInstallments: {
      handler: async (req, res) => {
        // The items as sent, byte for byte (a number written 1e400 or 12.50 stays so); parsed only
        // for the response check, which reads them.
        const itemsAs = ctx.config.validateResponses ? 'values' : 'texts';
        jsonKeepingTexts(res, await listSubmittedInstallments(ctx, institutionId(req), req.query, itemsAs));
      },
    },
    createPaymentLink: {
      handler: async (req, res) => {
        res.json(await createPaymentLink(ctx, institutionId(req), req.body));
      },
    },
    ...statementRoutes(ctx),
    ...institutionWebhookRoutes(ctx),
  };
}
