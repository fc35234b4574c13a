import { sql } from 'drizzle-orm';
import request from 'supertest';

import { issueKey } from '../../src/tenants/credentials.js';
import { createPartner } from '../../src/tenants/tenants.js';
import type { TestContext } from './context.js';

/**
 * The credentials of the tenant a sandbox path is about, as its operator calls it: a key issued
 * for the partner of the sale (`/sandbox/sales/{id}`, `/sandbox/receipts/{id}`) or for the owner of
 * the charge (`/sandbox/charges/{id}`: the sale's partner or the installment's institution), or
 * for the partner a body names (`partnerId` of the commissions); for an id that names nothing, a
 * partner of its own.
 */
export async function ownerHeaders(t: TestContext, path: string, body?: object): Promise<Record<string, string>> {
  const named = (body as { partnerId?: unknown } | undefined)?.partnerId;
  if (typeof named === 'string')
    return { 'Api-Token': (await issueKey(t.ctx.db, { kind: 'partner', id: named })).secret };
  const sale = /^\/sandbox\/(?:sales|receipts)\/(\d{1,9})\//.exec(path)?.[1];
  const charge = /^\/sandbox\/charges\/([0-9a-f-]{36})/.exec(path)?.[1];
  const [owner] = sale
    ? await t.ctx.db.execute<{ kind: 'partner'; id: string }>(
        sql`select 'partner' as kind, partner_id::text as id from sales where id = ${Number(sale)}`,
      )
    : charge
      ? await t.ctx.db.execute<{ kind: 'partner' | 'institution'; id: string }>(sql`
          select case when c.sale_id is null then 'institution' else 'partner' end as kind,
                 coalesce(s.partner_id, i.institution_id)::text as id
          from payment_charges c left join sales s on s.id = c.sale_id left join installments i on i.id = c.reference_id
          where c.id = ${charge}::uuid`)
      : [];
  // Nothing of that id: any partner may ask, and finds nothing.
  if (!owner) return { 'Api-Token': (await createPartner(t.ctx.db, 'Operador do sandbox')).apiToken };
  const { secret } = await issueKey(t.ctx.db, owner);
  return owner.kind === 'partner' ? { 'Api-Token': secret } : { apikey: secret };
}

/** A POST (or PUT) to the sandbox's operator API with the owner's credentials. */
export async function asOwner(t: TestContext, method: 'post' | 'put' | 'get', path: string, body?: object) {
  const headers = await ownerHeaders(t, path, body);
  const pending = request(t.app)[method](path).set(headers);
  return body === undefined ? pending : pending.send(body);
}
