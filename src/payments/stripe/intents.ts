import type Stripe from 'stripe';

import { localDate } from '../../core/local-date.js';
import { pixExpiry, slipDays } from '../charge-terms.js';
import { PayerDataMissing } from '../errors.js';
import type { CreateChargeInput, Payer } from '../provider.js';

/**
 * The PaymentIntents this service creates, one per charge: amounts in BRL cents, our charge id and
 * reference in `metadata` (what a webhook or the dashboard shows to find it again).
 */

function common(chargeId: string, input: Omit<CreateChargeInput, 'method'>) {
  return {
    amount: input.amountCents,
    currency: 'brl',
    description: input.description,
    metadata: { chargeId, reference: `${input.reference.kind}:${input.reference.id}` },
  } satisfies Partial<Stripe.PaymentIntentCreateParams>;
}

/** A Pix confirmed at once: its `next_action` holds the QR code, valid until the end of the day (half an hour at least). */
export function pixIntent(chargeId: string, input: CreateChargeInput, now: Date): Stripe.PaymentIntentCreateParams {
  const expiresAt = pixExpiry(now).getTime();
  return {
    ...common(chargeId, input),
    allowed_payment_method_types: ['pix'],
    payment_method_data: {
      type: 'pix',
      billing_details: { tax_id: input.payer.document, ...(input.payer.name ? { name: input.payer.name } : {}) },
    },
    payment_method_options: { pix: { expires_at: Math.ceil(expiresAt / 1000) } },
    confirm: true,
  };
}

/** The payer data a boleto needs: name, e-mail and address, besides the CPF or CNPJ. */
function boletoPayer(payer: Payer): Required<Pick<Payer, 'email' | 'address'>> & { name: string } {
  if (!payer.name || !payer.email || !payer.address) throw new PayerDataMissing();
  return { name: payer.name, email: payer.email, address: payer.address };
}

/**
 * A bank slip confirmed at once: its `next_action` holds the digitable line and the voucher.
 * `expires_after_days` makes it due at 23:59 (Brasília) of its due date (`input.dueDate`, today
 * when not given), the day whose amount it quotes.
 */
export function boletoIntent(chargeId: string, input: CreateChargeInput, now: Date): Stripe.PaymentIntentCreateParams {
  const payer = boletoPayer(input.payer);
  const { address } = payer;
  return {
    ...common(chargeId, input),
    allowed_payment_method_types: ['boleto'],
    payment_method_data: {
      type: 'boleto',
      boleto: { tax_id: input.payer.document },
      billing_details: {
        name: payer.name,
        email: payer.email,
        address: {
          line1: `${address.street}, ${address.number}`,
          ...(address.complement
            ? { line2: `${address.complement} - ${address.district}` }
            : { line2: address.district }),
          city: address.city,
          state: address.state,
          postal_code: address.zipCode,
          country: 'BR',
        },
      },
    },
    payment_method_options: { boleto: { expires_after_days: slipDays(localDate(now), input.dueDate) } },
    confirm: true,
  };
}

/**
 * A card payment the buyer confirms in Stripe's Payment Element, which offers the Brazilian
 * installment plans of the card (`installments.enabled`); the plan chosen comes back on the charge.
 */
export function cardIntent(
  chargeId: string,
  input: Omit<CreateChargeInput, 'method'>,
): Stripe.PaymentIntentCreateParams {
  return {
    ...common(chargeId, input),
    allowed_payment_method_types: ['card'],
    payment_method_options: { card: { installments: { enabled: true } } },
  };
}
