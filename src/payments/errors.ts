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

export class CardSessionsNotOffered extends ApiError {
  constructor(provider: string) {
    super(400, 'PAYMENT-007', `The ${provider} provider takes cards on its own form, not in a card session`);
  }
}

/** The provider refused to create or move a charge (an amount below its minimum, a payer it does not accept…). */
export class ProviderRefused extends ApiError {
  constructor(message: string) {
    super(400, 'PAYMENT-008', `The payment provider refused the charge: ${message}`);
  }
}

/** The provider could not be reached or failed: nothing was charged here, and the request may be repeated. */
export class ProviderUnavailable extends ApiError {
  constructor(message: string) {
    super(503, 'PAYMENT-009', `The payment provider is not answering now: ${message}`, undefined, {
      'Retry-After': '30',
    });
  }
}

/** Chargebacks come from the card networks: with a real provider they are its events, never an operator's move. */
export class ChargebackByProviderOnly extends ApiError {
  constructor(provider: string) {
    super(
      400,
      'PAYMENT-010',
      `Chargebacks are reported by ${provider} (charge.dispute.created); an operator cannot register one`,
    );
  }
}

/** A charge of another provider than the one this deployment runs (a sandbox charge after switching to Stripe). */
export class ChargeOfAnotherProvider extends ApiError {
  constructor(id: string, provider: string) {
    super(
      400,
      'PAYMENT-011',
      `Charge ${id} was made with the ${provider} provider, which this deployment does not run`,
    );
  }
}

/** A bank slip of a provider that registers it with the payer's name, e-mail and address, asked without them. */
export class PayerDataMissing extends ApiError {
  constructor() {
    super(400, 'PAYMENT-012', "A bank slip needs the payer's name, e-mail and address");
  }
}

/** One operator's refund of a charge at a time: the next is asked once the provider has answered the last. */
export class RefundInProgress extends ApiError {
  constructor(id: string) {
    super(400, 'PAYMENT-013', `Charge ${id} has a refund the provider has not settled yet; ask again once it has`);
  }
}
