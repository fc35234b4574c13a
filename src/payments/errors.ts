import { ApiError } from '../core/errors.js';
import type { CardErrors } from './provider.js';

/** A card refused before charging; `fields` holds the payer's message for each field at fault. */
export class InvalidCard extends ApiError {
  constructor(readonly fields: CardErrors) {
    super(
      400,
      'PAYMENT-001',
      `The card was not accepted: check ${Object.keys(fields).join(', ')}`,
      Object.entries(fields).map(([path, message]) => ({ path, message })),
    );
  }
}

export class ChargeNotFound extends ApiError {
  constructor(id: string) {
    super(404, 'PAYMENT-005', `Charge ${id} not found`);
  }
}

export class ChargeNotPending extends ApiError {
  constructor(id: string, status: string) {
    super(400, 'PAYMENT-003', `Charge ${id} is ${status}; only a pending Pix or bank slip can be paid or expired`);
  }
}

export class InvalidAmount extends ApiError {
  constructor(amountCents: number, maxCents: number) {
    super(400, 'PAYMENT-004', `The amount must be between 1 and ${maxCents} cents; got ${amountCents}`);
  }
}

export class ChargeNotPaid extends ApiError {
  constructor(id: string, status: string) {
    super(400, 'PAYMENT-006', `Charge ${id} is ${status}; only a paid charge can be refunded or charged back`);
  }
}
