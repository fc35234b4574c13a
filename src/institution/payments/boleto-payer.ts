import { and, eq } from 'drizzle-orm';

import type { Queryable } from '../../db/client.js';
import { students } from '../../db/schema/index.js';
import { emptyPayerValues, type PayerValues } from '../../payments/payer-form.js';
import type { Installment } from './charge-listener.js';

/** A person as `POST /v1/aluno` records them: the student, or their `responsavelFinanceiro`. */
interface PersonRecord {
  nome?: unknown;
  documento?: unknown;
  email?: unknown;
  cep?: unknown;
  logradouro?: unknown;
  numero?: unknown;
  complemento?: unknown;
  bairro?: unknown;
  cidade?: unknown;
  uf?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim().slice(0, 120) : '');

function fromRecord(record: PersonRecord, name: string): PayerValues {
  return {
    name: text(name),
    email: text(record.email),
    zipCode: text(record.cep),
    street: text(record.logradouro),
    number: text(record.numero),
    complement: text(record.complemento),
    district: text(record.bairro),
    city: text(record.cidade),
    state: text(record.uf),
  };
}

/**
 * What the bank slip form starts with: the guarantor's name, e-mail and address as the institution
 * sent them with the student (the student's own when they pay their own tuition), or nothing.
 */
export async function boletoPayerDefaults(db: Queryable, installment: Installment): Promise<PayerValues> {
  const [student] = await db
    .select({ fullName: students.fullName, data: students.data })
    .from(students)
    .where(and(eq(students.institutionId, installment.institutionId), eq(students.cpf, installment.studentCpf)));
  if (!student) return emptyPayerValues();
  const data = (student.data ?? {}) as PersonRecord & { responsavelFinanceiro?: PersonRecord };
  if (installment.guarantorDocument === installment.studentCpf) return fromRecord(data, student.fullName);
  const guarantor = data.responsavelFinanceiro;
  if (guarantor && text(guarantor.documento).replace(/\D/g, '') === installment.guarantorDocument)
    return fromRecord(guarantor, text(guarantor.nome));
  return emptyPayerValues();
}
