import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import Stripe from 'stripe';

import { addDays, localDate, startOfLocalDay } from '../../src/core/local-date.js';
import { DOUBLE_FEES, paymentFee, StripeBalance } from './stripe-balance.js';
import {
  boletoNextAction,
  type CardSeed,
  charge,
  dispute,
  type DisputeEvent,
  disputeEvent,
  type IntentEvent,
  intentEvent,
  paymentIntent,
  pixNextAction,
  refund,
  refundedEvent,
  type RefundEvent,
  refundEvent,
} from './stripe-objects.js';

/**
 * A local HTTP double of exactly the Stripe endpoints the provider calls (create, retrieve and
 * cancel a PaymentIntent; create and list refunds; list events and balance transactions), answering
 * the SDK's own types. Every move of money makes its balance transaction, with Stripe's Brazilian
 * fee (`stripe-balance.ts`). It records every
 * request, so tests assert the amount, the currency, the idempotency key and the metadata sent,
 * and it lets a test act as Stripe would (the buyer pays, the card is refused, the Pix expires,
 * a refund or a dispute), each answering the event Stripe would send.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The form body (or query) decoded into nested objects, values as strings. */
  params: Record<string, unknown>;
}

interface Entry {
  intent: Stripe.PaymentIntent;
  charge?: Stripe.Charge;
  refunds: Stripe.Refund[];
  dispute?: Stripe.Dispute;
}

type Nested = Record<string, unknown>;

/** `a[b][0]=x&a[c]=y` → `{ a: { b: ['x'], c: 'y' } }`, as Stripe's servers read the SDK's encoding. */
export function decodeStripeForm(text: string): Nested {
  const root: Nested = {};
  for (const pair of text.split('&').filter(Boolean)) {
    const [rawKey, rawValue = ''] = pair.split('=');
    const key = decodeURIComponent(rawKey!.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Nested;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Nested).map(([k, v]) => [k, arrays(v)] as const);
    return entries.length > 0 && entries.every(([k], i) => k === String(i))
      ? entries.map(([, v]) => v)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Nested;
}

const at = (path: Nested, ...keys: string[]): unknown =>
  keys.reduce<unknown>((node, key) => (node as Nested | undefined)?.[key], path);

/** Answers Stripe's error body; undefined, so that a route can `return stripeError(…)`. */
function stripeError(res: ServerResponse, status: number, code: string, message: string): undefined {
  const type = status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type, code, message } }));
  return undefined;
}

