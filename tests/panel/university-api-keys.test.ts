import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { issueKey } from '../../src/tenants/credentials.js';
import { useTestContext } from '../support/context.js';
import { formIdOn, panelRows, post } from './support.js';
import { givenUniversityStaff } from './university-support.js';

const PATH = '/painel/configuracoes/integracoes/api-token';

describe("a university's API keys (Integrações)", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;

  beforeAll(async () => {
    staff = await givenUniversityStaff(t, 'chaves');
  });

  it('Integração generates an apikey that works at once, sees it listed, and revokes it', async () => {
    const s = staff.sessions.integracao;
    const page = await s.agent.get(PATH).expect(200);
    expect(page.text).toContain('Chaves da Institution API');
    const made = await post(s, `${PATH}/gerar`, { _form: await formIdOn(s, PATH, `${PATH}/gerar`) });
    expect(made.status).toBe(201);
    const secret = /<code id="novo-token"[^>]*>(ik_[^<]+)<\/code>/.exec(made.text)?.[1];
    expect(secret).toBeDefined();
    await request(t.app).get('/v1/parcela/originais').set({ apikey: secret! }).expect(200);

    const list = await s.agent.get(PATH).expect(200);
    const id = new RegExp(`${PATH}/([0-9a-f-]{36})/revogar`).exec(list.text)?.[1];
    expect(list.text).toContain(staff.users.integracao.email);
    const revoked = await post(s, `${PATH}/${id}/revogar`);
    expect(revoked.status).toBe(303);
    expect((await s.agent.get(revoked.headers.location as string)).text).toContain('Chave revogada');
    expect((await request(t.app).get('/v1/parcela/originais').set({ apikey: secret! })).status).toBe(401);
  });

  it("never lists nor revokes another tenant's key; Financeiro and a partner's users are refused", async () => {
    const theirs = await issueKey(t.ctx.db, { kind: 'institution', id: staff.other.id });
    const partners = await issueKey(t.ctx.db, { kind: 'partner', id: staff.partner.id });
    const [other, partner] = await t.ctx.sql<{ id: string }[]>`
      select id::text from credentials where prefix in (${theirs.prefix}, ${partners.prefix}) order by institution_id nulls last`;
    const s = staff.sessions.administrador;
    const list = await s.agent.get(PATH).expect(200);
    expect(list.text).not.toContain(theirs.prefix);
    expect(list.text).not.toContain(partners.prefix);
    const before = await panelRows(t);
    for (const id of [other!.id, partner!.id]) {
      expect((await s.agent.get(`${PATH}/${id}/revogar`)).status).toBe(404);
      expect((await post(s, `${PATH}/${id}/revogar`)).status).toBe(404);
    }
    expect((await staff.sessions.financeiro.agent.get(PATH)).status).toBe(403);
    expect((await post(staff.sessions.financeiro, `${PATH}/gerar`)).status).toBe(403);
    const partnerList = await staff.sessions.partnerAdmin.agent.get(PATH).expect(200);
    expect(partnerList.text).toContain('Tokens da Partner API');
    expect(partnerList.text).not.toContain(theirs.prefix);
    expect(await panelRows(t)).toEqual(before);
  });
});
