import type { Queryable } from '../db/client.js';
import type { PageSources } from '../pages/html.js';
import type { DayBalance } from './provider-books.js';

/**
 * The payment provider seen by the rest of the service: create a charge, read it, refund it.
 * Amounts are integer cents. Two implementations: the sandbox (nothing leaves the service; its
 * `sandbox` controls pay or expire charges by hand) and Stripe (`payments/stripe/`), whose events
 * and reconciliation call the same listeners.
 */

export type PaymentMethod = 'PIX' | 'BOLETO' | 'CARD';
export type ChargeStatus = 'PENDING' | 'PAID' | 'EXPIRED' | 'DECLINED' | 'REFUNDED' | 'DISPUTED' | 'CHARGED_BACK';

/** What a charge pays for: `installment` (institution receivables, a uuid) or `sale` (partner checkout, the sale id). */
export interface ChargeReference {
  kind: string;
  id: string;
}

export interface CardFacts {
  brand: string;
  lastFour: string;
  /** The card installments the payer chose (1 for a single payment). */
  installments: number;
}

export interface Charge {
  id: string;
  provider: string;
  /** The provider's own id (a Stripe PaymentIntent); null until it is made there (and always on the sandbox). */
  providerRef: string | null;
  method: PaymentMethod;
  status: ChargeStatus;
  amountCents: number;
  /** What was actually paid; less than `amountCents` for a partial payment. */
  paidAmountCents: number | null;
  /** Given back to the payer so far: part of the paid amount while `PAID`, all of it once `REFUNDED`. */
  refundedAmountCents: number;
  description: string;
  payer: { name: string | null; document: string };
  reference: ChargeReference;
  /** Pix copy-and-paste text (PIX). */
  pixCode: string | null;
  /** The provider's image of the Pix QR code; when absent the page draws it from `pixCode`. */
  pixQrImageUrl: string | null;
  /** Bank slip digitable line (BOLETO). */
  digitableLine: string | null;
  /** The provider's page of the bank slip, to print or download. */
  voucherUrl: string | null;
  /** Card charges, once the card is known: brand, last digits and installments. */
  card: CardFacts | null;
  declinedReason: string | null;
  /** Paid at the provider but refused by what it paid for; the money waits for a refund. */
  unappliedReason: string | null;
  /** What an open dispute withdrew, in cents (`DISPUTED`, and `CHARGED_BACK` once lost). */
  disputedAmountCents: number;
  /** The provider's dispute of the payment, once the payer opened one. */
  disputeRef: string | null;
  expiresAt: Date | null;
  /** The Brasília day whose amount the charge asks for: a payment of it settles as of that day. */
  pricedFor: string;
  /** When the payer paid, as the provider reports it. */
  paidAt: Date | null;
  createdAt: Date;
}

export interface CardInput {
  number: string;
  holderName: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
  /** Card installments, 1 to `MAX_CARD_INSTALLMENTS`; the acquirer pays one a month. (Default: 1) */
  installments?: number;
}

export const MAX_CARD_INSTALLMENTS = 12;

/** The card fields a payer fills in. */
export type CardField = keyof CardInput;
/** Field → the pt-BR message shown next to it, for a card refused before charging. */
export type CardErrors = Partial<Record<CardField, string>>;

/** Who pays. A bank slip at Stripe needs the e-mail and the address as well (`PaymentProvider.boletoNeedsAddress`). */
export interface Payer {
  name: string | null;
  /** CPF or CNPJ, digits only. */
  document: string;
  email?: string;
  address?: PayerAddress;
}

export interface PayerAddress {
  street: string;
  number: string;
  complement?: string;
  district: string;
  city: string;
  /** UF, two letters. */
  state: string;
  /** CEP, 8 digits. */
  zipCode: string;
}

export interface CreateChargeInput {
  method: PaymentMethod;
  amountCents: number;
  description: string;
  payer: Payer;
  reference: ChargeReference;
  /** CARD with the sandbox's own form: the card is charged at once (PAID or DECLINED). */
  card?: CardInput;
  /** The payer's address (the client IP, as `TRUST_PROXY` reads it): card attempts are limited per address as well. */
  ip?: string;
  /** The Brasília day whose amount this is (late charges, discounts). (Default: today) */
  pricedFor?: string;
  /** BOLETO: the Brasília day the bank slip is due, today or later. (Default: today) */
  dueDate?: string;
}

