import type { Queryable } from '../../db/client.js';
import { type EventOptions, recordEvents } from '../events/store.js';
import { monthTotals } from './totals.js';

export interface ClosedMonth {
  institutionId: string;
  month: string;
  closingId: string;
  outcome: 'CLOSED' | 'REOPENED';
  reopenings: number;
  assignments: number;
}

/** A month's statements closed, or closed again (`mesFechado`), with the totals of the three statements. */
export async function monthClosed(tx: Queryable, closing: ClosedMonth, at: Date, options: EventOptions): Promise<void> {
  const totals = await monthTotals(tx, closing.institutionId, closing.month);
  await recordEvents(
    tx,
    closing.institutionId,
    [
      {
        name: 'mesFechado',
        subject: `${closing.month}:${closing.reopenings}`,
        dados: {
          mes: closing.month.slice(0, 7),
          fechamento_id: closing.closingId,
          reabertura: closing.outcome === 'REOPENED',
          parcelas_cedidas: closing.assignments,
          totais: {
            gestao: totals.gestao,
            cessoes_parcelas: totals.cessoes_parcelas,
            receita_garantida: totals.receita_garantida,
          },
        },
      },
    ],
    at,
    options,
  );
}
