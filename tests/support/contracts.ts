import { contractCommands } from '../../src/cli/commands/contracts.js';
import type { AppContext } from '../../src/context.js';

/** A guaranteed-revenue contract's terms, as `institution:contract` takes them: 5 % commission, 90 % guaranteed, 60 % on the 10th, the rest on the 15th. */
export const GUARANTEED_REVENUE = {
  product: 'Receita Garantida',
  commission: '5',
  guaranteed: '90',
  'first-transfer': '60',
  'first-transfer-day': '10',
  'second-transfer-day': '15',
} as const;

/** An institution's contract from January 2026 (unless `from` says otherwise), through the operator's own command. */
export const givenContract = (ctx: AppContext, institution: string, terms: Record<string, string>) =>
  contractCommands['institution:contract']!.run(ctx.db, { institution, from: '2026-01', ...terms }, []);
