/** Vocabularies of installment submissions, accepted in any letter case. */

/** `tipoParcela` (lower case) → the spelling of the listing's `tipo`. */
export const INSTALLMENT_TYPES: ReadonlyMap<string, string> = new Map(
  ['Matricula', 'Rematricula', 'Mensalidade', 'Negociacao', 'Taxa_outros'].map((t) => [t.toLowerCase(), t]),
);

/** The installment type of agreement (acordo) installments. */
export const AGREEMENT_TYPE = 'Negociacao';

/** `situacaoBaixa`: the institution's own settlement of the installment. */
export type IesSettlement = 'ABERTA' | 'PAGA' | 'CANCELADA';
export const IES_SETTLEMENTS: readonly IesSettlement[] = ['ABERTA', 'PAGA', 'CANCELADA'];

export type InstallmentStatus = 'ABERTO' | 'PARCIALMENTE_PAGO' | 'PAGO' | 'CANCELADO_IES';
export type PaymentType = 'Pago na Plataforma' | 'Pago na IES' | 'Cancelado na IES';
export type Product = 'Gestão' | 'Receita Garantida';
export const PRODUCTS: readonly Product[] = ['Gestão', 'Receita Garantida'];
export const DEFAULT_PRODUCT: Product = 'Gestão';

export const DOCUMENT_TYPES = ['CPF', 'CNPJ'] as const;

/** Late fine in percent of the principal owed, once. */
export const LATE_FINE_PERCENT = 2n;
/** Late interest: 1% a month, pro rata per day over 30-day months. */
export const LATE_INTEREST_PERCENT_PER_MONTH = 1n;
export const DAYS_PER_MONTH = 30n;
