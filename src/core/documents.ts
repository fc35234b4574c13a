/** Check digits of Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14). */

const allSame = (digits: string) => /^(\d)\1*$/.test(digits);

function mod11Digit(digits: string, weights: number[]): number {
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(value: string): boolean {
  if (!/^\d{11}$/.test(value) || allSame(value)) return false;
  const first = mod11Digit(value, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(value, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(value[9]) && second === Number(value[10]);
}

export function isValidCnpj(value: string): boolean {
  if (!/^\d{14}$/.test(value) || allSame(value)) return false;
  const first = mod11Digit(value, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(value, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(value[12]) && second === Number(value[13]);
}

/** A CPF or a CNPJ, told apart by length. */
export const isValidCpfOrCnpj = (value: string) => (value.length === 14 ? isValidCnpj(value) : isValidCpf(value));