export class StripeDouble {
  readonly requests: RecordedRequest[] = [];
  private readonly entries = new Map<string, Entry>();
  /** Every event Stripe created, delivered or not, oldest first: `GET /v1/events` lists them. */
  private readonly events: Stripe.Event[] = [];
  /** Answers already given per idempotency key: Stripe replays them. */
  private readonly replies = new Map<string, string>();
  private sequence = 0;
  /** When set, every API call fails as if Stripe were down. */
  unavailable = false;
  /** Calls to these paths fail as if Stripe had a fault there (`GET /v1/refunds`, say), the others answer. */
  failingPaths: string[] = [];
  /** When set, a PaymentIntent is made but the answer to its create call is lost (a 500 reaches the client). */
  loseCreateAnswers = false;
  /** While set, create calls wait for it to resolve before answering: Stripe is slow. */
  createGate: Promise<void> | undefined;
  /**
   * What a refund created through the API is at first: `succeeded` (a card, usually), `pending`, or
   * `requires_action` (a bank slip waiting for the payer's bank details). (Default: succeeded)
   */
  refundStatus: Stripe.Refund['status'] = 'succeeded';
  /** The account's balance transactions. */
  readonly balance = new StripeBalance();
  /** What Stripe takes for a refund, in cents. (Default: 0, Stripe's price) */
  refundFee = 0;
  /**
   * While set, a payment's or a refund's balance transaction is not made yet: the charge or the
   * refund names none (`balance_transaction: null`) until `settleBalance()`. (Default: false)
   */
  balanceLag = false;
  private lagging: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly secretKey: string,
    private readonly now: () => Date,
  ) {}

  static async start(secretKey: string, now: () => Date): Promise<StripeDouble> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const double = new StripeDouble(server, `http://127.0.0.1:${port}`, secretKey, now);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      double.handle(req, res).catch((error: unknown) => stripeError(res, 500, 'double_failed', String(error)));
    });
    return double;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private seconds = () => Math.floor(this.now().getTime() / 1000);
  private nextId = (prefix: string) => `${prefix}_double${String(++this.sequence).padStart(6, '0')}`;

  /** The PaymentIntent as Stripe holds it now. */
  intent(id: string): Stripe.PaymentIntent {
    const entry = this.entries.get(id);
    if (!entry) throw new Error(`the double has no PaymentIntent ${id}`);
    return entry.intent;
  }

  /** The events Stripe created of one type (delivered or not), oldest first. */
  eventsOfType<T extends Stripe.Event['type']>(type: T): Extract<Stripe.Event, { type: T }>[] {
    return this.events.filter((e) => e.type === type) as Extract<Stripe.Event, { type: T }>[];
  }

  /** The PaymentIntent made for one of our charges (its `metadata.chargeId`). */
  intentOfCharge(chargeId: string): Stripe.PaymentIntent | undefined {
    return [...this.entries.values()].find((e) => e.intent.metadata.chargeId === chargeId)?.intent;
  }

  /** The create calls received, in order. */
  creates(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', this.url);
    const params = decodeStripeForm(req.method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString());
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey, params });
    if (this.unavailable || this.failingPaths.includes(url.pathname))
      return stripeError(res, 500, 'api_error', 'The double is down');
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return stripeError(res, 401, 'invalid_api_key', 'Invalid API Key provided');
    const replay = idempotencyKey && this.replies.get(`${req.method} ${url.pathname} ${idempotencyKey}`);
    if (replay && this.loseCreateAnswers) return stripeError(res, 500, 'api_error', 'The answer was lost');
    if (replay) {
      res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(replay);
      return;
    }
    const creating = req.method === 'POST' && url.pathname === '/v1/payment_intents';
    if (creating && this.createGate) await this.createGate;
    const answer = this.route(req.method ?? '', url.pathname, params, res);
    if (answer === undefined) return;
    const body = JSON.stringify(answer);
    if (idempotencyKey) this.replies.set(`${req.method} ${url.pathname} ${idempotencyKey}`, body);
    if (creating && this.loseCreateAnswers) return stripeError(res, 500, 'api_error', 'The answer was lost');
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${this.sequence}` }).end(body);
  }

  private route(method: string, path: string, params: Nested, res: ServerResponse): object | undefined {
    const intentPath = /^\/v1\/payment_intents\/([\w]+)(\/cancel)?$/.exec(path);
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(params, res);
    if (intentPath && !this.entries.has(intentPath[1]!))
      return stripeError(res, 404, 'resource_missing', `No such payment_intent: '${intentPath[1]}'`);
    if (method === 'GET' && intentPath && !intentPath[2]) return this.withCharge(intentPath[1]!, params);
    if (method === 'POST' && intentPath?.[2]) return this.cancelIntent(intentPath[1]!, res);
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(params, res);
    if (method === 'GET' && path === '/v1/refunds') return this.listRefunds(params);
    if (method === 'GET' && path === '/v1/events') return this.listEvents(params);
    if (method === 'GET' && path === '/v1/balance_transactions')
      return this.balance.list(params, (id) => this.sourceObject(id));
    return stripeError(res, 404, 'unknown_route', `Unrecognized request URL (${method}: ${path})`);
  }

  private createIntent(params: Nested, res: ServerResponse): Stripe.PaymentIntent | undefined {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50)
      return stripeError(res, 400, 'amount_too_small', 'Amount must be at least R$ 0,50 brl');
    if (params.currency !== 'brl') return stripeError(res, 400, 'parameter_invalid', 'Invalid currency');
    const allowed = (params.allowed_payment_method_types ?? []) as Stripe.PaymentIntent.AllowedPaymentMethodType[];
    const id = this.nextId('pi');
    const seed = {
      id,
      amount,
      created: this.seconds(),
      description: (params.description as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Stripe.Metadata,
      allowed,
    };
    const method = allowed[0];
    let intent: Stripe.PaymentIntent;
    if (method === 'pix' && params.confirm === 'true') {
      const expiresAt = Number(at(params, 'payment_method_options', 'pix', 'expires_at'));
      const code = `00020101021226930014br.gov.bcb.pix2571qr.stripe.com/pix/${id}5204000053039865802BR6304ABCD`;
      intent = paymentIntent(seed, { status: 'requires_action', next_action: pixNextAction(id, code, expiresAt) });
    } else if (method === 'boleto' && params.confirm === 'true') {
      const missing = ['name', 'email'].filter((k) => !at(params, 'payment_method_data', 'billing_details', k));
      if (!at(params, 'payment_method_data', 'billing_details', 'address', 'line1')) missing.push('address');
      if (!at(params, 'payment_method_data', 'boleto', 'tax_id')) missing.push('tax_id');
      if (missing.length)
        return stripeError(res, 400, 'parameter_missing', `Missing boleto data: ${missing.join(', ')}`);
      const days = Number(at(params, 'payment_method_options', 'boleto', 'expires_after_days') ?? 3);
      const due = Math.floor(startOfLocalDay(addDays(localDate(this.now()), days + 1)).getTime() / 1000) - 1;
      const line = `23793381286000${String(this.sequence).padStart(6, '0')}2500063305${String(amount).padStart(17, '0')}`;
      intent = paymentIntent(seed, { status: 'requires_action', next_action: boletoNextAction(id, line, due) });
    } else {
      intent = paymentIntent(seed, {
        payment_method_options: {
          card: {
            installments: {
              available_plans: [],
              enabled: at(params, 'payment_method_options', 'card', 'installments', 'enabled') === 'true',
              plan: null,
            },
            mandate_options: null,
            network: null,
            request_three_d_secure: 'automatic',
          },
        },
      });
    }
    this.entries.set(id, { intent, refunds: [] });
    return intent;
  }

  private withCharge(id: string, params: Nested): Stripe.PaymentIntent {
    const entry = this.entries.get(id)!;
    const expand = (params.expand ?? []) as string[];
    if (!entry.charge || !expand.some((e) => e.startsWith('latest_charge'))) return entry.intent;
    const balance = expand.includes('latest_charge.balance_transaction');
    const charged = balance
      ? { ...entry.charge, balance_transaction: this.balance.expanded(entry.charge.balance_transaction) }
      : entry.charge;
    return { ...entry.intent, latest_charge: charged };
  }

  /** The charge, refund or dispute a balance transaction names, as Stripe holds it now. */
  private sourceObject(id: string): object | undefined {
    for (const entry of this.entries.values()) {
      if (entry.charge?.id === id) return entry.charge;
      if (entry.dispute?.id === id) return entry.dispute;
      const made = entry.refunds.find((r) => r.id === id);
      if (made) return made;
    }
    return undefined;
  }

  /** Makes a balance transaction now, or once `settleBalance()` is called while `balanceLag` is set; `then` names it. */
  private moveBalance(make: () => Stripe.BalanceTransaction, then: (made: Stripe.BalanceTransaction) => void) {
    const run = () => then(make());
    if (this.balanceLag) this.lagging.push(run);
    else run();
  }

  /** Stripe puts in the balance what `balanceLag` held back: the transactions are made now. */
  settleBalance(): void {
    const waiting = this.lagging;
    this.lagging = [];
    for (const run of waiting) run();
  }

  private cancelIntent(id: string, res: ServerResponse): Stripe.PaymentIntent | undefined {
    const entry = this.entries.get(id)!;
    if (entry.intent.status === 'succeeded' || entry.intent.status === 'canceled')
      return stripeError(
        res,
        400,
        'payment_intent_unexpected_state',
        `You cannot cancel this PaymentIntent because it has a status of ${entry.intent.status}.`,
      );
    return this.set(id, {
      status: 'canceled',
      canceled_at: this.seconds(),
      cancellation_reason: 'abandoned',
      next_action: null,
    });
  }

  /** A refund of `amount` (all that is left when absent), counted in `amount_refunded` until it fails, as Stripe does. */
  private createRefund(params: Nested, res: ServerResponse): Stripe.Refund | undefined {
    const entry = this.entries.get(String(params.payment_intent));
    if (!entry?.charge) return stripeError(res, 400, 'resource_missing', 'This PaymentIntent has no charge to refund');
    const left = entry.charge.amount - entry.charge.amount_refunded;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (left <= 0) return stripeError(res, 400, 'charge_already_refunded', 'Charge has already been refunded');
    if (amount > left)
      return stripeError(res, 400, 'amount_too_large', `Refund amount (${amount}) is greater than unrefunded amount`);
    const made = this.addRefund(entry, amount, this.refundStatus, (params.metadata ?? {}) as Stripe.Metadata);
    const expand = (params.expand ?? []) as string[];
    return expand.includes('balance_transaction')
      ? { ...made, balance_transaction: this.balance.expanded(made.balance_transaction) }
      : made;
  }

  private addRefund(entry: Entry, amount: number, status: Stripe.Refund['status'], metadata: Stripe.Metadata) {
    const total = entry.charge!.amount_refunded + amount;
    entry.charge = { ...entry.charge!, refunded: total === entry.charge!.amount, amount_refunded: total };
    const made = refund(this.nextId('re'), entry.charge, this.seconds(), metadata, { amount, status });
    entry.refunds.push(made);
    this.moveBalance(
      () =>
        this.balance.add({
          type: 'refund',
          amount: -amount,
          fee: this.refundFee,
          created: this.seconds(),
          source: made.id,
        }),
      (txn) => (made.balance_transaction = txn.id),
    );
    this.record(refundedEvent(this.nextId('evt'), this.seconds(), entry.charge));
    return made;
  }

  private listRefunds(params: Nested): Stripe.ApiList<Stripe.Refund> {
    const entry = this.entries.get(String(params.payment_intent));
    const expand = ((params.expand ?? []) as string[]).includes('data.balance_transaction');
    const data = [...(entry?.refunds ?? [])]
      .reverse()
      .map((r) => (expand ? { ...r, balance_transaction: this.balance.expanded(r.balance_transaction) } : r));
    return { object: 'list', data, has_more: false, url: '/v1/refunds' };
  }

  /**
   * `GET /v1/events`: newest first, filtered by `types` and the `created` range, in pages of
   * `limit` after `starting_after`, as Stripe lists the events of its last 30 days.
   */
  private listEvents(params: Nested): Stripe.ApiList<Stripe.Event> {
    const types = (params.types ?? []) as string[];
    const created = (params.created ?? {}) as Record<'gt' | 'gte' | 'lt' | 'lte', string | undefined>;
    const bound = (key: keyof typeof created, test: (at: number, limit: number) => boolean) => (at: number) =>
      created[key] === undefined || test(at, Number(created[key]));
    const tests = [
      bound('gt', (a, b) => a > b),
      bound('gte', (a, b) => a >= b),
      bound('lt', (a, b) => a < b),
      bound('lte', (a, b) => a <= b),
    ];
    const matching = this.events
      .filter((e) => (types.length === 0 || types.includes(e.type)) && tests.every((ok) => ok(e.created)))
      .reverse()
      .sort((a, b) => b.created - a.created);
    const after = params.starting_after ? matching.findIndex((e) => e.id === params.starting_after) + 1 : 0;
    const limit = Number(params.limit ?? 10);
    const data = matching.slice(after, after + limit);
    return { object: 'list', data, has_more: after + limit < matching.length, url: '/v1/events' };
  }

  private record<E extends Stripe.Event>(event: E): E {
    this.events.push(event);
    return event;
  }

  private set(id: string, state: Partial<Stripe.PaymentIntent>): Stripe.PaymentIntent {
    const entry = this.entries.get(id)!;
    entry.intent = { ...entry.intent, ...state };
    return entry.intent;
  }

  private event(type: IntentEvent['type'], id: string): IntentEvent {
    return this.record(intentEvent(this.nextId('evt'), this.seconds(), type, this.intent(id)));
  }

  /**
   * The buyer pays (the Pix, the bank slip, or the card in the Payment Element, with its installment
   * plan); `amountReceived` when less arrived than was asked.
   */
  succeed(id: string, card?: CardSeed, amountReceived?: number): IntentEvent {
    const paid = this.intent(id);
    const charged = charge(paid, this.seconds(), card);
    const entry = this.entries.get(id)!;
    entry.charge = charged;
    const received = amountReceived ?? paid.amount;
    const fee = paymentFee(paid.payment_method_types[0] ?? 'card', received);
    this.moveBalance(
      () => this.balance.add({ type: 'charge', amount: received, fee, created: this.seconds(), source: charged.id }),
      (txn) => (entry.charge = { ...entry.charge!, balance_transaction: txn.id }),
    );
    this.set(id, {
      status: 'succeeded',
      amount_received: amountReceived ?? paid.amount,
      latest_charge: charged.id,
      next_action: null,
      last_payment_error: null,
    });
    return this.event('payment_intent.succeeded', id);
  }

  /** The issuer refuses the card: the intent takes another card. */
  decline(id: string, card: CardSeed, declineCode = 'generic_decline'): IntentEvent {
    this.set(id, {
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: declineCode,
        message: 'Your card was declined.',
        payment_method: {
          id: `pm_${id.slice(3)}`,
          object: 'payment_method',
          allow_redisplay: 'unspecified',
          billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
          card: {
            brand: card.brand,
            checks: null,
            country: 'BR',
            display_brand: card.brand,
            exp_month: 12,
            exp_year: 2030,
            funding: 'credit',
            generated_from: null,
            last4: card.last4,
            networks: null,
            regulated_status: 'unregulated',
            three_d_secure_usage: null,
            wallet: null,
          },
          created: this.seconds(),
          customer: null,
          customer_account: null,
          livemode: false,
          metadata: {},
          type: 'card',
        },
      },
    });
    return this.event('payment_intent.payment_failed', id);
  }

  /** The Pix or bank slip ran out unpaid: Stripe cancels it. */
  expire(id: string): IntentEvent {
    this.set(id, {
      status: 'canceled',
      canceled_at: this.seconds(),
      cancellation_reason: 'expired',
      next_action: null,
    });
    return this.event('payment_intent.canceled', id);
  }

  /** A refund made in Stripe's dashboard, succeeded: of `cents` (`amount_refunded` is the running total), or of all that is left. */
  refundInDashboard(id: string, cents?: number): Stripe.ChargeRefundedEvent {
    const entry = this.entries.get(id)!;
    const left = entry.charge!.amount - entry.charge!.amount_refunded;
    this.addRefund(entry, Math.min(left, cents ?? left), 'succeeded', {});
    return this.events.at(-1) as Stripe.ChargeRefundedEvent;
  }

  /** The refunds of a PaymentIntent, oldest first. */
  refunds(id: string): Stripe.Refund[] {
    return this.entries.get(id)!.refunds;
  }

  /** A refund moves on at the bank: it succeeds (`refund.updated`) or fails (`refund.failed`, no longer counted as refunded). */
  settleRefund(refundId: string, status: 'succeeded' | 'failed'): RefundEvent {
    const entry = [...this.entries.values()].find((e) => e.refunds.some((r) => r.id === refundId))!;
    const made = entry.refunds.find((r) => r.id === refundId)!;
    Object.assign(made, { status, ...(status === 'failed' ? { failure_reason: 'lost_or_stolen_card' } : {}) });
    if (status === 'failed') {
      const total = entry.charge!.amount_refunded - made.amount;
      entry.charge = { ...entry.charge!, refunded: false, amount_refunded: total };
      const at = this.seconds();
      this.balance.add({ type: 'refund_failure', amount: made.amount, fee: 0, created: at, source: made.id });
    }
    const type = status === 'failed' ? 'refund.failed' : 'refund.updated';
    return this.record(refundEvent(this.nextId('evt'), this.seconds(), { ...made }, type));
  }

  /**
   * The cardholder disputes the payment with their bank: an inquiry (`warning_needs_response`,
   * nothing withdrawn) or a dispute (`needs_response`) of `amount` (the whole charge by default).
   */
  disputeCharge(id: string, options: { status?: Stripe.Dispute.Status; amount?: number } = {}): DisputeEvent {
    const entry = this.entries.get(id)!;
    entry.charge = { ...entry.charge!, disputed: true };
    const state = { status: options.status ?? 'needs_response', ...(options.amount ? { amount: options.amount } : {}) };
    entry.dispute = dispute(this.nextId('dp'), entry.charge, this.seconds(), state);
    this.withdrawDispute(entry);
    return this.record(disputeEvent(this.nextId('evt'), this.seconds(), entry.dispute));
  }

  /**
   * The dispute of a PaymentIntent moves on: closed `won` or `lost`, or any status with the event
   * Stripe sends for it; a dispute closed `lost` but won in part gives `reinstatedCents` back.
   */
  moveDispute(
    id: string,
    status: Stripe.Dispute.Status,
    type: DisputeEvent['type'] = 'charge.dispute.closed',
    options: { reinstatedCents?: number } = {},
  ): DisputeEvent {
    const entry = this.entries.get(id)!;
    entry.dispute = { ...entry.dispute!, status };
    const withdrawn = entry.dispute.balance_transactions.some((t) => t.amount < 0);
    if (status === 'won' && withdrawn) this.disputeBalance(entry, entry.dispute.amount, 0);
    else this.withdrawDispute(entry);
    if (status === 'lost' && options.reinstatedCents) this.disputeBalance(entry, options.reinstatedCents, 0);
    return this.record(disputeEvent(this.nextId('evt'), this.seconds(), entry.dispute, type));
  }

  /** A dispute past its inquiry withdraws its amount and charges Stripe's dispute fee, once. */
  private withdrawDispute(entry: Entry): void {
    const status = entry.dispute!.status;
    const withdrawn = entry.dispute!.balance_transactions.some((t) => t.amount < 0);
    if (withdrawn || status.startsWith('warning_') || status === 'won') return;
    this.disputeBalance(entry, -entry.dispute!.amount, DOUBLE_FEES.disputeCents);
  }

  private disputeBalance(entry: Entry, amount: number, fee: number): void {
    const made = this.balance.add({
      type: 'adjustment',
      amount,
      fee,
      created: this.seconds(),
      source: entry.dispute!.id,
    });
    entry.dispute = { ...entry.dispute!, balance_transactions: [...entry.dispute!.balance_transactions, made] };
  }
}

/** A delivery as Stripe signs it, with the SDK's own test helper. */
export function signedDelivery(event: Stripe.Event, secret: string, at: Date): { body: string; signature: string } {
  const body = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
  return { body, signature };
}
