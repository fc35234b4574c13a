/** Realistic installment submissions for the ingestion benchmark: valid CPFs, unique `idParcela`. */

const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Eduarda',
  'Felipe',
  'Gabriela',
  'Henrique',
  'Isabela',
  'João',
  'Larissa',
  'Marcos',
];
const LAST = ['Souza', 'Lima', 'Oliveira', 'Santos', 'Pereira', 'Costa', 'Almeida', 'Ribeiro', 'Carvalho', 'Gomes'];
const COURSES = [
  'Administração',
  'Direito',
  'Enfermagem',
  'Engenharia Civil',
  'Pedagogia',
  'Psicologia',
  'Ciências Contábeis',
];
const TYPES = ['MENSALIDADE', 'Mensalidade', 'MATRICULA', 'Rematricula', 'NEGOCIACAO', 'Taxa_outros'];

function checkDigit(digits: number[]): number {
  const sum = digits.reduce((total, d, i) => total + d * (digits.length + 1 - i), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The n-th valid CPF of a deterministic sequence. */
export function cpf(n: number): string {
  const base = String(100_000_000 + (n % 899_999_999))
    .split('')
    .map(Number);
  const first = checkDigit(base);
  const second = checkDigit([...base, first]);
  return [...base, first, second].join('');
}

/** Item `i` of batch `b`: a monthly fee of a student, with discounts, invoice items and the usual fields. */
export function benchInstallment(b: number, i: number): Record<string, unknown> {
  const n = b * 10_000 + i;
  const student = cpf(n);
  const name = `${FIRST[n % FIRST.length]} ${LAST[(n >> 3) % LAST.length]}`;
  const course = COURSES[n % COURSES.length]!;
  const month = String((n % 12) + 1).padStart(2, '0');
  const value = `${800 + (n % 1700)}.${String(n % 100).padStart(2, '0')}`;
  return {
    alunoCpf: student,
    alunoRa: String(2026_000_000 + n),
    responsavelFinanceiroTipoDocumento: 'CPF',
    responsavelFinanceiroDocumento: n % 3 === 0 ? student : cpf(n + 5_000_000),
    periodoLetivo: '2026-02-01T00:00:00',
    numeroMatricula: String(202_600_000 + n),
    codigoTurma: `T-${n % 40}`,
    nomeTurma: `${course} turma ${n % 40}`,
    codigoCurso: `C-${n % COURSES.length}`,
    nomeCurso: course,
    grauCurso: 'GRADUACAO',
    modalidadeCurso: n % 4 === 0 ? 'EAD' : 'PRESENCIAL',
    idOrganizacao: '10',
    nomeOrganizacao: 'Centro Universitário Paulista',
    idPolo: String(n % 9),
    nomePolo: `Polo ${n % 9}`,
    numeroParcela: String((n % 12) + 1),
    totalParcelas: '12',
    numeroContrato: `CT-2026-${String(n).padStart(7, '0')}`,
    tipoParcela: TYPES[n % TYPES.length],
    valorBoleto: value,
    descontosAdimplencia: [
      { percentual: 10, dias_desconto: 5 },
      { percentual: 5, dias_desconto: 0 },
    ],
    dataVencimento: `2026-${month}-10T00:00:00`,
    situacaoBaixa: n % 50 === 0 ? 'PAGA' : 'ABERTA',
    descricao: `Mensalidade ${month}/2026`,
    idParcela: `P${n}`,
    itensFatura: [
      {
        idExterno: `IF-${n}`,
        alunoCpf: student,
        alunoNome: name,
        nomeCurso: course,
        tipo: 'MENSALIDADE',
        valor: value,
      },
    ],
  };
}
