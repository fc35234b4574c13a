import { desc, eq } from 'drizzle-orm';
import request from 'supertest';

import { paymentCharges } from '../../src/db/schema/index.js';
import { givenContract } from './contracts.js';
import { CPF, installment, listAll, submitAndProcess } from './installments.js';
import { givenStudentWithGuarantor, paymentPath, submitForm } from './payments.js';
import { expectDelivered, type StripeTestContext } from './stripe.js';
import { givenInstitution } from './tenants.js';

/**
 * A `Gestão` institution (10 %) whose installments, due 2026-12-10, are paid through Stripe on their
 * payment page: each payment's event delivered as Stripe signs it.
 */
export async function givenStripeSchool(s: StripeTestContext, name: string, items: { id: string; valor: string }[]) {
  const { t } = s;
  const school = await givenInstitution(t.ctx, name);
  await givenContract(t.ctx, school.id, { product: 'Gestão', commission: '10' });
  await givenStudentWithGuarantor(t, school.headers);
  await submitAndProcess(
    t,
    school.headers,
    items.map((i) => installment({ idParcela: i.id, valorBoleto: i.valor, dataVencimento: '2026-12-10T00:00:00' })),
  );
  const open = (id: string) => paymentPath(t, school.headers, id, CPF.carlos);
  /** The installment's latest charge. */
  async function chargeOf(id: string) {
    const [original] = await listAll(t, school.headers, { id_externo: id });
    const [charge] = await t.ctx.db
      .select()
      .from(paymentCharges)
      .where(eq(paymentCharges.referenceId, original!.id))
      .orderBy(desc(paymentCharges.createdAt))
      .limit(1);
    return charge!;
  }
  return {
    ...school,
    chargeOf,
    /** The payer asks for a Pix of the installment: its charge, pending. */
    async openPix(id: string) {
      await submitForm(t, `${await open(id)}/pix`);
      return chargeOf(id);
    },
    /** The payer pays the installment by Pix; Stripe's event of it is delivered. */
    async payPix(id: string) {
      await submitForm(t, `${await open(id)}/pix`);
      const charge = await chargeOf(id);
      await expectDelivered(s, s.stripe.succeed(charge.providerRef!), 'applied');
      return chargeOf(id);
    },
    /** The payer pays the installment by card in `installments` in Stripe's fields; Stripe's event of it is delivered. */
    async payCard(id: string, installments: number) {
      await request(t.app)
        .post(`${await open(id)}/card`)
        .type('form')
        .send({})
        .expect(303);
      const charge = await chargeOf(id);
      const card = { brand: 'visa', last4: '4242', ...(installments > 1 ? { installments } : {}) };
      await expectDelivered(s, s.stripe.succeed(charge.providerRef!, card), 'applied');
      return chargeOf(id);
    },
  };
}
