import { ApiError } from '../../../core/errors.js';

/** Errors of the hosted checkout; the page shows their pt-BR message next to the step. */

export class CheckoutNotFound extends ApiError {
  constructor() {
    super(404, 'CHECKOUT-001', 'This checkout does not exist');
  }
}

export class CheckoutClosed extends ApiError {
  constructor(status: string) {
    super(400, 'CHECKOUT-002', `This checkout is ${status} and takes no more steps`);
  }
}

export class MethodNotOffered extends ApiError {
  constructor(method: string) {
    super(400, 'CHECKOUT-003', `The payment method ${method} is not offered by this sale`);
  }
}

export class StepNotAvailable extends ApiError {
  constructor(step: string, status: string) {
    super(400, 'CHECKOUT-004', `The step ${step} is not available while the sale is ${status}`);
  }
}

export class BuyerDataMissing extends ApiError {
  constructor() {
    super(400, 'CHECKOUT-005', 'Fill in the buyer data before choosing how to pay');
  }
}

export class FinancingAlreadyDenied extends ApiError {
  constructor() {
    super(400, 'CHECKOUT-006', 'The financing of this sale was denied; choose another payment method');
  }
}

export class CardInstallmentsInvalid extends ApiError {
  constructor(max: number) {
    super(400, 'CHECKOUT-007', `Card installments must be 1 to ${max}`);
  }
}

export class ChargeOfAnotherSale extends ApiError {
  constructor(chargeId: string) {
    super(404, 'PAYMENT-005', `Charge ${chargeId} not found`);
  }
}

export class NotCardPaid extends ApiError {
  constructor(saleId: number) {
    super(400, 'CHECKOUT-008', `Sale ${saleId} was not paid by card: only card payments can be charged back`);
  }
}

/** What the buyer reads for each refusal. */
export const BUYER_MESSAGES: Record<string, string> = {
  'CHECKOUT-002': 'Esta compra não aceita mais alterações.',
  'CHECKOUT-003': 'Esta forma de pagamento não está disponível para esta compra.',
  'CHECKOUT-004': 'Esta etapa não está disponível agora.',
  'CHECKOUT-005': 'Preencha seus dados antes de escolher a forma de pagamento.',
  'CHECKOUT-006': 'O financiamento desta compra foi negado; escolha outra forma de pagamento.',
  'CHECKOUT-007': 'Escolha um número de parcelas válido.',
  'PAYMENT-003': 'Esta cobrança não está mais pendente.',
  'PAYMENT-005': 'Cobrança não encontrada.',
  'PAYMENT-008': 'O provedor de pagamentos recusou esta cobrança. Tente outra forma de pagamento.',
  'PAYMENT-009': 'O provedor de pagamentos não respondeu agora. Tente de novo em instantes.',
  'SALE-011': 'Esta etapa não está disponível agora.',
  'SALE-013': 'A compra mudou enquanto você a via; confira a página de novo.',
};
