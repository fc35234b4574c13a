import Stripe from 'stripe';

/**
 * Stripe's objects as the double answers them, each typed with the SDK's own type: a field Stripe
 * adds, renames or retypes in the API version the SDK pins fails type-checking here, so the double
 * cannot drift from what the service will read in production.
 */

const API_VERSION = Stripe.API_VERSION;

export interface IntentSeed {
  id: string;
  amount: number;
  created: number;
  description: string | null;
  metadata: Stripe.Metadata;
  allowed: Stripe.PaymentIntent.AllowedPaymentMethodType[];
}

export function paymentIntent(seed: IntentSeed, state: Partial<Stripe.PaymentIntent> = {}): Stripe.PaymentIntent {
  return {
    id: seed.id,
    object: 'payment_intent',
    allowed_payment_method_types: seed.allowed,
    amount: seed.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${seed.id}_secret_double`,
    confirmation_method: 'automatic',
    created: seed.created,
    currency: 'brl',
    customer: null,
    customer_account: null,
    description: seed.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: seed.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: seed.allowed,
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_group: null,
    ...state,
  };
}

export const pixNextAction = (id: string, data: string, expiresAt: number): Stripe.PaymentIntent.NextAction => ({
  type: 'pix_display_qr_code',
  pix_display_qr_code: {
    data,
    expires_at: expiresAt,
    hosted_instructions_url: `https://payments.stripe.com/pix/instructions/${id}`,
    image_url_png: `https://qr.stripe.com/${id}.png`,
    image_url_svg: `https://qr.stripe.com/${id}.svg`,
  },
});

export const boletoNextAction = (id: string, number: string, expiresAt: number): Stripe.PaymentIntent.NextAction => ({
  type: 'boleto_display_details',
  boleto_display_details: {
    expires_at: expiresAt,
    hosted_voucher_url: `https://payments.stripe.com/boleto/voucher/${id}`,
    number,
    pdf: `https://payments.stripe.com/boleto/voucher/${id}/pdf`,
  },
});

export interface CardSeed {
  brand: string;
  last4: string;
  /** Installments of the plan chosen in the Payment Element; none for a single payment. */
  installments?: number;
}

function cardDetails(card: CardSeed): Stripe.Charge.PaymentMethodDetails {
  return {
    type: 'card',
    card: {
      amount_authorized: null,
      authorization_code: '123456',
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'BR',
      electronic_commerce_indicator: null,
      exp_month: 12,
      exp_year: 2030,
      extended_authorization: { status: 'disabled' },
      fingerprint: 'fp_double',
      funding: 'credit',
      incremental_authorization: { status: 'unavailable' },
      installments: card.installments
        ? { plan: { count: card.installments, interval: 'month', type: 'fixed_count' } }
        : null,
      last4: card.last4,
      mandate: null,
      multicapture: { status: 'unavailable' },
      network: card.brand,
      network_token: { used: false },
      network_transaction_id: null,
      overcapture: { maximum_amount_capturable: 0, status: 'unavailable' },
      regulated_status: 'unregulated',
      three_d_secure: null,
      transaction_link_id: null,
      wallet: null,
    },
  };
}

export function charge(
  intent: Stripe.PaymentIntent,
  created: number,
  card?: CardSeed,
  state: Partial<Stripe.Charge> = {},
): Stripe.Charge {
  const method = intent.payment_method_types[0] ?? 'card';
  return {
    id: `ch_${intent.id.slice(3)}`,
    object: 'charge',
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: 'EDUFIN',
    captured: true,
    created,
    currency: 'brl',
    customer: null,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: null,
    paid: true,
    payment_intent: intent.id,
    payment_method: `pm_${intent.id.slice(3)}`,
    payment_method_details: card ? cardDetails(card) : { type: method },
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'succeeded',
    transfer_data: null,
    transfer_group: null,
    ...state,
  };
}

export function refund(
  id: string,
  charged: Stripe.Charge,
  created: number,
  metadata: Stripe.Metadata,
  state: Partial<Stripe.Refund> = {},
): Stripe.Refund {
  return {
    id,
    object: 'refund',
    amount: charged.amount,
    balance_transaction: null,
    charge: charged.id,
    created,
    currency: 'brl',
    customer: null,
    customer_account: null,
    metadata,
    payment_intent: typeof charged.payment_intent === 'string' ? charged.payment_intent : null,
    payment_method: null,
    reason: 'requested_by_customer',
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
    ...state,
  };
}

