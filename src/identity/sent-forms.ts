import { eq, lt, lte, sql } from 'drizzle-orm';

import type { Queryable, Transaction } from '../db/client.js';
import { sentForms } from '../db/schema/index.js';
import { FORM_ID_LIFETIME_MS } from './form-ids.js';

/**
 * The one-time forms already sent, by the hash of their id (`form-ids.ts`): what each one made, so
 * that the same form sent again answers it instead of making it twice.
 */

export interface SentForm {
  userId: string;
  kind: string;
  result: unknown;
  sealedSecret: string | null;
  secretUntil: Date | null;
}

/**
 * Takes the form's id for the rest of the transaction and reads what it made, if it was sent before.
 * A second submission of the same form waits here until the first one's transaction ends, then
 * finds its row (or, if the first was refused and rolled back, makes the thing itself).
 */
export async function takeSentForm(tx: Transaction, formHash: string): Promise<SentForm | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sent-form:${formHash}`}, 0))`);
  const [row] = await tx
    .select({
      userId: sentForms.userId,
      kind: sentForms.kind,
      result: sentForms.result,
      sealedSecret: sentForms.sealedSecret,
      secretUntil: sentForms.secretUntil,
    })
    .from(sentForms)
    .where(eq(sentForms.formHash, formHash));
  return row;
}

/** Records what a form made, in the transaction that made it. */
export async function recordSentForm(
  tx: Transaction,
  form: SentForm & { formHash: string; issuedAt: Date },
): Promise<void> {
  await tx.insert(sentForms).values(form);
}

/**
 * Forgets the sealed secrets past their time and the forms whose id has expired (refused anyway
 * before their row is read). Run every few minutes, so that a secret is kept no longer than its
 * window and a few minutes more, whether or not anyone sends a form.
 */
export async function sweepSentForms(db: Queryable, now: Date): Promise<{ secrets: number; forms: number }> {
  const secrets = await db
    .update(sentForms)
    .set({ sealedSecret: null, secretUntil: null })
    .where(lte(sentForms.secretUntil, now))
    .returning({ formHash: sentForms.formHash });
  const forms = await db
    .delete(sentForms)
    .where(lt(sentForms.issuedAt, new Date(now.getTime() - FORM_ID_LIFETIME_MS)))
    .returning({ formHash: sentForms.formHash });
  return { secrets: secrets.length, forms: forms.length };
}
