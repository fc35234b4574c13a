import { asc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { addDays, localDate } from '../../../src/core/local-date.js';
import { equalShares } from '../../../src/core/shares.js';
import { paymentCharges } from '../../../src/db/schema/index.js';
import { closableFrom, closeMonth, previousMonth } from '../../../src/institution/statements/closing.js';
import { givenContract } from '../../support/contracts.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { paymentPath, submitForm } from '../../support/payments.js';
import { expectDelivered, useStripeContext } from '../../support/stripe.js';
import { givenInstitution } from '../../support/tenants.js';
import { closingShow, statement } from './support.js';

/** One step of a random history of an institution's money. */
type Step =
  | { op: 'pay'; installment: number; card: number; part: number }
  | { op: 'refund'; pick: number; part: number }
  | { op: 'dispute'; pick: number; part: number }
  | { op: 'end-dispute'; pick: number; won: boolean }
  | { op: 'advance'; days: number }
  | { op: 'close' }
  | { op: 'contract'; commission: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('pay' as const),
      installment: fc.nat(3),
      card: fc.constantFrom(0, 0, 1, 3),
      part: fc.constantFrom(1, 1, 0.6),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 35 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('refund' as const), pick: fc.nat(20), part: fc.constantFrom(1, 0.25) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('dispute' as const), pick: fc.nat(20), part: fc.constantFrom(1, 0.1) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('end-dispute' as const), pick: fc.nat(20), won: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ op: 'close' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('contract' as const), commission: fc.constantFrom('5', '10', '12.5') }),
  },
);

/** A charge as the model knows it: what it paid and when, what went back, its dispute. */
interface Paid {
  id: string;
  ref: string;
  cents: number;
  day: string;
  /** Card installments: the acquirer pays one share a month. */
  m: number;
  refunded: number;
  disputed: number;
  disputeOpen: boolean;
  /** A dispute lost: the charge takes no refund any more. */
  lost: boolean;
}

