import type { operations } from '../../generated/institution.js';
import type { AppContext } from '../context.js';
import { institutionId } from '../http/auth.js';
import type { Routes } from '../http/typed.js';
import { limitBatchItems, submitBatch } from './batches.js';

/** Largest inclusion body: 10,000 installments with every optional field fit well below it. */
const INCLUSION_BODY_LIMIT = '50mb';

/** Handlers of the Institution API by operationId; operations not listed here answer 501. */
export function institutionRoutes(ctx: AppContext): Routes<operations> {
  return {
    createStudentBatch: {
      bodyLimit: INCLUSION_BODY_LIMIT,
      tooLargeCode: 'BATCH-001',
      before: [limitBatchItems('alunos')],
      handler: async (req, res) => {
        res.status(202).json(await submitBatch(ctx, institutionId(req), 'aluno', req.body.alunos));
      },
    },
  };
}
