import type { AppContext } from '../../../context.js';
import { localDate } from '../../../core/local-date.js';
import type { Charge, ChargeListener, Payer } from '../../../payments/provider.js';
import { FINANCING_METHOD, type WebhookPayment } from '../events/event-payloads.js';
import { checkoutUrlOf } from '../events/events.js';
import { saleFinancing, toWebhookFinancing } from '../financing.js';
import { lockSale, type SaleRow } from '../sql.js';
import { invoiceExpired, purchaseConfirmed, type SaleDeps } from '../state/sale-flow.js';
import { stateOf } from '../state/transitions.js';

/** Charges of the payment provider that pay a sale at its checkout. */

export const saleReference = (saleId: number) => ({ kind: 'sale', id: String(saleId) });
export const saleIdOf = (charge: Charge) => Number(charge.reference.id);

export type InvoiceMethod = 'pix' | 'bankSlip' | typeof FINANCING_METHOD;

/** What a step of the checkout needs besides its transaction: a sale's and the payment provider. */
export type CheckoutDeps = SaleDeps & Pick<AppContext, 'payments'>;

/** The buyer as the provider registers the payer (a bank slip at Stripe needs the e-mail and the address). */
export const payerOf = (sale: SaleRow): Payer => ({
  name: sale.buyerName || null,
  document: sale.cpf,
  ...(sale.buyerEmail ? { email: sale.buyerEmail } : {}),
  ...(sale.buyerStreet
    ? {
        address: {
          street: sale.buyerStreet,
          number: sale.buyerNumber,
          complement: sale.buyerComplement,
          district: sale.buyerDistrict,
          city: sale.buyerCity,
          state: sale.buyerState,
          zipCode: sale.buyerZipCode,
        },
      }
    : {}),
});

/** The invoice in the shape of the events' `payment`. */
export function invoicePayment(
  deps: Pick<AppContext, 'config' | 'clock'>,
  sale: SaleRow,
  charge: Charge,
  method: InvoiceMethod,
): WebhookPayment {
  const url = checkoutUrlOf(deps.config, sale.checkoutToken);
  const dueDate = localDate(new Date((charge.expiresAt ?? deps.clock.now()).getTime() - 1));
  if (method === 'pix') {
    return {
      paymentMethod: 'pix',
      url,
      dueDate,
      pix: {
        // The provider's image of the code; the sandbox names one no bank can reach.
        pixQrCode: charge.pixQrImageUrl ?? `https://sandbox.pix.invalid/qr/${charge.id}`,
        pixQrCodeText: charge.pixCode!,
      },
    };
  }
  return { paymentMethod: method, url, dueDate, digitableLine: charge.digitableLine! };
}

/** True when the charge is the invoice the sale is waiting for (its `payment` names the same code). */
export function isLinkedInvoice(sale: SaleRow, charge: Charge): boolean {
  const payment = sale.payment as WebhookPayment | null;
  if (!payment) return false;
  return (
    (charge.pixCode !== null && payment.pix?.pixQrCodeText === charge.pixCode) ||
    (charge.digitableLine !== null && payment.digitableLine === charge.digitableLine)
  );
}

/**
 * A charge of a sale was paid: the purchase is confirmed in the same transaction (a refusal, such
 * as a sale already expired, refuses the payment). A card confirms with its brand, last digits and
 * installments; the financing entry with the financing contract.
 */
export const confirmSaleCharge =
  (deps: SaleDeps): ChargeListener['paid'] =>
  async (db, charge) => {
    const sale = await lockSale(db, saleIdOf(charge));
    if (!sale) throw new Error(`charge ${charge.id} pays sale ${charge.reference.id}, which does not exist`);
    if (charge.method === 'CARD') {
      const creditCard = {
        ...(charge.card ? { cardBrand: charge.card.brand, lastFourDigits: charge.card.lastFour } : {}),
        numberOfInstallments: charge.card?.installments ?? 1,
      };
      await purchaseConfirmed(db, deps, sale, {
        payment: { paymentMethod: 'creditCard', creditCard },
      });
      return;
    }
    const offer = sale.paymentMethod === FINANCING_METHOD ? saleFinancing(sale) : undefined;
    const financing = offer ? toWebhookFinancing(offer) : undefined;
    await purchaseConfirmed(db, deps, sale, financing ? { financing } : {});
  };

/**
 * An invoice of a sale expired: when it is the one the sale waits for, the buyer is back at the
 * checkout with `invoiceExpired`. An older invoice, or a sale that moved on, changes nothing.
 */
export const saleInvoiceExpired =
  (deps: SaleDeps): NonNullable<ChargeListener['expired']> =>
  async (db, charge) => {
    const sale = await lockSale(db, saleIdOf(charge));
    if (!sale || stateOf(sale) !== 'waiting_payment' || !isLinkedInvoice(sale, charge)) return;
    await invoiceExpired(db, deps, sale);
  };