describe('the books hold whatever happens to the money (random histories at Stripe)', () => {
  const s = useStripeContext();
  const { t } = s;

  it('a closed month never changes; a record never changes; each day’s cash entries are the money that moved; a past transfer never changes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 18 }), async (steps) => {
        run += 1;
        // Each history in an hour of its own: card sessions count per address and hour (card-limits.ts).
        t.clock.set(new Date(Date.parse('2026-01-05T10:00:00Z') + run * 2 * 3_600_000));
        const today = () => localDate(t.clock.now());
        const school = await givenInstitution(t.ctx, `Universidade Aleatória ${run}`);
        await givenContract(t.ctx, school.id, { product: 'Gestão', commission: '10', 'transfer-delay-days': '2' });
        const ids = ['A', 'B', 'C', 'D'].map((x) => `${x}${run}`);
        await submitAndProcess(
          t,
          school.headers,
          ids.map((id, i) =>
            installment({ idParcela: id, valorBoleto: `${(i + 1) * 300}.00`, dataVencimento: '2026-12-10T00:00:00' }),
          ),
        );
        const paid: Paid[] = [];
        /** Cash the model expects by day: money in, less money out (fees apart). */
        const cash = new Map<string, number>();
        const move = (day: string, cents: number) => cash.set(day, (cash.get(day) ?? 0) + cents);
        const closed = new Map<string, unknown>();
        /** The day a card in installments was refunded whole. */
        const refundDay = new Map<string, string>();
        const records = new Map<string, unknown>();
        const transfers = new Map<string, number>();

        const chargesOf = async (idParcela: string) => {
          const [original] = await listAll(t, school.headers, { id_externo: idParcela });
          return t.ctx.db
            .select()
            .from(paymentCharges)
            .where(eq(paymentCharges.referenceId, original!.id))
            .orderBy(asc(paymentCharges.createdAt));
        };

        const apply = async (x: Step) => {
          if (x.op === 'advance') t.clock.set(new Date(t.clock.now().getTime() + x.days * 86_400_000));
          if (x.op === 'contract')
            await givenContract(t.ctx, school.id, {
              from: addDays(`${today().slice(0, 7)}-01`, 32).slice(0, 7),
              commission: x.commission,
            });
          if (x.op === 'close') {
            const month = previousMonth(t.clock.now());
            if (closableFrom(month) <= today() && !closed.has(month)) {
              await closeMonth(t.ctx.db, school.id, month, t.clock.now(), { actor: 'cli' });
              closed.set(month, await snapshotOf(month));
            }
          }
          if (x.op === 'pay') {
            const id = ids[x.installment]!;
            const [original] = await listAll(t, school.headers, { id_externo: id });
            if (original!.situacao === 'PAGO') return;
            const path = await paymentPath(t, school.headers, id, CPF.carlos);
            if (x.card > 0) {
              await request(t.app).post(`${path}/card`).type('form').send({}).expect(303);
              const session = (await chargesOf(id)).at(-1)!;
              await expectDelivered(
                s,
                s.stripe.succeed(session.providerRef!, { brand: 'visa', last4: '4242', installments: x.card }),
                'applied',
              );
              paid.push(paidOf(session, x.card));
              return;
            }
            await submitForm(t, `${path}/pix`);
            const pix = (await chargesOf(id)).at(-1)!;
            const cents = x.part === 1 ? pix.amountCents : Math.round(pix.amountCents * x.part);
            await expectDelivered(s, s.stripe.succeed(pix.providerRef!, undefined, cents), 'applied');
            paid.push({ ...paidOf(pix, 1), cents });
          }
          const holding = paid.filter((p) => p.cents - p.refunded - p.disputed > 0 && !p.disputeOpen && !p.lost);
          const target = holding[('pick' in x ? x.pick : 0) % Math.max(1, holding.length)];
          if (x.op === 'refund' && target) {
            const holds = target.cents - target.refunded - target.disputed;
            // A card in installments is refunded whole: the acquirer cancels what it had still to pay.
            const cents = target.m > 1 ? holds : Math.max(1, Math.round(holds * x.part));
            await t.ctx.db.transaction((tx) => t.ctx.payments.reverse(tx, target.id, 'REFUNDED', cents));
            await t.runJobs();
            target.refunded += cents;
            move(today(), -(target.m > 1 ? paidSoFar(target, today()) : cents));
            if (target.m > 1) refundDay.set(target.id, today());
          }
          if (x.op === 'dispute' && target && target.m === 1 && !target.disputeOpen && target.disputed === 0) {
            const cents = Math.min(target.cents - target.refunded, Math.max(1, Math.round(target.cents * x.part)));
            await expectDelivered(s, s.stripe.disputeCharge(target.ref, { amount: cents }), 'applied');
            Object.assign(target, { disputed: cents, disputeOpen: true });
            move(today(), -cents);
          }
          const disputes = paid.filter((p) => p.disputeOpen);
          const open = disputes[('pick' in x ? x.pick : 0) % Math.max(1, disputes.length)];
          if (x.op === 'end-dispute' && open) {
            await expectDelivered(s, s.stripe.moveDispute(open.ref, x.won ? 'won' : 'lost'), 'applied');
            open.disputeOpen = false;
            if (x.won) {
              move(today(), open.disputed);
              open.disputed = 0;
            } else open.lost = true;
          }
        };

        const paidOf = (c: typeof paymentCharges.$inferSelect, m: number): Paid => ({
          id: c.id,
          ref: c.providerRef!,
          cents: c.amountCents,
          day: today(),
          m,
          refunded: 0,
          disputed: 0,
          disputeOpen: false,
          lost: false,
        });
        /** What the acquirer paid of a charge by `day`: equal shares, one a month. */
        const paidSoFar = (p: Paid, day: string) =>
          equalShares(p.cents, p.m)
            .filter((_, n) => addDays(p.day, 30 * n) <= day)
            .reduce((a, b) => a + b, 0);

        const snapshotOf = async (month: string) => ({
          shown: await closingShow(t, school, month.slice(0, 7)),
          entries: await t.ctx.db.execute(
            sql`select * from ledger_entries where tenant_id = ${school.id}::uuid and period = ${month}::date order by id`,
          ),
        });

        const check = async () => {
          // Every record the statement ever listed stays as it was.
          for (const r of await statement(t, school)) {
            const seen = records.get(r.liquidacao_gestao_id);
            if (seen) expect(r).toEqual(seen);
            else records.set(r.liquidacao_gestao_id, r);
          }
          // A closed month never changes.
          for (const [month, snapshot] of closed) expect(await snapshotOf(month)).toEqual(snapshot);
          // Each day's cash entries are the money the model moved that day (card installments on the acquirer's days).
          const expected = new Map(cash);
          for (const p of paid) {
            // A card refunded whole: the acquirer pays nothing after the refund.
            const until = refundDay.get(p.id) ?? today();
            for (const [n, share] of equalShares(p.cents, p.m).entries()) {
              const day = addDays(p.day, 30 * n);
              if (day <= until) expected.set(day, (expected.get(day) ?? 0) + share);
            }
          }
          const booked = await t.ctx.db.execute<{ day: string; cents: string }>(sql`
            select moved_on::text as day, sum(amount_cents)::text as cents from ledger_entries
             where tenant_id = ${school.id}::uuid and kind in ('PAYMENT', 'REFUND', 'DISPUTE', 'REINSTATEMENT')
             group by moved_on order by moved_on`);
          const nonZero = (m: Map<string, number>) =>
            [...m].filter(([, c]) => c !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
          expect(
            nonZero(new Map(booked.map((b) => [b.day, Number(b.cents)]))),
            JSON.stringify({ today: today(), paid }),
          ).toEqual(nonZero(expected));
          // A transfer whose day has passed never changes, and equals the sum of its entries.
          const sums = await t.ctx.db.execute<{ day: string; net: string }>(sql`
            select transfer_on::text as day, sum(net_cents)::text as net from ledger_entries
             where tenant_id = ${school.id}::uuid and transfer_on is not null group by transfer_on`);
          for (const { day, net } of sums)
            if (day < today()) {
              if (transfers.has(day)) expect(Number(net), `the transfer of ${day}`).toBe(transfers.get(day));
              else transfers.set(day, Number(net));
            }
        };

        for (const x of steps) {
          await apply(x);
          await check();
        }
      }),
      { numRuns: 8 },
    );
  }, 600_000);
});
