import type { components } from '../../../generated/institution.js';
import type { ItemError } from '../../core/item-error.js';
import { formatCents, parseCents } from '../../core/money.js';
import { storableDate } from '../../core/storable-values.js';
import type { IesSettlement } from '../vocabularies.js';

type Settlement = components['schemas']['InstallmentSettlement'];

/** The state columns an installment takes from the institution's `situacaoBaixa`. */
export interface IesState {
  status: string;
  payment_type: string | null;
  paid_on: string | null;
  balance: string;
  settled_fine: string;
  settled_interest: string;
  settled_discount: string;
  settled_received: string;
}

const ZERO = '0.00';
const AMOUNTS = ['valorRecebido', 'valorDesconto', 'valorEncargos'] as const;

/**
 * `ABERTA` leaves the installment open; `PAGA` settles it at the institution with the amounts of
 * `pagamento` (charges reported as one sum are listed as interest, the received amount defaults
 * to the principal, the date to the day the batch arrived); `CANCELADA` cancels it.
 * Returns undefined after adding the problems of a malformed `pagamento` to `errors`.
 */
export function settleAtInstitution(
  settlement: IesSettlement,
  payment: Settlement | undefined,
  principalCents: number,
  receivedOn: string,
  index: number,
  errors: ItemError[],
): IesState | undefined {
  if (settlement === 'CANCELADA') {
    return {
      status: 'CANCELADO_IES',
      payment_type: 'Cancelado na IES',
      paid_on: null,
      balance: ZERO,
      settled_fine: ZERO,
      settled_interest: ZERO,
      settled_discount: ZERO,
      settled_received: ZERO,
    };
  }
  if (settlement !== 'PAGA') {
    return {
      status: 'ABERTO',
      payment_type: null,
      paid_on: null,
      balance: formatCents(principalCents),
      settled_fine: ZERO,
      settled_interest: ZERO,
      settled_discount: ZERO,
      settled_received: ZERO,
    };
  }
  const before = errors.length;
  const cents = [principalCents, 0, 0];
  for (let i = 0; i < AMOUNTS.length; i++) {
    const value = payment?.[AMOUNTS[i]!];
    if (value === undefined) continue;
    const parsed = parseCents(value);
    if (parsed === undefined)
      errors.push({
        index,
        field: `pagamento.${AMOUNTS[i]}`,
        message: `pagamento.${AMOUNTS[i]} must be a non-negative decimal with at most 2 places; got ${value}`,
      });
    else cents[i] = parsed;
  }
  let paidOn = receivedOn;
  if (payment?.data !== undefined) {
    const date = storableDate(payment.data);
    if (date) paidOn = date;
    else errors.push({ index, field: 'pagamento.data', message: `pagamento.data ${payment.data} is not a real date` });
  }
  if (errors.length > before) return undefined;
  return {
    status: 'PAGO',
    payment_type: 'Pago na IES',
    paid_on: paidOn,
    balance: ZERO,
    settled_fine: ZERO,
    settled_interest: formatCents(cents[2]!),
    settled_discount: formatCents(cents[1]!),
    settled_received: formatCents(cents[0]!),
  };
}
