import type { components } from '../../../generated/institution.js';
import { isValidCnpj, isValidCpf } from '../../core/documents.js';
import type { ItemError } from '../../core/item-error.js';
import { formatCents, parseCents } from '../../core/money.js';
import { storableDate } from '../../core/storable-values.js';
import { bestOnTimeValueCents, type OnTimeDiscount } from '../payments/late-charges.js';
import { DOCUMENT_TYPES, IES_SETTLEMENTS, type IesSettlement, INSTALLMENT_TYPES } from '../vocabularies.js';
import { type IesState, settleAtInstitution } from './ies-settlement-status.js';

export type InstallmentSubmission = components['schemas']['InstallmentSubmission'];

/** One installment ready for the upsert: the columns of `installments` a submission sets. */
export interface InstallmentRow extends IesState {
  upsert_key: string;
  external_id: string | null;
  student_cpf: string;
  student_ra: string | null;
  student_name: string | null;
  guarantor_document: string;
  guarantor_document_type: string;
  contract_number: string | null;
  number: string | null;
  type: string;
  course_name: string | null;
  campus_name: string | null;
  due_date: string;
  principal: string;
  on_time_value: string;
  on_time_discounts: OnTimeDiscount[];
}

// Hot path (10,000 items per request): plain loops and no closures per item.

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';
const orNull = (value: string | undefined) => (given(value) ? value : null);
const PLAIN_PERCENT = /^\d{1,3}(\.\d{1,4})?$/;
const TYPE_LIST = [...INSTALLMENT_TYPES.values()].join(', ');

function checkDiscounts(index: number, discounts: OnTimeDiscount[] | undefined, errors: ItemError[]): void {
  if (!discounts) return;
  for (let i = 0; i < discounts.length; i++) {
    const d = discounts[i]!;
    const at = `descontosAdimplencia[${i}]`;
    if (d.percentual === undefined)
      errors.push({ index, field: `${at}.percentual`, message: 'percentual is required' });
    else if (!(d.percentual > 0 && d.percentual <= 100) || !PLAIN_PERCENT.test(String(d.percentual)))
      errors.push({
        index,
        field: `${at}.percentual`,
        message: `percentual must be above 0 and at most 100, with up to 4 decimal places; got ${d.percentual}`,
      });
    if (d.dias_desconto === undefined)
      errors.push({ index, field: `${at}.dias_desconto`, message: 'dias_desconto is required' });
    else if (d.dias_desconto < 0)
      errors.push({
        index,
        field: `${at}.dias_desconto`,
        message: `dias_desconto must be 0 or more; got ${d.dias_desconto}`,
      });
  }
}

/** The guarantor's document and its type: the student's CPF when none was sent. */
function checkGuarantor(
  index: number,
  item: InstallmentSubmission,
  errors: ItemError[],
): { document: string; type: string } | undefined {
  if (!given(item.responsavelFinanceiroDocumento))
    return item.alunoCpf ? { document: item.alunoCpf, type: 'CPF' } : undefined;
  const document = item.responsavelFinanceiroDocumento;
  const declared = item.responsavelFinanceiroTipoDocumento?.trim().toUpperCase();
  if (given(declared) && !(DOCUMENT_TYPES as readonly string[]).includes(declared)) {
    errors.push({
      index,
      field: 'responsavelFinanceiroTipoDocumento',
      message: `responsavelFinanceiroTipoDocumento must be CPF or CNPJ; got ${item.responsavelFinanceiroTipoDocumento}`,
    });
    return undefined;
  }
  const type = declared || (document.length === 14 ? 'CNPJ' : 'CPF');
  if (type === 'CNPJ' ? isValidCnpj(document) : isValidCpf(document)) return { document, type };
  const shape = type === 'CNPJ' ? '14 digits' : '11 digits';
  errors.push({
    index,
    field: 'responsavelFinanceiroDocumento',
    message: `responsavelFinanceiroDocumento ${document} is not a valid ${type} (${shape} with check digits)`,
  });
  return undefined;
}

/**
 * Checks one submitted installment against the rules the envelope schema cannot express and
 * turns it into the row it upserts. `receivedOn` is the day the batch arrived (default payment date).
 */
