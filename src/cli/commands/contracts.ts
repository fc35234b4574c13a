import { systemClock } from '../../clock.js';
import { contractOf, isProduct, updateContract, type Contract } from '../../institution/contracts.js';
import { PRODUCTS } from '../../institution/installment-rules.js';
import { requireTenant } from './tenants.js';
import { UsageError, type Command } from './command.js';

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

function percent(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!PERCENT.test(value) || Number(value) > 100) throw new UsageError(`--${name} must be a percentage from 0 to 100 with up to 2 decimals, got "${value}"`);
  return value;
}

function days(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,4}$/.test(value)) throw new UsageError(`--${name} must be a number of days, got "${value}"`);
  return Number(value);
}

/** The institution's contract with the operator: product, commission and guaranteed-revenue terms. */
export const contractCommands: Record<string, Command> = {
  'institution:contract': {
    usage: `institution:contract --institution ID [--product "Gestão"|"Receita Garantida"] [--commission PCT]
                                     [--guaranteed PCT --first-transfer PCT --first-transfer-days N --second-transfer-days N]
                                     show or change the contract; the product applies to installments created afterwards`,
    run: async (db, options) => {
      if (!options.institution) throw new UsageError('institution:contract needs --institution ID');
      await requireTenant(db, 'institution', options.institution);
      if (options.product !== undefined && !isProduct(options.product)) throw new UsageError(`--product must be one of ${PRODUCTS.map((p) => `"${p}"`).join(', ')}, got "${options.product}"`);
      const changes: Partial<Contract> = {
        ...(options.product !== undefined ? { product: options.product as Contract['product'] } : {}),
        commissionPercent: percent('commission', options.commission),
        guaranteedPercent: percent('guaranteed', options.guaranteed),
        firstTransferPercent: percent('first-transfer', options['first-transfer']),
        firstTransferDays: days('first-transfer-days', options['first-transfer-days']),
        secondTransferDays: days('second-transfer-days', options['second-transfer-days']),
      };
      const changed = Object.values(changes).some((v) => v !== undefined);
      const contract = changed ? await updateContract(db, options.institution, changes, systemClock.now()) : await contractOf(db, options.institution);
      return { institution: options.institution, ...contract };
    },
  },
};