/** A charge recorded in a transaction; `submit` when the provider makes it once that commits (`submitOpened`). */
export interface OpenedCharge {
  charge: Charge;
  submit?: CreateChargeInput;
}

/** A card payment to be entered in the provider's own fields (Stripe's Payment Element). */
export type CardSessionInput = Omit<CreateChargeInput, 'method' | 'card'>;

/** What the page needs to mount the provider's card fields for a pending card charge. */
export interface CardSession {
  publishableKey: string;
  clientSecret: string;
}

/**
 * How the payer enters a card: `form`, the sandbox's own fields posted to this service; `element`,
 * the provider's fields in the browser (Stripe.js), so no card number ever reaches the service.
 */
export type CardEntry = 'form' | 'element';

/**
 * What a charge pays for hears of its moves, in the transaction of the move. `paid` may throw to
 * refuse: the sandbox then leaves the charge as it was; Stripe has taken the money already, so the
 * charge stays paid with `unappliedReason` and is refunded. `paid` answers what it kept when that is
 * less than the payment (more than was owed): the rest is refunded.
 */
export interface ChargeListener {
  paid(db: Queryable, charge: Charge): Promise<void | { keptCents: number }>;
  /** A card attempt was declined. */
  declined?(db: Queryable, charge: Charge): Promise<void>;
  /** A Pix, bank slip or card session ended unpaid. */
  expired?(db: Queryable, charge: Charge): Promise<void>;
  /** A refund of the payment succeeded, in full or in part: `refund.amountCents` went back to the payer. */
  refunded?(db: Queryable, charge: Charge, refund: RefundMove): Promise<void>;
  /** A refund that had succeeded failed afterwards (a bank slip's refund whose bank data never came): the money is back. */
  refundFailed?(db: Queryable, charge: Charge, refund: RefundMove): Promise<void>;
  /** A dispute withdrew `disputedAmountCents` of a paid charge: not final, it may be won. */
  disputed?(db: Queryable, charge: Charge): Promise<void>;
  /** Funds a dispute withdrew came back, `amountCents` of them: all once won, part of them when it was won in part. */
  reinstated?(db: Queryable, charge: Charge, amountCents: number): Promise<void>;
  /** For good: refunds of all it took succeeded (`REFUNDED`), or a dispute was lost (`CHARGED_BACK`, after `disputed`). */
  reversed?(db: Queryable, charge: Charge): Promise<void>;
}
export type ChargeListeners = Record<string, ChargeListener>;

/** A refund of a charge as its listener hears of it: our refund's id, its amount and why it was made. */
export interface RefundMove {
  id: string;
  amountCents: number;
  /** UNAPPLIED, OVERPAYMENT, OPERATOR or PROVIDER (`payment_refunds.reason`). */
  reason: string;
}

/** The sandbox's hands: what a bank or an acquirer would report, done by a button or an operator. */
export interface SandboxControls {
  /** The payer pays a pending Pix or bank slip, in full or `amountCents` of it. */
  simulatePayment(db: Queryable, id: string, options?: { amountCents?: number }): Promise<Charge>;
  /** A pending Pix or bank slip expires unpaid. */
  simulateExpiry(db: Queryable, id: string): Promise<Charge>;
}