export function checkInstallment(
  index: number,
  item: InstallmentSubmission,
  batchId: string,
  receivedOn: string,
): { row?: InstallmentRow; errors: ItemError[] } {
  const errors: ItemError[] = [];
  if (!given(item.alunoCpf)) errors.push({ index, field: 'alunoCpf', message: 'alunoCpf is required' });
  else if (!isValidCpf(item.alunoCpf))
    errors.push({
      index,
      field: 'alunoCpf',
      message: `alunoCpf ${item.alunoCpf} is not a valid CPF (11 digits with check digits)`,
    });
  const guarantor = checkGuarantor(index, item, errors);

  let principal: number | undefined;
  if (!given(item.valorBoleto)) errors.push({ index, field: 'valorBoleto', message: 'valorBoleto is required' });
  else if (!(principal = parseCents(item.valorBoleto)))
    errors.push({
      index,
      field: 'valorBoleto',
      message: `valorBoleto must be a positive decimal with at most 2 places, such as 1250.00; got ${item.valorBoleto}`,
    });

  let dueDate: string | undefined;
  if (!given(item.dataVencimento))
    errors.push({ index, field: 'dataVencimento', message: 'dataVencimento is required' });
  else if (!(dueDate = storableDate(item.dataVencimento)))
    errors.push({
      index,
      field: 'dataVencimento',
      message: `dataVencimento ${item.dataVencimento} is not a real date`,
    });

  // Kept only as sent, but a date all the same: refused where the other dates are.
  if (given(item.periodoLetivo) && !storableDate(item.periodoLetivo))
    errors.push({
      index,
      field: 'periodoLetivo',
      message: `periodoLetivo ${item.periodoLetivo} is not a real date`,
    });

  const type = given(item.tipoParcela) ? INSTALLMENT_TYPES.get(item.tipoParcela.trim().toLowerCase()) : undefined;
  if (!given(item.tipoParcela)) errors.push({ index, field: 'tipoParcela', message: 'tipoParcela is required' });
  else if (!type)
    errors.push({
      index,
      field: 'tipoParcela',
      message: `tipoParcela must be one of ${TYPE_LIST} (any case); got ${item.tipoParcela}`,
    });

  const settlement = given(item.situacaoBaixa) ? item.situacaoBaixa.trim().toUpperCase() : 'ABERTA';
  if (!(IES_SETTLEMENTS as readonly string[]).includes(settlement))
    errors.push({
      index,
      field: 'situacaoBaixa',
      message: `situacaoBaixa must be one of ${IES_SETTLEMENTS.join(', ')} (any case); got ${item.situacaoBaixa}`,
    });
  if (item.idParcela !== undefined && !given(item.idParcela))
    errors.push({ index, field: 'idParcela', message: 'idParcela must not be empty when sent' });
  checkDiscounts(index, item.descontosAdimplencia, errors);
  const ies = settleAtInstitution(
    settlement as IesSettlement,
    item.pagamento,
    principal ?? 0,
    receivedOn,
    index,
    errors,
  );

  if (errors.length > 0 || !guarantor || !principal || !dueDate || !type || !ies) return { errors };
  const discounts = item.descontosAdimplencia ?? [];
  return {
    errors,
    row: {
      upsert_key: given(item.idParcela) ? `ext:${item.idParcela}` : `item:${batchId}:${index}`,
      external_id: orNull(item.idParcela),
      student_cpf: item.alunoCpf!,
      student_ra: orNull(item.alunoRa),
      student_name: orNull(item.itensFatura?.[0]?.alunoNome),
      guarantor_document: guarantor.document,
      guarantor_document_type: guarantor.type,
      contract_number: orNull(item.numeroContrato),
      number: orNull(item.numeroParcela),
      type,
      course_name: orNull(item.nomeCurso),
      campus_name: orNull(item.nomePolo),
      due_date: dueDate,
      principal: formatCents(principal),
      on_time_value: discounts.length
        ? formatCents(bestOnTimeValueCents(principal, discounts))
        : formatCents(principal),
      on_time_discounts: discounts,
      ...ies,
    },
  };
}
