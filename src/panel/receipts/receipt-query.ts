import { isCalendarDate } from '../../core/dates.js';
import { MAX_PAGE_SIZE, type PageRequest, pageRequest } from '../../core/paging.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import type { ReceiptsQuery } from '../../partner/receipts/receipt-filters.js';

const TEXTS = ['CreditRequestId', 'cpf', 'email', 'name', 'campaignCustomIdentifier'] as const;
const LISTS = ['status', 'productType', 'courseId', 'delayedDay', 'delayedInstallment', 'campaign'] as const;
export const DATE_RANGES = [
  ['startEffectiveDate', 'endEffectiveDate', 'Efetivada'],
  ['startReleaseDate', 'endReleaseDate', 'Curso liberado'],
  ['startPaymentDate', 'endPaymentDate', 'Próximo pagamento'],
  ['startAgreementDate', 'endAgreementDate', 'Acordo de renegociação'],
  ['startExpectedTransferDate', 'endExpectedTransferDate', 'Repasse previsto'],
  ['startTransferDate', 'endTransferDate', 'Repasse feito'],
] as const;
const SWITCHES = ['chargebacks', 'cancellations'] as const;

/**
 * The filters of `GET /receipts` (#20) from the panel's list query. A filter form sends its empty
 * fields too: an empty value is no filter. A date must be a calendar day (`AAAA-MM-DD`), as the
 * contract requires: one that is not is refused on its field. The switches are on when present.
 */
export function receiptsQueryOf(query: URLSearchParams): { query: ReceiptsQuery } | { errors: FieldErrors } {
  const out: ReceiptsQuery = {};
  const errors: FieldErrors = {};
  for (const name of TEXTS) {
    const value = query.get(name)?.trim();
    if (value) out[name] = value;
  }
  for (const name of LISTS) {
    const values = query.getAll(name).filter((v) => v.trim() !== '');
    if (values.length) out[name] = values;
  }
  for (const [start, end] of DATE_RANGES)
    for (const name of [start, end]) {
      const value = query.get(name)?.trim();
      if (!value) continue;
      if (isCalendarDate(value)) out[name] = value;
      else errors[name] = 'Informe uma data válida (dia/mês/ano).';
    }
  for (const name of SWITCHES) if (query.has(name)) out[name] = query.get(name)!;
  return Object.keys(errors).length ? { errors } : { query: out };
}

/** The page of the list, as the API pages it (`page` from 1, `limit` up to 100); a larger `limit` is refused on its field. */
export function receiptsPageOf(query: URLSearchParams): { page: PageRequest } | { errors: FieldErrors } {
  const limit = query.get('limit')?.trim() ?? '';
  if (/^\d+$/.test(limit) && Number(limit) > MAX_PAGE_SIZE)
    return { errors: { limit: `Mostramos no máximo ${MAX_PAGE_SIZE} recebimentos por página.` } };
  // The contract's `page` is an int32: a larger number is no page, as any other wrong value.
  const page = query.get('page')?.trim() ?? '';
  return {
    page: pageRequest(/^\d{1,10}$/.test(page) && Number(page) <= 2_147_483_647 ? page : undefined, limit || undefined),
  };
}
