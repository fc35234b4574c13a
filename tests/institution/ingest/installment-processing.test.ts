import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { contractCommands } from '../../../src/cli/commands/contracts.js';
import { processInstallmentBatch } from '../../../src/institution/ingest/installment-ingest.js';
import { useTestContext } from '../../support/context.js';
import { installment, listAll, submit, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

describe('installment batch processing', () => {
  const t = useTestContext();
  let inst: Awaited<ReturnType<typeof givenInstitution>>;

  beforeAll(async () => {
    inst = await givenInstitution(t.ctx);
  });

  const count = async (query: ReturnType<typeof sql>) => (await t.ctx.db.execute<{ n: number }>(query))[0]!.n;
  const installmentsOf = (batchId: string) =>
    count(sql`select count(*)::int as n from installments where batch_id = ${batchId}::uuid`);
  const batch = async (id: string) => (await request(t.app).get(`/v1/lotes/${id}`).set(inst.headers).expect(200)).body;

  it('processes a batch of 10,000 installments and counts every one', async () => {
    const items = Array.from({ length: 10_000 }, (_, i) =>
      installment({ idParcela: `big-${i}`, numeroParcela: String((i % 12) + 1) }),
    );
    const id = await submitAndProcess(t, inst.headers, items);
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO', quantidade: 10_000, processados: 10_000, erros: 0 });
    const page = await request(t.app).get('/v1/parcela/originais').query({ numero: '7' }).set(inst.headers).expect(200);
    expect(page.body.metadata.totalItems).toBe(String(Math.ceil((10_000 - 6) / 12)));
    expect(await installmentsOf(id)).toBe(10_000);
  });

  it('a job killed half way and run again creates nothing twice', async () => {
    // 6,000 items without idParcela: every one makes its own installment, the hardest case to keep unique.
    const id = await submit(
      t,
      inst.headers,
      Array.from({ length: 6_000 }, (_, i) => installment({ numeroParcela: String(i) })),
    );
    const crash = processInstallmentBatch(t.ctx, id, {
      onChunkWritten: (processed) => {
        if (processed >= 5_000) throw new Error('worker killed');
      },
    });
    await expect(crash).rejects.toThrow('worker killed');
    // The first chunk (2,500 items) committed; the second died with its writes.
    expect(await batch(id)).toMatchObject({ status: 'PROCESSANDO', processados: 2_500, erros: 0, finalizadoEm: null });
    expect(await installmentsOf(id)).toBe(2_500);

    await t.runJobs(); // the queued job runs again from the first unfinished chunk
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO', processados: 6_000 });
    expect(await installmentsOf(id)).toBe(6_000);
    expect(
      await count(sql`select count(distinct number)::int as n from installments where batch_id = ${id}::uuid`),
    ).toBe(6_000);
  });

  it('a batch processed again from the start (progress lost) still creates nothing twice', async () => {
    const id = await submitAndProcess(
      t,
      inst.headers,
      Array.from({ length: 3_000 }, () => installment()),
    );
    await t.ctx.db.execute(
      sql`update batches set processed_count = 0, finished_at = null, status = 'PROCESSANDO' where id = ${id}::uuid`,
    );
    await processInstallmentBatch(t.ctx, id);
    expect(await installmentsOf(id)).toBe(3_000);
    expect(await count(sql`select count(*)::int as n from installment_submissions where batch_id = ${id}::uuid`)).toBe(
      3_000,
    );
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO', processados: 3_000 });
  });

  it('re-sending an idParcela updates that installment; without idParcela every submission is a new one', async () => {
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'upd-1', valorBoleto: '100.00' }),
      installment({ numeroParcela: 'SEM-ID' }),
    ]);
    const [before] = await listAll(t, inst.headers, { id_externo: 'upd-1' });
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'upd-1', valorBoleto: '150.50', nomeCurso: 'Direito' }),
      installment({ numeroParcela: 'SEM-ID' }),
    ]);
    const after = await listAll(t, inst.headers, { id_externo: 'upd-1' });
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before!.id, valor_principal: 150.5, saldo_atual: 150.5, curso: 'Direito' });
    const withoutId = await listAll(t, inst.headers, { numero: 'SEM-ID' });
    expect(withoutId).toHaveLength(2);
    expect(withoutId.every((r) => !('id_externo' in r))).toBe(true);
  });

  it('the same idParcela twice in one batch, in different chunks: the later item wins', async () => {
    const items = Array.from({ length: 3_000 }, (_, i) =>
      installment({ idParcela: i === 100 || i === 2_900 ? 'dup-far' : `far-${i}`, valorBoleto: `${i + 1}.00` }),
    );
    await submitAndProcess(t, inst.headers, items);
    expect((await listAll(t, inst.headers, { id_externo: 'dup-far' })).map((r) => r.valor_principal)).toEqual([2_901]);
  });

  it('values holding tabs, line breaks and backslashes come back exactly as sent', async () => {
    const curso = 'Direito\tNoturno\nTurma A\\B \\N';
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'esc\t1', nomeCurso: curso })]);
    expect(await listAll(t, inst.headers, { id_externo: 'esc\t1' })).toMatchObject([{ id_externo: 'esc\t1', curso }]);
  });

  it('a block stored in an encoding other than Brotli fails the job, which writes nothing', async () => {
    const id = await submit(t, inst.headers, [installment({ idParcela: 'deflate-1' })]);
    await t.ctx.db.execute(sql`update batch_item_blocks set encoding = 'deflate' where batch_id = ${id}::uuid`);
    await expect(processInstallmentBatch(t.ctx, id)).rejects.toThrow(
      /^checking thread: Error: item block encoded as deflate/,
    );
    expect(await installmentsOf(id)).toBe(0);
  });

  it('a block the checking thread cannot read fails the job, which writes nothing and runs again once it can', async () => {
    const id = await submit(t, inst.headers, [installment({ idParcela: 'unreadable-1' })]);
    const [block] = await t.ctx.db.execute<{ data: Buffer }>(
      sql`select data from batch_item_blocks where batch_id = ${id}::uuid`,
    );
    await t.ctx.db.execute(
      sql`update batch_item_blocks set data = ${Buffer.from('not brotli')} where batch_id = ${id}::uuid`,
    );
    await expect(processInstallmentBatch(t.ctx, id)).rejects.toThrow(/^checking thread: /);
    expect(await installmentsOf(id)).toBe(0);
    await t.ctx.db.execute(sql`update batch_item_blocks set data = ${block!.data} where batch_id = ${id}::uuid`);
    await processInstallmentBatch(t.ctx, id);
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO', processados: 1 });
    expect(await installmentsOf(id)).toBe(1);
  });

  it('a later chunk the checking thread cannot read fails the job after the chunks before it, and the rerun resumes there', async () => {
    const items = Array.from({ length: 3_000 }, (_, i) => installment({ idParcela: `later-${i}` }));
    const id = await submit(t, inst.headers, items);
    const [block] = await t.ctx.db.execute<{ data: Buffer }>(
      sql`select data from batch_item_blocks where batch_id = ${id}::uuid and first_index = 2500`,
    );
    await t.ctx.db.execute(
      sql`update batch_item_blocks set data = ${Buffer.from('not brotli')} where batch_id = ${id}::uuid and first_index = 2500`,
    );
    await expect(processInstallmentBatch(t.ctx, id)).rejects.toThrow(/^checking thread: /);
    expect(await batch(id)).toMatchObject({ status: 'PROCESSANDO', processados: 2_500 });
    await t.ctx.db.execute(
      sql`update batch_item_blocks set data = ${block!.data} where batch_id = ${id}::uuid and first_index = 2500`,
    );
    await processInstallmentBatch(t.ctx, id);
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO', processados: 3_000 });
    expect(await installmentsOf(id)).toBe(3_000);
  });

  it('a field of the wrong type or format is an item error naming it; the other items go in', async () => {
    const wrong = {
      ...installment({ idParcela: 'typed-2' }),
      valorBoleto: 1250,
      dataVencimento: '10/03/2026',
      descontosAdimplencia: [{ percentual: '5', dias_desconto: 0 }],
    };
    const id = await submitAndProcess(t, inst.headers, [installment({ idParcela: 'typed-1' }), wrong as never]);
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO_COM_ERROS', processados: 2, erros: 1 });
    const errors = await request(t.app).get(`/v1/lotes/${id}/erros`).set(inst.headers).expect(200);
    expect(errors.body.data).toEqual(
      expect.arrayContaining([
        { indice: 1, campo: 'valorBoleto', mensagem: 'must be string' },
        { indice: 1, campo: 'dataVencimento', mensagem: expect.stringContaining('must match pattern') },
        { indice: 1, campo: 'descontosAdimplencia[0].percentual', mensagem: 'must be number' },
      ]),
    );
    expect(errors.body.data).toHaveLength(3);
    expect((await listAll(t, inst.headers, { id_externo: 'typed-1' })).length).toBe(1);
    expect(await listAll(t, inst.headers, { id_externo: 'typed-2' })).toEqual([]);
    // Still listed as sent, with the values it was sent with.
    const sent = await request(t.app)
      .get('/importacao/enviados/parcelas')
      .query({ lote: id })
      .set(inst.headers)
      .expect(200);
    expect(sent.body.data[1].dadosEnviados).toMatchObject({ idParcela: 'typed-2', valorBoleto: 1250 });
  });

  it('a text holding a NUL character is an item error naming the field, instead of failing the batch in the database', async () => {
    const id = await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'nul-1' }),
      installment({ idParcela: 'nul-2', nomeCurso: 'Direito\u0000Noturno' }),
    ]);
    expect(await batch(id)).toMatchObject({ status: 'PROCESSADO_COM_ERROS', processados: 2, erros: 1 });
    const errors = await request(t.app).get(`/v1/lotes/${id}/erros`).set(inst.headers).expect(200);
    expect(errors.body.data).toEqual([
      { indice: 1, campo: 'nomeCurso', mensagem: 'must not contain the NUL character (\\u0000)' },
    ]);
    expect((await listAll(t, inst.headers, { id_externo: 'nul-1' })).length).toBe(1);
  });

  it('the same idParcela twice in one batch: the later item wins', async () => {
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'dup-1', valorBoleto: '10.00' }),
      installment({ idParcela: 'dup-1', valorBoleto: '20.00' }),
    ]);
    expect((await listAll(t, inst.headers, { id_externo: 'dup-1' })).map((r) => r.valor_principal)).toEqual([20]);
  });

  it('two batches touching the same idParcela apply in submission order, whatever order they run in', async () => {
    const first = await submit(t, inst.headers, [installment({ idParcela: 'ord-1', valorBoleto: '100.00' })]);
    const second = await submit(t, inst.headers, [installment({ idParcela: 'ord-1', valorBoleto: '200.00' })]);
    await processInstallmentBatch(t.ctx, second); // a retried job of the first batch running late
    await processInstallmentBatch(t.ctx, first);
    expect((await listAll(t, inst.headers, { id_externo: 'ord-1' })).map((r) => r.valor_principal)).toEqual([200]);
    await t.runJobs();
  });

  it('situacaoBaixa PAGA settles at the institution with the amounts of pagamento', async () => {
    await submitAndProcess(t, inst.headers, [
      installment({
        idParcela: 'ies-paid',
        valorBoleto: '980.50',
        dataVencimento: '2026-02-05T00:00:00',
        situacaoBaixa: 'PAGA',
        pagamento: {
          valorRecebido: '990.30',
          valorDesconto: '0.00',
          valorEncargos: '9.80',
          data: '2026-02-07T15:32:10',
        },
      }),
    ]);
    const [row] = await listAll(t, inst.headers, { id_externo: 'ies-paid' });
    expect(row).toMatchObject({
      situacao: 'PAGO',
      tipo_pagamento: 'Pago na IES',
      data_pagamento: '2026-02-07',
      saldo_atual: 0,
      dias_atraso: 2,
      valor_liquidado: { multa: '0.00', juros: '9.80', desconto: '0.00', recebido: '990.30' },
    });
  });

  it('situacaoBaixa PAGA without pagamento takes the principal as received on the day the batch arrived', async () => {
    await submitAndProcess(t, inst.headers, [
      installment({ idParcela: 'ies-paid-2', valorBoleto: '500.00', situacaoBaixa: 'paga' }),
    ]);
    const [row] = await listAll(t, inst.headers, { id_externo: 'ies-paid-2' });
    expect(row).toMatchObject({
      situacao: 'PAGO',
      data_pagamento: '2026-01-15',
      valor_liquidado: { multa: '0.00', juros: '0.00', desconto: '0.00', recebido: '500.00' },
    });
  });

  it('situacaoBaixa CANCELADA cancels at the institution; re-sent ABERTA reopens it', async () => {
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'ies-cancel', situacaoBaixa: 'CANCELADA' })]);
    const [cancelled] = await listAll(t, inst.headers, { id_externo: 'ies-cancel' });
    expect(cancelled).toMatchObject({
      situacao: 'CANCELADO_IES',
      tipo_pagamento: 'Cancelado na IES',
      saldo_atual: 0,
      data_pagamento: null,
      dias_atraso: 0,
    });
    await submitAndProcess(t, inst.headers, [installment({ idParcela: 'ies-cancel', situacaoBaixa: 'ABERTA' })]);
    const [reopened] = await listAll(t, inst.headers, { id_externo: 'ies-cancel' });
    expect(reopened).toMatchObject({ situacao: 'ABERTO', tipo_pagamento: null, saldo_atual: 1250 });
  });

  it('produto comes from the institution contract (default Gestão), set by the operator CLI, for installments created afterwards', async () => {
    const other = await givenInstitution(t.ctx, 'Centro Universitário Garantido');
    await submitAndProcess(t, other.headers, [installment({ idParcela: 'before' })]);
    const shown = await contractCommands['institution:contract']!.run(
      t.ctx.db,
      { institution: other.id, product: 'Receita Garantida', commission: '8.5' },
      [],
    );
    expect(shown).toMatchObject({ institution: other.id, product: 'Receita Garantida', commissionPercent: '8.50' });
    await submitAndProcess(t, other.headers, [
      installment({ idParcela: 'after' }),
      installment({ idParcela: 'before' }),
    ]);
    const rows = await listAll(t, other.headers);
    expect(rows.map((r) => [r.id_externo, r.produto])).toEqual([
      ['before', 'Gestão'],
      ['after', 'Receita Garantida'],
    ]);
    expect((await listAll(t, other.headers, { produto: 'Receita Garantida' })).map((r) => r.id_externo)).toEqual([
      'after',
    ]);
  });

  it('the CLI refuses an unknown product or institution', async () => {
    const run = contractCommands['institution:contract']!.run;
    await expect(run(t.ctx.db, { institution: inst.id, product: 'Outro' }, [])).rejects.toThrow(
      '--product must be one of "Gestão", "Receita Garantida", got "Outro"',
    );
    await expect(run(t.ctx.db, { institution: '00000000-0000-4000-8000-000000000000' }, [])).rejects.toThrow(
      'no institution with id',
    );
  });
});
