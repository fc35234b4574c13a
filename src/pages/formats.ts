import { BUSINESS_TIME_ZONE, localDate } from '../core/local-date.js';

/** A CPF shown to a payer without its middle digits exposed in full: `***.982.247-**`. */
export const maskCpf = (cpf: string): string => {
  const d = cpf.replace(/\D/g, '');
  return d.length === 11 ? `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**` : cpf;
};

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** `123456` → `R$ 1.234,56`. */
export const formatBrl = (cents: number): string => brl.format(cents / 100).replace(/\u00a0/g, ' ');

/** `2026-03-10` → `10/03/2026`. */
export const formatDateBr = (date: string): string => date.split('-').reverse().join('/');

const timeFormat = new Intl.DateTimeFormat('pt-BR', {
  timeZone: BUSINESS_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
});

/** An instant as a Brasília time, `14:45`, with its date when it is not the day of `today`: `00:15 de 05/03/2026`. */
export function formatTimeBr(at: Date, today: Date): string {
  const time = timeFormat.format(at);
  const day = localDate(at);
  return day === localDate(today) ? time : `${time} de ${formatDateBr(day)}`;
}

const MONTH_NAMES = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
];

/** `2026-03` (or a day of it, `2026-03-01`) → `março de 2026`. */
export const formatMonthBr = (month: string): string =>
  `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} de ${month.slice(0, 4)}`;