export function dispute(
  id: string,
  charged: Stripe.Charge,
  created: number,
  state: Partial<Stripe.Dispute> = {},
): Stripe.Dispute {
  const nothing = null;
  return {
    id,
    object: 'dispute',
    amount: charged.amount,
    balance_transactions: [],
    charge: charged.id,
    created,
    currency: 'brl',
    enhanced_eligibility_types: [],
    evidence: {
      access_activity_log: nothing,
      billing_address: nothing,
      cancellation_policy: nothing,
      cancellation_policy_disclosure: nothing,
      cancellation_rebuttal: nothing,
      customer_communication: nothing,
      customer_email_address: nothing,
      customer_name: nothing,
      customer_purchase_ip: nothing,
      customer_signature: nothing,
      duplicate_charge_documentation: nothing,
      duplicate_charge_explanation: nothing,
      duplicate_charge_id: nothing,
      enhanced_evidence: {},
      product_description: nothing,
      receipt: nothing,
      refund_policy: nothing,
      refund_policy_disclosure: nothing,
      refund_refusal_explanation: nothing,
      service_date: nothing,
      service_documentation: nothing,
      shipping_address: nothing,
      shipping_carrier: nothing,
      shipping_date: nothing,
      shipping_documentation: nothing,
      shipping_tracking_number: nothing,
      uncategorized_file: nothing,
      uncategorized_text: nothing,
    },
    evidence_details: {
      due_by: created + 7 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charged.payment_intent,
    reason: 'fraudulent',
    status: 'needs_response',
    ...state,
  };
}

export interface BalanceSeed {
  type: 'charge' | 'refund' | 'refund_failure' | 'adjustment';
  /** Signed cents: in for a charge or money back, out for a refund or a dispute's withdrawal. */
  amount: number;
  fee: number;
  created: number;
  /** The charge (`ch_…`), refund (`re_…`) or dispute (`dp_…`) that moved the money. */
  source: string;
}

const CATEGORIES: Record<BalanceSeed['type'], string> = {
  charge: 'charge',
  refund: 'refund',
  refund_failure: 'refund_failure',
  adjustment: 'dispute',
};

export function balanceTransaction(id: string, seed: BalanceSeed): Stripe.BalanceTransaction {
  const fees =
    seed.fee === 0
      ? []
      : [
          {
            amount: seed.fee,
            application: null,
            currency: 'brl',
            description: 'Stripe processing fees',
            type: 'stripe_fee',
          },
        ];
  return {
    id,
    object: 'balance_transaction',
    amount: seed.amount,
    available_on: seed.created + 2 * 86_400,
    balance_type: 'payments',
    created: seed.created,
    currency: 'brl',
    description: null,
    exchange_rate: null,
    fee: seed.fee,
    fee_details: fees,
    net: seed.amount - seed.fee,
    reporting_category: seed.type === 'adjustment' && seed.amount > 0 ? 'dispute_reversal' : CATEGORIES[seed.type],
    source: seed.source,
    status: 'pending',
    type: seed.type,
  };
}

/** The parts of an event every type shares. */
export const eventBase = (id: string, created: number) => ({
  id,
  object: 'event' as const,
  api_version: API_VERSION,
  created,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
});

export type IntentEvent =
  Stripe.PaymentIntentSucceededEvent | Stripe.PaymentIntentPaymentFailedEvent | Stripe.PaymentIntentCanceledEvent;

export function intentEvent(
  id: string,
  created: number,
  type: IntentEvent['type'],
  intent: Stripe.PaymentIntent,
): IntentEvent {
  const base = { ...eventBase(id, created), data: { object: intent } };
  switch (type) {
    case 'payment_intent.succeeded':
      return { ...base, type };
    case 'payment_intent.payment_failed':
      return { ...base, type };
    case 'payment_intent.canceled':
      return { ...base, type };
  }
}

export const refundedEvent = (id: string, created: number, charged: Stripe.Charge): Stripe.ChargeRefundedEvent => ({
  ...eventBase(id, created),
  type: 'charge.refunded',
  data: { object: charged },
});

export type DisputeEvent =
  | Stripe.ChargeDisputeCreatedEvent
  | Stripe.ChargeDisputeUpdatedEvent
  | Stripe.ChargeDisputeFundsWithdrawnEvent
  | Stripe.ChargeDisputeFundsReinstatedEvent
  | Stripe.ChargeDisputeClosedEvent;

export const disputeEvent = (
  id: string,
  created: number,
  disputed: Stripe.Dispute,
  type: DisputeEvent['type'] = 'charge.dispute.created',
): DisputeEvent => ({ ...eventBase(id, created), type, data: { object: disputed } }) as DisputeEvent;

export type RefundEvent = Stripe.RefundCreatedEvent | Stripe.RefundUpdatedEvent | Stripe.RefundFailedEvent;

export const refundEvent = (id: string, created: number, made: Stripe.Refund, type: RefundEvent['type']): RefundEvent =>
  ({ ...eventBase(id, created), type, data: { object: made } }) as RefundEvent;