export interface ReconcileReport {
  /** Pending charges read from the provider. */
  checked: number;
  /** Of those, the ones that moved. */
  changed: number;
  /** Refunds and disputes the provider reported by events that never arrived, applied now. */
  recovered: number;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  readonly cardEntry: CardEntry;
  /** Whether a bank slip needs the payer's e-mail and address (`Payer.email`, `Payer.address`). */
  readonly boletoNeedsAddress: boolean;
  /** What the hosted pages may load from the provider: its Pix QR images. */
  readonly pageSources: PageSources;
  /** What the card step may load besides: the provider's card fields (scripts, frames, API). */
  readonly cardStepSources: PageSources;
  /**
   * Pix or bank slip (pending until paid or expired); CARD with `card` on the `form` entry. Made in
   * the caller's transaction; a provider that charges elsewhere (Stripe) only records it there, and
   * `submitCharge` asks the provider once the transaction has committed.
   */
  createCharge(db: Queryable, input: CreateChargeInput): Promise<Charge>;
  /** `element` entry: a pending card charge whose card the payer enters in the provider's fields (then `submitCharge`). */
  startCardSession(db: Queryable, input: CardSessionInput): Promise<Charge>;
  /**
   * After the commit of `createCharge` or `startCardSession`, outside any transaction that holds a
   * lock: makes the charge at the provider (keyed by its id) and answers it with what to pay with.
   * A charge already made is answered as it is; the sandbox's always are.
   */
  submitCharge(db: Queryable, id: string, input: CreateChargeInput): Promise<Charge>;
  /** The provider's fields of a pending card charge; undefined when it can no longer take a card. */
  cardSession(db: Queryable, id: string): Promise<CardSession | undefined>;
  getCharge(db: Queryable, id: string): Promise<Charge | undefined>;
  listCharges(db: Queryable, reference: ChargeReference): Promise<Charge[]>;
  /**
   * Asks the provider where a charge stands and applies it as its event would, in a transaction of
   * its own opened on `db` (the provider is asked before it opens). The sandbox reads it only.
   */
  refresh(db: Queryable, id: string): Promise<Charge | undefined>;
  /** Reads the pending charges not heard of for a while from the provider and applies what it says. */
  reconcile(db: Queryable): Promise<ReconcileReport>;
  /** The money the provider moved for our charges on a Brasília day, and its fees: what the books are checked against. */
  balanceOfDay(db: Queryable, day: string): Promise<DayBalance>;
  /**
   * An operator gives a paid charge back to the payer (`REFUNDED`: a refund of `amountCents` of it,
   * all it still holds by default, asked by a job and done when the provider says it succeeded) or,
   * on the sandbox, records it contested (`CHARGED_BACK`).
   */
  reverse(db: Queryable, id: string, status: 'REFUNDED' | 'CHARGED_BACK', amountCents?: number): Promise<Charge>;
  /** The job of a refund decided earlier (`payment_refunds`): asks the provider, keyed by the refund, and records its answer. */
  refund(db: Queryable, refundId: string): Promise<void>;
  /**
   * The job of a charge to cancel at the provider (a sibling of a paid charge, a card session past
   * its day); `not-due` for a charge still open before its end by the service clock.
   */
  cancel(db: Queryable, chargeId: string): Promise<'done' | 'not-due'>;
  /** Present on the sandbox only: its simulate buttons and operator routes exist only then. */
  readonly sandbox?: SandboxControls;
  /** A real provider's account in test mode (Stripe's test keys): it moves no real money. */
  readonly testMode?: boolean;
  /** Present on a provider that reports by events: the endpoint it posts them to. */
  readonly webhook?: ProviderWebhook;
}

/** How one event was taken: `duplicate` when its id was seen before, `ignored` when it is no charge of ours. */
export interface WebhookOutcome {
  eventId: string;
  type: string;
  outcome: 'applied' | 'unchanged' | 'ignored' | 'duplicate';
}

export interface ProviderWebhook {
  /** The path the provider posts to, outside both API documents. */
  path: string;
  /** The request header carrying the provider's signature of the raw body. */
  signatureHeader: string;
  /** Verifies the signature of the raw body and applies the event once. */
  receive(db: Queryable, body: Buffer, signature: string | undefined): Promise<WebhookOutcome>;
}

/** What the hosted pages show of the provider. */
export interface ProviderView {
  /** The sandbox's banner, simulate buttons and test-card hints. */
  sandbox: boolean;
  /** The test-mode banner of a real provider's test account. */
  testMode: boolean;
  cardEntry: CardEntry;
  /** The bank slip asks the payer's name, e-mail and address first. */
  boletoForm: boolean;
}

export const providerView = (provider: PaymentProvider): ProviderView => ({
  sandbox: provider.sandbox !== undefined,
  testMode: provider.testMode === true,
  cardEntry: provider.cardEntry,
  boletoForm: provider.boletoNeedsAddress,
});
