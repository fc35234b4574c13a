import type { Queryable } from '../../db/client.js';
import { contractOf } from '../contracts.js';

/** What of the contract a record of the books keeps, as it was when the record was booked. */
export interface FrozenTerms {
  /** Decimal text, `8.50`. */
  commissionPercent: string;
  /** Days from the money's day to its transfer (management). */
  transferDelayDays: number;
  /** `alocacao_instituicao_repasse`; null: the institution's name. */
  allocation: string | null;
  /** `tipo_gestao`. */
  managementType: string;
}

/** The terms of the contract version in force on `day` (the day the money moved). */
export async function termsOn(db: Queryable, institutionId: string, day: string): Promise<FrozenTerms> {
  const contract = await contractOf(db, institutionId, day);
  return {
    commissionPercent: contract.commissionPercent,
    transferDelayDays: contract.transferDelayDays,
    allocation: contract.transferAllocation,
    managementType: contract.guaranteeType ?? 'COBRANCA',
  };
}
