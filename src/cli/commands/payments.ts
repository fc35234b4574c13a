import { findChargeRow } from '../../payments/charges.js';
import { openRefunds } from '../../payments/refunds.js';
import { type Command, operatorContext, UsageError } from './command.js';

/** Money given back to payers: refund an installment's payment, and the refunds not done yet. */
export const paymentCommands: Record<string, Command> = {
  'payment:refund': {
    usage: `payment:refund --charge ID [--amount-cents N]
                                     refund a paid charge of an installment, all it still holds or N cents of it: once
                                     the provider says the refund succeeded, the installment owes it again and the books
                                     have a record of it in the open month; a sale's payment is refunded with sale:refund`,
    async run(db, options) {
      const id = options.charge;
      if (!id) throw new UsageError('payment:refund needs --charge ID (a payment charge id)');
      const amount = options['amount-cents'];
      if (amount !== undefined && !/^[1-9]\d{0,14}$/.test(amount))
        throw new UsageError(`--amount-cents takes a whole number of cents above 0, got "${amount}"`);
      const ctx = operatorContext(db);
      const row = await findChargeRow(db, id);
      if (!row) throw new UsageError(`no charge ${id}`);
      if (row.referenceKind === 'sale')
        throw new UsageError(`charge ${id} pays sale ${row.saleId}: refund it with sale:refund --sale ${row.saleId}`);
      try {
        const charge = await db.transaction((tx) =>
          ctx.payments.reverse(tx, id, 'REFUNDED', amount === undefined ? undefined : Number(amount)),
        );
        return { chargeId: charge.id, status: charge.status, refund: 'asked: the worker asks the provider' };
      } catch (error) {
        if (error instanceof Error && 'code' in error) throw new UsageError(`${String(error.code)}: ${error.message}`);
        throw error;
      }
    },
  },
  'payment:refunds': {
    usage: `payment:refunds                  refunds not done yet, oldest first: asked, waiting at the provider, or FAILED
                                     (a FAILED one needs a person: the payer's bank data, or a refund by hand)`,
    async run(db) {
      const open = await openRefunds(db);
      return {
        open: open.length,
        refunds: open.map((r) => ({
          id: r.id,
          chargeId: r.chargeId,
          reason: r.reason,
          amountCents: r.amountCents,
          status: r.status,
          providerRef: r.providerRef,
          failureReason: r.failureReason,
          since: r.createdAt.toISOString(),
        })),
      };
    },
  },
};
