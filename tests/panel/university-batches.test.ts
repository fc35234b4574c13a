import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { useTestContext } from '../support/context.js';
import { installment, submitAndProcess } from '../support/installments.js';
import { panelRows } from './support.js';
import { givenUniversityStaff } from './university-support.js';

describe("a university's batches (Lotes)", () => {
  const t = useTestContext();
  let staff: Awaited<ReturnType<typeof givenUniversityStaff>>;
  let batchId: string;
  let otherBatchId: string;

  beforeAll(async () => {
    staff = await givenUniversityStaff(t, 'lotes');
    batchId = await submitAndProcess(t, staff.university.headers, [
      installment(),
      installment({ alunoCpf: '123', numeroParcela: '4' }),
      installment({ alunoCpf: '456', numeroParcela: '5', dataVencimento: 'amanhã' }),
    ]);
    otherBatchId = await submitAndProcess(t, staff.other.headers, [installment({ alunoCpf: '789' })]);
  });

  it('lists the batches newest first with kind, status and counts; a batch shows its item errors as the API does', async () => {
    const s = staff.sessions.integracao;
    const list = await s.agent.get('/painel/lotes').expect(200);
    expect(list.text).toContain(`href="/painel/lotes/${batchId}"`);
    expect(list.text).not.toContain(otherBatchId);
    expect(list.text).toContain('Processado com erros');

    const api = await request(t.app).get(`/v1/lotes/${batchId}/erros`).set(staff.university.headers).expect(200);
    const page = await s.agent.get(`/painel/lotes/${batchId}`).expect(200);
    expect(api.body.data.length).toBeGreaterThan(1);
    for (const e of api.body.data) expect(page.text).toContain(`<code>${e.campo}</code>`);
    expect(page.text).toContain(`${api.body.metadata.totalItems} erros`);
  });

  it("shows which key sent each batch by the key's prefix, never another institution's key", async () => {
    const prefixOf = async (institutionId: string) =>
      (
        await t.ctx.sql<{ prefix: string }[]>`
          select prefix from credentials where institution_id = ${institutionId} and revoked_at is null`
      )[0]!.prefix;
    const own = await prefixOf(staff.university.id);
    const other = await prefixOf(staff.other.id);
    const s = staff.sessions.administrador;
    const list = await s.agent.get('/painel/lotes').expect(200);
    expect(list.text).toContain(`<code>${own}…</code>`);
    expect(list.text).not.toContain(other);
    const page = await s.agent.get(`/painel/lotes/${batchId}`).expect(200);
    expect(page.text).toMatch(new RegExp(`Enviado com a chave</dt><dd><code>${own}…</code>`));
  });

  it('filters the errors by field, and downloads them (all, or of the field) as CSV', async () => {
    const s = staff.sessions.administrador;
    const api = await request(t.app).get(`/v1/lotes/${batchId}/erros`).set(staff.university.headers).expect(200);
    const field = api.body.data[0].campo as string;
    const others = (api.body.data as { campo: string }[]).filter((e) => e.campo !== field);
    const filtered = await s.agent.get(`/painel/lotes/${batchId}`).query({ campo: field }).expect(200);
    expect(filtered.text).toContain(`<code>${field}</code>`);
    for (const e of others) expect(filtered.text).not.toContain(`<td><code>${e.campo}</code>`);

    const csv = await s.agent.get(`/painel/lotes/${batchId}/erros.csv`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.text.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('indice;campo;mensagem');
    expect(lines).toHaveLength(api.body.data.length + 1);
    const one = await s.agent.get(`/painel/lotes/${batchId}/erros.csv`).query({ campo: field }).expect(200);
    expect(one.text.trim().split('\r\n')).toHaveLength(api.body.data.length - others.length + 1);
  });

  it("another institution's batch, a malformed id, an unknown field or an altered page answer 4xx and write nothing", async () => {
    const s = staff.sessions.administrador;
    const before = await panelRows(t);
    for (const path of [
      `/painel/lotes/${otherBatchId}`,
      `/painel/lotes/${otherBatchId}/erros.csv`,
      '/painel/lotes/nao-e-um-id',
      "/painel/lotes/'%20or%201=1--",
      `/painel/lotes/${batchId}/erros.csv?campo=inexistente`,
    ])
      expect((await s.agent.get(path)).status, path).toBe(404);
    expect((await s.agent.get(`/painel/lotes/${batchId}?campo=inexistente`)).status).toBe(400);
    expect((await s.agent.get(`/painel/lotes/${batchId}?continuable=abc.def`)).status).toBe(400);
    expect((await s.agent.get('/painel/lotes?continuable=%00')).status).toBe(400);
    expect((await s.agent.get('/painel/lotes?continuable=abc&continuable=def')).status).toBe(400);
    const theirs = await staff.sessions.otherAdmin.agent.get('/painel/lotes').expect(200);
    expect(theirs.text).not.toContain(batchId);
    expect((await staff.sessions.otherAdmin.agent.get(`/painel/lotes/${batchId}`)).status).toBe(404);
    expect((await staff.sessions.financeiro.agent.get(`/painel/lotes/${batchId}`)).status).toBe(403);
    expect((await staff.sessions.partnerAdmin.agent.get(`/painel/lotes/${batchId}/erros.csv`)).status).toBe(403);
    expect(await panelRows(t)).toEqual(before);
  });
});
