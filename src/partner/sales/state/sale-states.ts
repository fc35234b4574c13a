import { ApiError } from '../../../core/errors.js';

/** Internal states of a sale (credit request). */
export const SALE_STATES = [
  'not_logged',
  'in_progress',
  'waiting_payment',
  'guarantor_needed',
  'financing_analysis',
  'denied',
  'made_effective',
  'canceled',
  'canceled_by_partner',
  'expired',
] as const;
export type SaleState = (typeof SALE_STATES)[number];

/**
 * Allowed moves. A state listed under itself may repeat an event without changing state (a second
 * invoice, a declined card, an abandoned cart). Canceled, canceled by the partner and expired end
 * the sale.
 */
const TRANSITIONS: Record<SaleState, readonly SaleState[]> = {
  not_logged: ['in_progress', 'canceled_by_partner', 'expired'],
  in_progress: [
    'in_progress',
    'waiting_payment',
    'financing_analysis',
    'made_effective',
    'canceled_by_partner',
    'expired',
  ],
  waiting_payment: ['waiting_payment', 'in_progress', 'made_effective', 'canceled_by_partner', 'expired'],
  financing_analysis: [
    'financing_analysis',
    'guarantor_needed',
    'denied',
    'waiting_payment',
    'canceled_by_partner',
    'expired',
  ],
  guarantor_needed: [
    'guarantor_needed',
    'financing_analysis',
    'denied',
    'waiting_payment',
    'canceled_by_partner',
    'expired',
  ],
  denied: ['in_progress', 'canceled_by_partner', 'expired'],
  made_effective: ['canceled'],
  canceled: [],
  canceled_by_partner: [],
  expired: [],
};

export const canTransition = (from: SaleState, to: SaleState): boolean => TRANSITIONS[from].includes(to);

/**
 * An open sale: its checkout still takes steps and its deadline can still expire it; closed once
 * made effective, cancelled or expired. Read from the table above, so the two cannot disagree.
 */
export const isOpen = (state: SaleState): boolean => canTransition(state, 'expired');

/** The open states, for queries. */
export const OPEN_STATES: readonly SaleState[] = SALE_STATES.filter(isOpen);

/** A move the state machine does not allow: nothing is written. */
export class SaleTransitionRefused extends ApiError {
  constructor(
    readonly saleId: number,
    readonly from: SaleState,
    readonly to: SaleState,
  ) {
    super(400, 'SALE-011', `Sale ${saleId} cannot go from ${from} to ${to}`);
  }
}

/** Checks a move; throws `SaleTransitionRefused` when the table does not allow it. */
export function transition(saleId: number, from: SaleState, to: SaleState): SaleState {
  if (!canTransition(from, to)) throw new SaleTransitionRefused(saleId, from, to);
  return to;
}

export const isSaleState = (value: string): value is SaleState => (SALE_STATES as readonly string[]).includes(value);

interface StatusNames {
  /** `resumeStatus` of the sales list, old names (the default). */
  list: string;
  /** `resumeStatus` with `useNewStatusTranslation=true`. */
  listNew: string;
  /** `status` of the sale lookups. */
  lookup: string;
  /** `status` of a receipt; only sales made effective (and later cancelled) have receipts. */
  receipt: string | null;
}

/** The one table of the three vocabularies (documented in the Sales tag of `openapi/partner.yaml`). */
export const STATUS_NAMES: Record<SaleState, StatusNames> = {
  not_logged: { list: 'not_logged', listNew: 'not_started', lookup: 'Não iniciado', receipt: null },
  in_progress: { list: 'logged', listNew: 'in_checkout', lookup: 'Em andamento', receipt: null },
  waiting_payment: {
    list: 'waiting_payment',
    listNew: 'awaiting_payment',
    lookup: 'Aguardando pagamento',
    receipt: null,
  },
  guarantor_needed: {
    list: 'waiting_guarantor',
    listNew: 'awaiting_guarantor',
    lookup: 'Aguardando avalista',
    receipt: null,
  },
  financing_analysis: { list: 'in_analysis', listNew: 'financing_analysis', lookup: 'Em análise', receipt: null },
  denied: { list: 'denied', listNew: 'financing_denied', lookup: 'Negado', receipt: null },
  made_effective: { list: 'made_effective', listNew: 'confirmed', lookup: 'Efetivado', receipt: 'effective' },
  canceled: { list: 'canceled', listNew: 'cancelled', lookup: 'Cancelado', receipt: 'canceled' },
  canceled_by_partner: {
    list: 'canceled_by_partner',
    listNew: 'cancelled_by_partner',
    lookup: 'Cancelado pelo parceiro',
    receipt: null,
  },
  expired: { list: 'expired', listNew: 'expired', lookup: 'Expirado', receipt: null },
};

/** States the sales list hides unless `CreditRequestId` is sent. */
export const HIDDEN_FROM_LIST: readonly SaleState[] = ['not_logged', 'canceled_by_partner', 'expired'];

export const listStatusName = (state: SaleState, useNew: boolean): string =>
  useNew ? STATUS_NAMES[state].listNew : STATUS_NAMES[state].list;
export const lookupStatusName = (state: SaleState): string => STATUS_NAMES[state].lookup;
export const receiptStatusName = (state: SaleState): string | null => STATUS_NAMES[state].receipt;

/** The states a list `status` value names, in either list vocabulary, ignoring case. */
export function statesNamed(name: string): SaleState[] {
  const wanted = name.trim().toLowerCase();
  return SALE_STATES.filter((s) => STATUS_NAMES[s].list === wanted || STATUS_NAMES[s].listNew === wanted);
}
