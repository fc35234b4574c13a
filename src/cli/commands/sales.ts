import { operateSale, OPERATOR_ACTIONS, type OperatorAction } from '../../partner/sales/checkout/operator.js';
import { lookupStatusName } from '../../partner/sales/state/sale-states.js';
import { stateOf } from '../../partner/sales/state/transitions.js';
import { withLockedSale } from '../../partner/sales/state/unit-of-work.js';
import { type Command, operatorContext, UsageError } from './command.js';

const DESCRIPTIONS: Record<OperatorAction, string> = {
  cancel: 'cancel a confirmed sale (purchaseCancelled)',
  refund: 'refund the paid charges of a confirmed sale and cancel it (purchaseCancelled)',
  chargeback: 'register a chargeback of the card payment of a confirmed sale (purchaseCancelled)',
  'cancel-by-partner': 'cancel an open sale on behalf of the partner',
  expire: 'expire an open sale now',
};

function saleCommand(action: OperatorAction): Command {
  return {
    usage: `sale:${action} --sale <saleId>   ${DESCRIPTIONS[action]}`,
    async run(db, options) {
      if (!options.sale || !/^\d{1,9}$/.test(options.sale))
        throw new UsageError('--sale takes the sale id (a whole number)');
      const ctx = operatorContext(db);
      try {
        const sale = await withLockedSale(ctx.db, Number(options.sale), (tx, locked) =>
          operateSale(tx, ctx, locked, action),
        );
        return { saleId: sale.id, status: stateOf(sale), lookupStatus: lookupStatusName(stateOf(sale)) };
      } catch (error) {
        if (error instanceof Error && 'code' in error) throw new UsageError(`${String(error.code)}: ${error.message}`);
        throw error;
      }
    },
  };
}

/** Operator moves of a sale, the CLI twins of `POST /sandbox/sales/{saleId}/{action}`. */
export const saleCommands: Record<string, Command> = Object.fromEntries(
  OPERATOR_ACTIONS.map((action) => [`sale:${action}`, saleCommand(action)]),
);
