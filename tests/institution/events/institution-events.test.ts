import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { deliverDue, type Receiver, startReceiver } from '../../partner/webhooks/support.js';
import { adminCli } from '../../support/admin-cli.js';
import { useTestContext } from '../../support/context.js';
import { CPF, installment, listAll, submitAndProcess } from '../../support/installments.js';
import { chargeIds, paymentPath, submitForm } from '../../support/payments.js';
import { ownerHeaders } from '../../support/sandbox.js';
import { givenInstitution, givenPartner } from '../../support/tenants.js';

type Event = { id: string; evento: string; sequencia: number; dados: Record<string, unknown> } & Record<
  string,
  unknown
>;

describe('institution events: webhooks and the catch-up feed', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;
  let hook: Receiver;
  let secret: string;
  let configurationId: string;

  /** Delivers what is due 20 s from now and answers the events the receiver got, each signature verified. */
  async function delivered(): Promise<Event[]> {
    t.clock.advance(20_000);
    await deliverDue(t);
    return hook.received.map((r) => verified(secret, r.body, r.headers as Record<string, string>));
  }
  /** Verified with the `standardwebhooks` library, as of the service clock (it refuses a timestamp 5 minutes away from now). */
  function verified(key: string, body: string, headers: Record<string, string>): Event {
    vi.useFakeTimers({ toFake: ['Date'], now: t.clock.now() });
    try {
      return new Webhook(key).verify(body, headers) as Event;
    } finally {
      vi.useRealTimers();
    }
  }
  const named = (events: Event[], name: string) => events.filter((e) => e.evento === name);
  const original = async (idParcela: string) => (await listAll(t, inst.headers, { id_externo: idParcela }))[0]!;

  afterAll(() => hook.close());

  beforeAll(async () => {
    t.clock.set('2026-01-20T12:00:00Z');
    inst = await givenInstitution(t.ctx, 'Universidade dos Eventos');
    hook = await startReceiver();
    const created = await request(t.app)
      .post('/v1/webhooks')
      .set(inst.headers)
      .send({ nome: 'ERP', url: hook.url, eventos: ['all'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ assinado: true, ativo: true, eventos: ['all'] });
    secret = created.body.segredoAssinatura;
    configurationId = created.body.id;
    expect(secret).toMatch(/^whsec_/);
  });

  it('a batch processed by the worker is told once (loteProcessado), signed, with its counts and error report; a cancelled installment too', async () => {
    const batchId = await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'pix', valorBoleto: '1000.00', dataVencimento: '2026-02-10T00:00:00' }),
      installment({ idParcela: 'part', valorBoleto: '1000.00', dataVencimento: '2026-02-10T00:00:00' }),
      installment({ idParcela: 'late', valorBoleto: '800.00', dataVencimento: '2026-02-08T00:00:00' }),
      installment({ idParcela: 'bad', valorBoleto: 'mil reais' }),
      installment({ idParcela: 'gone', situacaoBaixa: 'CANCELADA' }),
    ]);
    const events = await delivered();
    const [batch] = named(events, 'loteProcessado');
    expect(named(events, 'loteProcessado')).toHaveLength(1);
    expect(batch).toMatchObject({
      sequencia: 1,
      instituicaoId: inst.id,
      ocorridoEm: '2026-01-20T12:00:00.000Z',
      ocorridoEmBrasilia: '2026-01-20T09:00:00',
      dados: {
        lote_id: batchId,
        tipo: 'parcela',
        status: 'PROCESSADO_COM_ERROS',
        quantidade: 5,
        aceitos: 4,
        erros: 1,
        relatorioErros: `${t.ctx.config.publicBaseUrl}/v1/lotes/${batchId}/erros`,
      },
    });
    const gone = await original('gone');
    expect(named(events, 'parcelaCancelada').map((e) => e.dados)).toEqual([
      expect.objectContaining({ parcela_id: gone.id, id_externo: 'gone', lote_id: batchId }),
    ]);
    const sent = hook.received.find((r) => JSON.parse(r.body).evento === 'loteProcessado')!;
    expect(sent.headers['x-webhook-event-id']).toBe(batch!.id);
  });

  it('a Pix paid through the payment page is told as parcelaPaga with the figures of the management statement', async () => {
    hook.received.length = 0;
    t.clock.set('2026-02-12T15:00:00Z');
    const path = await paymentPath(t, inst.headers, 'pix', CPF.carlos);
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    await submitForm(t, `${path}/charges/${chargeId}/simulate-payment`);
    const [paid] = named(await delivered(), 'parcelaPaga');
    const statement = (await request(t.app).get('/v1/extrato/gestao').set(inst.headers).expect(200)).body.data as {
      pagamento_id?: string;
      valor_recebido_principia: string;
      data_recebimento: string;
      meio_pagamento: string;
      tipo_pagamento: string;
      liquidacao: Record<string, string>;
    }[];
    const record = statement.find((r) => r.pagamento_id === paid!.dados.pagamento_id)!;
    expect(paid!.dados).toMatchObject({
      parcela_id: (await original('pix')).id,
      id_externo: 'pix',
      cobranca_id: chargeId,
      situacao: 'PAGO',
      saldo_devedor: '0.00',
      parcelas_cartao: null,
      meio_pagamento: record.meio_pagamento,
      tipo_pagamento: record.tipo_pagamento,
      data_recebimento: record.data_recebimento,
      valor_recebido_principia: record.valor_recebido_principia,
      valor_recebido_total: record.liquidacao.valor_recebido_total,
      valor_juros: record.liquidacao.valor_juros,
      valor_multa: record.liquidacao.valor_multa,
      valor_desconto: record.liquidacao.valor_desconto,
    });
    // Two days late: a fine of 2% and interest, as the statement says.
    expect(paid!.dados.valor_multa).toBe('20.00');
  });

  it('a partial payment is told as parcelaPagaParcialmente with what is still owed', async () => {
    hook.received.length = 0;
    const path = await paymentPath(t, inst.headers, 'part', CPF.carlos);
    const [chargeId] = chargeIds((await submitForm(t, `${path}/pix`)).text);
    await request(t.app)
      .post(`/sandbox/charges/${chargeId}/pay`)
      .set(await ownerHeaders(t, `/sandbox/charges/${chargeId}/pay`))
      .send({ amountCents: 50_000 })
      .expect(200);
    const [partial] = named(await delivered(), 'parcelaPagaParcialmente');
    expect(partial!.dados).toMatchObject({
      id_externo: 'part',
      situacao: 'PARCIALMENTE_PAGO',
      valor_recebido_total: '500.00',
      saldo_devedor: (await original('part')).saldo_atual.toFixed(2),
    });
  });

  it('the daily pass tells each installment late unpaid once (parcelaVencida), the day after its business due date', async () => {
    hook.received.length = 0;
    t.clock.set('2026-02-13T03:05:00Z'); // 00:05 in Brasília, after 'late' and 'part' became late unpaid
    const pass = () =>
      t.ctx.db.execute(sql`select graphile_worker.add_job('tell-overdue-installments', '{}')`).then(() => t.runJobs());
    await pass();
    await pass();
    const due = named(await delivered(), 'parcelaVencida');
    // 'late' fell due on Sunday 2026-02-08 (late from the 10th) and 'part' on 2026-02-10, paid in part; 'pix' was paid.
    expect(due.map((e) => e.dados.id_externo).sort()).toEqual(['late', 'part']);
    expect(due.find((e) => e.dados.id_externo === 'part')!.dados).toMatchObject({ situacao: 'PARCIALMENTE_PAGO' });
    expect(due.find((e) => e.dados.id_externo === 'late')!.dados).toMatchObject({
      data_vencimento: '2026-02-08',
      valor_principal: '800.00',
      saldo_devedor: '800.00',
      situacao: 'ABERTO',
    });
  });

  it('a closing by the CLI is told (mesFechado) with the totals of the three statements', async () => {
    hook.received.length = 0;
    const cli = adminCli(t);
    const ran = await cli('closing:run', '--month', '2026-02', '--institution', inst.id, '--json');
    expect(ran.code, ran.stderr).toBe(0);
    // The CLI is another process, on the real clock: from here on the service clock is the real one
    // too, read once the event exists (its delivery is due 15 s after it, however slow the CLI was).
    t.clock.set(new Date());
    const shown = JSON.parse(
      (await cli('closing:show', '--institution', inst.id, '--month', '2026-02', '--json')).stdout,
    );
    const [closed] = named(await delivered(), 'mesFechado');
    expect(closed!.dados).toMatchObject({
      mes: '2026-02',
      reabertura: false,
      totais: {
        gestao: shown.gestao,
        cessoes_parcelas: shown.cessoes_parcelas,
        receita_garantida: shown.receita_garantida,
      },
    });
  });

  it('a refund of a paid installment is told as pagamentoEstornado, the installment owing it again', async () => {
    hook.received.length = 0;
    const pix = (await original('pix')).id;
    const [charge] = await t.ctx.db.execute<{ id: string }>(
      sql`select id::text from payment_charges where reference_id = ${pix} and status = 'PAID'`,
    );
    const asked = await adminCli(t)('payment:refund', '--charge', charge!.id, '--json');
    expect(asked.code, asked.stderr).toBe(0);
    await t.runJobs();
    const [reversed] = named(await delivered(), 'pagamentoEstornado');
    expect(reversed!.dados).toMatchObject({
      id_externo: 'pix',
      cobranca_id: charge!.id,
      motivo: 'ESTORNO',
      situacao: 'ABERTO',
      saldo_devedor: '1000.00',
    });
  });

  it('the feed answers every event in sequence order without gaps, paged by desde and limite', async () => {
    const all = (await request(t.app).get('/v1/eventos').set(inst.headers).expect(200)).body;
    const sequences = all.eventos.map((e: Event) => e.sequencia);
    expect(sequences).toEqual(sequences.map((_: number, i: number) => i + 1));
    expect(all.proximoDesde).toBe(sequences.length);
    const page = (await request(t.app).get('/v1/eventos?desde=2&limite=2').set(inst.headers).expect(200)).body;
    expect(page.eventos.map((e: Event) => e.sequencia)).toEqual([3, 4]);
    expect(page.proximoDesde).toBe(4);
    // Each event in the feed is the body its deliveries carried.
    const deliveries = await t.ctx.db.execute<{ body: string; sequence: number }>(
      sql`select body, sequence from webhook_deliveries where institution_id = ${inst.id} and not test order by sequence`,
    );
    expect(deliveries.map((d) => JSON.parse(d.body))).toEqual(all.eventos);
  });

  it('an institution never reads another institution’s events or webhooks, and a partner key never reaches them', async () => {
    const other = await givenInstitution(t.ctx, 'Outra Universidade');
    const partner = await givenPartner(t.ctx);
    expect((await request(t.app).get('/v1/eventos').set(other.headers).expect(200)).body).toEqual({
      eventos: [],
      proximoDesde: 0,
    });
    expect((await request(t.app).get('/v1/webhooks').set(other.headers).expect(200)).body).toEqual({ webhooks: [] });
    const theirs = await request(t.app).get(`/v1/webhooks/${configurationId}`).set(other.headers);
    expect([theirs.status, theirs.body.code]).toEqual([400, 'WEBHOOK-001']);
    const log = await request(t.app).get(`/v1/webhooks/${configurationId}/entregas`).set(other.headers);
    expect([log.status, log.body.code]).toEqual([400, 'WEBHOOK-001']);
    const [delivery] = await t.ctx.db.execute<{ id: string }>(
      sql`select id::text from webhook_deliveries where institution_id = ${inst.id} limit 1`,
    );
    const again = await request(t.app).post(`/v1/webhooks/entregas/${delivery!.id}/reenviar`).set(other.headers);
    expect([again.status, again.body.code]).toEqual([400, 'WEBHOOK-009']);
    const removed = await request(t.app).delete(`/v1/webhooks/${configurationId}`).set(other.headers);
    expect([removed.status, removed.body.code]).toEqual([400, 'WEBHOOK-001']);
    expect((await request(t.app).get('/v1/eventos').set(partner.headers)).status).toBe(401);
    expect((await request(t.app).get('/v1/webhooks').set(partner.headers)).status).toBe(401);
    // A partner's configurations and deliveries never list an institution's.
    expect((await request(t.app).get('/webhooks').set(partner.headers).expect(200)).body.content).toEqual([]);
  });

  it('the delivery log shows each attempt; a finished delivery is sent again on request', async () => {
    const log = await request(t.app)
      .get(`/v1/webhooks/${configurationId}/entregas?evento=loteProcessado`)
      .set(inst.headers)
      .expect(200);
    expect(log.body.content).toHaveLength(1);
    const [first] = log.body.content;
    expect(first).toMatchObject({ evento: 'loteProcessado', status: 'ENTREGUE', teste: false });
    expect(first.tentativas).toEqual([expect.objectContaining({ numero: 1, codigoStatus: 200 })]);
    hook.received.length = 0;
    const again = await request(t.app).post(`/v1/webhooks/entregas/${first.id}/reenviar`).set(inst.headers).expect(202);
    expect(again.body).toMatchObject({ reenvioDe: first.id, status: 'PENDENTE', eventoId: first.eventoId });
    const [repeated] = await delivered();
    expect(repeated).toMatchObject({ evento: 'loteProcessado', sequencia: 1, id: first.eventoId });
  });

  it('a test sends the chosen events with the document’s example, marked, signed; a rotation signs with both secrets', async () => {
    hook.received.length = 0;
    const test = await request(t.app)
      .post(`/v1/webhooks/${configurationId}/teste`)
      .set(inst.headers)
      .send({ eventos: ['parcelaPaga'] })
      .expect(202);
    expect(test.body.eventos).toEqual([{ eventoId: expect.any(String), evento: 'parcelaPaga' }]);
    const [sample] = await delivered();
    expect(sample).toMatchObject({ evento: 'parcelaPaga', sequencia: 0, instituicaoId: inst.id });
    expect(hook.received[0]!.headers['x-webhook-test']).toBe('true');

    const rotated = await request(t.app)
      .post(`/v1/webhooks/${configurationId}/rotacionar-segredo`)
      .set(inst.headers)
      .send({ periodoGracaSegundos: 3600 })
      .expect(200);
    const previous = secret;
    secret = rotated.body.segredoAssinatura;
    expect(secret).not.toBe(previous);
    hook.received.length = 0;
    await request(t.app)
      .post(`/v1/webhooks/${configurationId}/teste`)
      .set(inst.headers)
      .send({ eventos: ['mesFechado'] });
    await delivered();
    const received = hook.received[0]!;
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(previous, received.body, received.headers as Record<string, string>).evento).toBe('mesFechado');
  });

  it('deactivating pauses the deliveries still due; reactivating resumes them', async () => {
    hook.received.length = 0;
    await request(t.app)
      .post(`/v1/webhooks/${configurationId}/teste`)
      .set(inst.headers)
      .send({ eventos: ['parcelaVencida'] });
    await request(t.app).patch(`/v1/webhooks/${configurationId}`).set(inst.headers).send({ ativo: false }).expect(200);
    expect(await delivered()).toEqual([]);
    const paused = await request(t.app)
      .get(`/v1/webhooks/${configurationId}/entregas?status=PAUSADA`)
      .set(inst.headers)
      .expect(200);
    expect(paused.body.content).toHaveLength(1);
    await request(t.app).patch(`/v1/webhooks/${configurationId}`).set(inst.headers).send({ ativo: true }).expect(200);
    expect((await delivered()).map((e) => e.evento)).toEqual(['parcelaVencida']);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const before = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from webhook_configurations`);
    const refused = async (body: unknown, code: string, path?: string) => {
      const res = await request(t.app)
        .post('/v1/webhooks')
        .set(inst.headers)
        .send(body as object);
      expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, code]);
      if (path) expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    };
    await refused({ nome: 'x', url: hook.url, eventos: ['parcelaAtrasada'] }, 'WEBHOOK-008', 'body.eventos[0]');
    await refused({ nome: 'x', url: hook.url, eventos: ['all', 'parcelaPaga'] }, 'WEBHOOK-003', 'body.eventos');
    await refused({ nome: 'x', url: hook.url, eventos: ['mesFechado', 'mesFechado'] }, 'WEBHOOK-003');
    await refused({ nome: 'x', url: 'ftp://erp.example.com/hook', eventos: ['all'] }, 'WEBHOOK-002', 'body.url');
    await refused({ nome: 'x', url: 'not a url', eventos: ['all'] }, 'VALIDATION-001');
    await refused({ nome: 'a\u0000b', url: hook.url, eventos: ['all'] }, 'VALIDATION-001');
    await refused({ nome: 'x', url: hook.url, eventos: ['all'], tokenAutorizacao: 'a\r\nb' }, 'VALIDATION-001');
    await refused({ nome: 'x', url: hook.url, eventos: { all: true } }, 'VALIDATION-001');
    await refused({ nome: '', url: hook.url, eventos: ['all'] }, 'VALIDATION-001');
    const after = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from webhook_configurations`);
    expect(after[0]!.n).toBe(before[0]!.n);

    for (const query of ['desde=-1', 'desde=1e400', 'limite=0', 'limite=1001', 'desde=abc', 'desde[x]=1']) {
      const res = await request(t.app).get(`/v1/eventos?${query}`).set(inst.headers);
      expect([res.status, res.body.code], query).toEqual([400, 'VALIDATION-001']);
    }
    for (const path of ['/v1/webhooks/not-a-uuid', '/v1/webhooks/not-a-uuid/entregas']) {
      const res = await request(t.app).get(path).set(inst.headers);
      expect([res.status, res.body.code], path).toEqual([400, 'VALIDATION-001']);
    }
    const empty = await request(t.app).patch(`/v1/webhooks/${configurationId}`).set(inst.headers).send({});
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION-001']);
    const none = await request(t.app)
      .post(`/v1/webhooks/${configurationId}/teste`)
      .set(inst.headers)
      .send({ eventos: [] });
    expect([none.status, none.body.code]).toEqual([400, 'WEBHOOK-004']);
  });
});
