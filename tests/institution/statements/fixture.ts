import { startPayment } from '../../../src/institution/payments/payment-page.js';
import { closeMonth } from '../../../src/institution/statements/closing.js';
import type { TestContext } from '../../support/context.js';
import { givenContract, GUARANTEED_REVENUE } from '../../support/contracts.js';
import { CPF, installment, type Submission, submitAndProcess } from '../../support/installments.js';
import { paymentPath } from '../../support/payments.js';
import { givenInstitution } from '../../support/tenants.js';

export type Tenant = Awaited<ReturnType<typeof givenInstitution>>;

const token = async (t: TestContext, tenant: Tenant, idParcela: string) =>
  (await paymentPath(t, tenant.headers, idParcela, CPF.carlos)).replace('/pay/', '');

/** Pays an installment by Pix or bank slip on a Brasília day (noon), in full or `cents` of it. */
export async function payByInvoice(
  t: TestContext,
  tenant: Tenant,
  idParcela: string,
  day: string,
  method: 'PIX' | 'BOLETO',
  cents?: number,
) {
  t.clock.set(`${day}T15:00:00Z`);
  const charge = await startPayment(t.ctx, await token(t, tenant, idParcela), method);
  await t.ctx.payments.sandbox!.simulatePayment(t.ctx.db, charge.id, cents === undefined ? {} : { amountCents: cents });
}

export async function payByCard(t: TestContext, tenant: Tenant, idParcela: string, day: string, installments: number) {
  t.clock.set(`${day}T15:00:00Z`);
  const card = {
    number: '4111111111111111',
    holderName: 'CARLOS SOUZA',
    expiryMonth: 12,
    expiryYear: 2030,
    cvv: '123',
    installments,
  };
  const charge = await startPayment(t.ctx, await token(t, tenant, idParcela), 'CARD', { card });
  if (charge.status !== 'PAID') throw new Error(`card declined: ${charge.declinedReason}`);
}

/** An installment of 1000.00 due on 10 March 2026, `overrides` aside. */
export const march = (id: string, overrides: Partial<Submission> = {}) =>
  installment({ idParcela: id, valorBoleto: '1000.00', dataVencimento: '2026-03-10T00:00:00', ...overrides });

/** An installment of 1000.00 due on 10 April 2026, `overrides` aside. */
export const april = (id: string, overrides: Partial<Submission> = {}) =>
  march(id, { dataVencimento: '2026-04-10T00:00:00', ...overrides });

/**
 * An institution of guaranteed revenue (`GUARANTEED_REVENUE`: 5 %, 90 % guaranteed, 60 % on the
 * 10th, the rest on the 15th) that sent `items` on 1 March 2026 and whose March was closed on 1 April.
 */
export async function givenClosedMarch(t: TestContext, name: string, items: Submission[]): Promise<Tenant> {
  const tenant = await givenInstitution(t.ctx, name);
  await givenContract(t.ctx, tenant.id, GUARANTEED_REVENUE);
  t.clock.set('2026-03-01T15:00:00Z');
  await submitAndProcess(t, tenant.headers, items);
  t.clock.set('2026-04-01T03:00:00Z');
  await closeMonth(t.ctx.db, tenant.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
  return tenant;
}

/**
 * The hand-computed month (March 2026) of three institutions, 43 installments:
 * - `gestao` (Gestão, commission 10%, transfer 2 days after receipt): 15 installments of 1000.00
 *   due 2026-03-10: G1 Pix on time, G2 Pix 15 days late (fine 20.00, interest 5.00), G3 a bank slip
 *   of 400.00 (partial), G4 card in 3 (333.34 + 333.33 + 333.33), G5 paid at the institution on
 *   2026-03-09; ten open.
 * - `garantida` (Receita Garantida, commission 5%, guaranteed 90%, first transfer 60% on day 10,
 *   second on day 15): 20 × 1000.00 (R1–R20), R21 with a 5% on-time discount, R22 of 1234.56,
 *   R23 cancelled, R24 paid at the institution, all due in March; R25 due in April.
 * - `outra` (Gestão, commission 8.5%): 3 installments, O1 paid by Pix on time.
 */
export async function hardMonth(t: TestContext) {
  const gestao = await givenInstitution(t.ctx, 'Faculdade Gestão');
  const garantida = await givenInstitution(t.ctx, 'Universidade Garantida');
  const outra = await givenInstitution(t.ctx, 'Centro Universitário Outro');
  await givenContract(t.ctx, gestao.id, {
    from: '2026-01',
    product: 'Gestão',
    commission: '10',
    'transfer-delay-days': '2',
    allocation: 'Faculdade Gestão - Sede',
  });
  await givenContract(t.ctx, garantida.id, GUARANTEED_REVENUE);
  await givenContract(t.ctx, outra.id, { from: '2026-01', commission: '8.5' });

  t.clock.set('2026-03-01T15:00:00Z');
  await submitAndProcess(t, gestao.headers, [
    ...['G1', 'G2', 'G3', 'G4'].map((id) => march(id)),
    march('G5', { situacaoBaixa: 'PAGA', pagamento: { valorRecebido: '1000.00', data: '2026-03-09T10:00:00' } }),
    ...Array.from({ length: 10 }, (_, i) => march(`G-open-${i + 1}`)),
  ]);
  await submitAndProcess(t, garantida.headers, [
    ...Array.from({ length: 20 }, (_, i) => march(`R${i + 1}`)),
    march('R21', { descontosAdimplencia: [{ percentual: 5, dias_desconto: 0 }] }),
    march('R22', { valorBoleto: '1234.56' }),
    march('R23', { situacaoBaixa: 'CANCELADA' }),
    march('R24', { situacaoBaixa: 'PAGA', pagamento: { valorRecebido: '1000.00', data: '2026-03-05T10:00:00' } }),
    march('R25', { dataVencimento: '2026-04-10T00:00:00' }),
  ]);
  await submitAndProcess(t, outra.headers, [march('O1'), march('O2'), march('O3')]);

  await payByInvoice(t, gestao, 'G1', '2026-03-05', 'PIX');
  await payByInvoice(t, gestao, 'G2', '2026-03-25', 'PIX');
  await payByInvoice(t, gestao, 'G3', '2026-03-10', 'BOLETO', 40_000);
  await payByCard(t, gestao, 'G4', '2026-03-08', 3);
  await payByInvoice(t, outra, 'O1', '2026-03-06', 'PIX');
  return {
    gestao,
    garantida,
    outra,
    contract: (tenant: Tenant, options: Record<string, string>) => givenContract(t.ctx, tenant.id, options),
  };
}
