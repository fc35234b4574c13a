import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { providerBooks } from '../../src/payment-wiring.js';
import { paymentFeeCents } from '../../src/payments/sandbox-fees.js';
import { givenInstallments, givenSchool, paidCharges, refund, statement } from '../institution/books/support.js';
import { payByCard, payByInvoice } from '../institution/statements/fixture.js';
import { givenCardSale, sandbox } from '../partner/receipts/support.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';

/** The sandbox's fee table (docs/payments.md), booked as the platform's cost with the move that costs it. */
describe('sandbox fees in the books', () => {
  const t = useTestContext();

  const feesOf = async (tenantId: string) =>
    t.ctx.db.execute<Record<string, unknown>>(sql`
      select kind, record_id, amount_cents::int, principal_cents::int, commission_cents::int, net_cents::int,
             moved_on::text, transfer_on::text, statement, charge_id::text, refund_id::text, dispute_ref, cause
        from ledger_entries where tenant_id = ${tenantId}::uuid and kind = 'PROVIDER_FEE' order by id`);

  it('a Pix of R$ 1.000,00 books a fee of −9.90 for the institution, the day it was paid, nothing of its transfer and on no statement', async () => {
    const school = await givenSchool(t, 'Faculdade Pix', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'PIX-1', due: '2026-05-10' }]);
    await payByInvoice(t, school, 'PIX-1', '2026-05-08', 'PIX');
    const [chargeId] = await paidCharges(t, school, 'PIX-1');
    expect(await feesOf(school.id)).toEqual([
      {
        kind: 'PROVIDER_FEE',
        record_id: `fee:${chargeId}`,
        amount_cents: -990,
        principal_cents: -990,
        commission_cents: 0,
        net_cents: 0,
        moved_on: '2026-05-08',
        transfer_on: null,
        statement: null,
        charge_id: chargeId,
        refund_id: null,
        dispute_ref: null,
        cause: `fee:sandbox:${chargeId}`,
      },
    ]);
    const [record] = await statement(t, school);
    expect(record).toMatchObject({ liquidacao: { valor_recebido_total: '1000.00' }, valor_repasse: '900.00' });
    expect(await statement(t, school)).toHaveLength(1);
  });

  it('a bank slip costs R$ 3.49 whatever its amount; a Pix paid in part costs 0.99 % of what was paid', async () => {
    const school = await givenSchool(t, 'Faculdade Boleto', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [
      { id: 'SLIP', valor: '2500.00', due: '2026-05-10' },
      { id: 'PART', due: '2026-05-10' },
    ]);
    await payByInvoice(t, school, 'SLIP', '2026-05-08', 'BOLETO');
    await payByInvoice(t, school, 'PART', '2026-05-08', 'PIX', 40000);
    expect((await feesOf(school.id)).map((f) => f.amount_cents)).toEqual([-349, -396]);
  });

  it('a card costs 3.99 % + R$ 0.39, and 0.50 % more per installment beyond the first: 900.00 in 3 costs 45.30, booked once with its first record', async () => {
    const school = await givenSchool(t, 'Faculdade Cartão', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [
      { id: 'CARD-3', valor: '900.00', due: '2026-05-10' },
      { id: 'CARD-1', due: '2026-05-10' },
    ]);
    await payByCard(t, school, 'CARD-3', '2026-05-08', 3);
    await payByCard(t, school, 'CARD-1', '2026-05-08', 1);
    t.clock.set('2026-07-08T15:00:00Z');
    await statement(t, school); // its later card installments booked: no fee comes with them
    expect((await feesOf(school.id)).map((f) => [f.amount_cents, f.moved_on])).toEqual([
      [-4530, '2026-05-08'],
      [-4029, '2026-05-08'],
    ]);
  });

  it('a refund costs nothing: no fee entry comes with it', async () => {
    const school = await givenSchool(t, 'Faculdade Estorno', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'REF', due: '2026-05-10' }]);
    await payByInvoice(t, school, 'REF', '2026-05-08', 'PIX');
    t.clock.set('2026-05-20T15:00:00Z');
    await refund(t, (await paidCharges(t, school, 'REF'))[0]!);
    expect((await feesOf(school.id)).map((f) => f.record_id)).toEqual([expect.stringMatching(/^fee:[0-9a-f-]{36}$/)]);
  });

  it('a chargeback costs R$ 15.00, booked for the partner of the sale, dated the day it was recorded, with the dispute the charge now names', async () => {
    const partner = await givenPartner(t.ctx, 'Escola Contestada');
    t.clock.set('2026-03-04T12:00:00Z');
    const saleId = await givenCardSale(t, partner.headers, 2, 'CHARGEBACK');
    t.clock.set('2026-03-20T12:00:00Z');
    await sandbox(t, `/sandbox/sales/${saleId}/chargeback`);
    const [charge] = await t.ctx.db.execute<{ id: string; dispute_ref: string; disputed_amount_cents: number }>(
      sql`select id::text, dispute_ref, disputed_amount_cents::int from payment_charges where sale_id = ${saleId}`,
    );
    expect(charge).toMatchObject({ dispute_ref: `sandbox-dispute-${charge!.id}`, disputed_amount_cents: 359000 });
    expect((await feesOf(partner.id)).map((f) => [f.record_id, f.amount_cents, f.moved_on, f.dispute_ref])).toEqual([
      [`fee:${charge!.id}`, -(16119 + 39), '2026-03-04', null], // 4.49 % of 3590.00, plus 0.39
      [`fee:dispute:sandbox-dispute-${charge!.id}`, -1500, '2026-03-20', `sandbox-dispute-${charge!.id}`],
    ]);
  });

  it('a fee told twice is booked once, and one of 0 not at all', async () => {
    const school = await givenSchool(t, 'Faculdade Duas Vezes', { commission: '10' });
    await givenInstallments(t, school, '2026-05-02', [{ id: 'TWICE', due: '2026-05-10' }]);
    await payByInvoice(t, school, 'TWICE', '2026-05-08', 'PIX');
    const charge = (await t.ctx.payments.getCharge(t.ctx.db, (await paidCharges(t, school, 'TWICE'))[0]!))!;
    const fee = { feeCents: 990, movedOn: '2026-05-08', source: `sandbox:${charge.id}` };
    await providerBooks.fee(t.ctx.db, charge, fee);
    await providerBooks.fee(t.ctx.db, charge, {
      ...fee,
      refundId: '00000000-0000-4000-8000-000000000000',
      feeCents: 0,
    });
    expect(await feesOf(school.id)).toHaveLength(1);
  });

  it('refuses a fee of a charge that pays nothing known: no tenant, no entry', async () => {
    const stray = {
      id: '00000000-0000-4000-8000-000000000001',
      reference: { kind: 'installment', id: '00000000-0000-4000-8000-000000000002' },
    };
    await expect(
      providerBooks.fee(t.ctx.db, stray, { feeCents: 100, movedOn: '2026-05-08', source: 'sandbox:stray' }),
    ).rejects.toThrow('which has no tenant');
    await expect(
      providerBooks.fee(
        t.ctx.db,
        { ...stray, reference: { kind: 'sale', id: 'not-a-sale' } },
        {
          feeCents: 100,
          movedOn: '2026-05-08',
          source: 'sandbox:stray',
        },
      ),
    ).rejects.toThrow('which has no tenant');
  });

  it.each([
    ['PIX', 5000, 1, 50], // 49.5 cents, half up
    ['PIX', 4999, 1, 49],
    ['BOLETO', 1, 1, 349],
    ['CARD', 5000, 1, 239], // 199.5 cents half up, plus 39
    ['CARD', 100000, 12, 9529], // 9.49 % + 0.39
  ] as const)('the table rounds half up to the cent: %s of %i cents in %i costs %i', (method, cents, n, fee) => {
    expect(paymentFeeCents(method, cents, n)).toBe(fee);
  });
});
