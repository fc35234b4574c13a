import type { operations } from '../../generated/partner.js';
import type { AppContext } from '../context.js';
import type { Routes } from '../http/typed.js';
import { listMicroAreaGroups } from './areas.js';

/** Handlers of the Partner API by operationId; operations not listed here answer 501. */
export function partnerRoutes(ctx: AppContext): Routes<operations> {
  return {
    listMicroAreaGroups: {
      handler: async (req, res) => {
        const content = await listMicroAreaGroups(ctx.db, req.params.MacroAreaId);
        res.json({ paging: null, metadata: { skills: [] }, content });
      },
    },
  };
}
