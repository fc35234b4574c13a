import type Stripe from 'stripe';

import type { CardFacts, ChargeStatus, PaymentMethod } from '../provider.js';
import { expandedBalance, feeOf, type StatedFee } from './balance.js';

/** What a PaymentIntent says about our charge, in our words. */
export interface Observed {
  status: Extract<ChargeStatus, 'PENDING' | 'PAID' | 'DECLINED' | 'EXPIRED'>;
  paidAmountCents?: number;
  card?: CardFacts;
  declinedReason?: string;
  pixCode?: string;
  pixQrImageUrl?: string;
  digitableLine?: string;
  voucherUrl?: string;
  expiresAt?: Date;
  /** Stripe's fee of the payment, once its balance transaction exists (read with the intent, `retrieveIntent`). */
  fee?: StatedFee;
  /** When the money reached Stripe's balance (its balance transaction's `created`): the payment's time when no event tells it. */
  paidAt?: Date;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  elo: 'Elo',
  hipercard: 'Hipercard',
  diners: 'Diners Club',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** The brand as the pages and the events name it (`visa` → `Visa`). */
export const brandName = (brand: string | null | undefined): string => BRANDS[brand ?? ''] ?? 'Desconhecida';

/** What the buyer reads for the decline codes worth telling apart; the issuer's generic refusal otherwise. */
const DECLINES: Record<string, string> = {
  insufficient_funds: 'Saldo insuficiente',
  incorrect_cvc: 'Código de segurança incorreto',
  invalid_cvc: 'Código de segurança incorreto',
  expired_card: 'Cartão vencido',
  incorrect_number: 'Número do cartão incorreto',
  invalid_number: 'Número do cartão incorreto',
  card_not_supported: 'Cartão não aceito para esta compra',
  processing_error: 'Erro ao processar o cartão: tente de novo',
  authentication_required: 'O banco pediu uma autenticação que não foi concluída',
  payment_intent_authentication_failure: 'A autenticação do cartão não foi concluída',
};
export const DEFAULT_DECLINE = 'Cartão recusado pelo emissor';

export const declineReason = (error: Stripe.PaymentIntent.LastPaymentError): string =>
  DECLINES[error.decline_code ?? ''] ?? DECLINES[error.code ?? ''] ?? DEFAULT_DECLINE;

const fromUnix = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : undefined);

/** Brand, last digits and installments of the card that paid (or was refused). */
function cardFacts(intent: Stripe.PaymentIntent): CardFacts | undefined {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const paid = charge?.payment_method_details?.card;
  if (paid?.last4)
    return { brand: brandName(paid.brand), lastFour: paid.last4, installments: paid.installments?.plan?.count ?? 1 };
  const refused = intent.last_payment_error?.payment_method?.card;
  if (refused?.last4) return { brand: brandName(refused.brand), lastFour: refused.last4, installments: 1 };
  return undefined;
}

/** Images the hosted pages may show: Stripe's own (`img-src https://*.stripe.com`); others are drawn from the code. */
export const STRIPE_IMAGES = 'https://*.stripe.com';
function stripeImage(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && parsed.hostname.endsWith('.stripe.com') ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** The Pix QR code or the bank slip that `next_action` asks the payer to pay. */
function toPay(intent: Stripe.PaymentIntent): Partial<Observed> {
  const pix = intent.next_action?.pix_display_qr_code;
  if (pix) {
    const image = stripeImage(pix.image_url_svg) ?? stripeImage(pix.image_url_png);
    return {
      ...(pix.data ? { pixCode: pix.data } : {}),
      ...(image ? { pixQrImageUrl: image } : {}),
      ...(pix.expires_at ? { expiresAt: fromUnix(pix.expires_at)! } : {}),
    };
  }
  const boleto = intent.next_action?.boleto_display_details;
  if (boleto) {
    return {
      ...(boleto.number ? { digitableLine: boleto.number } : {}),
      ...(boleto.hosted_voucher_url || boleto.pdf ? { voucherUrl: (boleto.hosted_voucher_url ?? boleto.pdf)! } : {}),
      ...(boleto.expires_at ? { expiresAt: fromUnix(boleto.expires_at)! } : {}),
    };
  }
  return {};
}

/**
 * The charge as the PaymentIntent has it. `requires_payment_method` after an attempt is a declined
 * card, or a Pix or bank slip that ran out unpaid; `canceled` ended unpaid; `processing` and the
 * other states wait for the payer or the bank.
 */
export function observeIntent(intent: Stripe.PaymentIntent, method: PaymentMethod): Observed {
  const card = method === 'CARD' ? cardFacts(intent) : undefined;
  const withCard = card ? { card } : {};
  switch (intent.status) {
    case 'succeeded': {
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      const balance = expandedBalance(charge?.balance_transaction);
      return {
        status: 'PAID',
        paidAmountCents: intent.amount_received,
        ...withCard,
        ...(balance ? { fee: feeOf(balance), paidAt: new Date(balance.created * 1000) } : {}),
      };
    }
    case 'canceled':
      return { status: 'EXPIRED' };
    case 'requires_payment_method': {
      const error = intent.last_payment_error;
      if (!error) return { status: 'PENDING' };
      if (method === 'CARD') return { status: 'DECLINED', declinedReason: declineReason(error), ...withCard };
      return { status: 'EXPIRED' };
    }
    default:
      return { status: 'PENDING', ...toPay(intent) };
  }
}
