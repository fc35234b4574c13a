/**
 * What must never reach a log line: payment-link and checkout tokens (whoever holds one can pay
 * or read the installment), the panel's invitation and password links (whoever holds one sets the
 * password), keys and secrets, CPFs, CNPJs, the personal values of query filters and the values
 * PostgreSQL quotes back in its messages.
 */

/**
 * The segment after `/pay/`, `/checkout/`, `/painel/convite/` or `/painel/senha/`, anywhere in a
 * path or a message: a link token. The router ignores case (`/Checkout/{token}` opens the
 * checkout), and so does this.
 */
const TOKEN_SEGMENT = /(\/(?:pay|checkout|painel\/convite|painel\/senha)\/)[^/?#\s"'<>]+/gi;

/**
 * Query parameters whose value is personal data (LGPD) or a secret, by a part of their name in any
 * case: the filters by CPF, document, e-mail, name or registration, a key sent by mistake
 * (`?Api-Token=`, `?apikey=`), Stripe's client secret, and continuation tokens (they carry filters).
 */
const SENSITIVE_NAME =
  /cpf|cnpj|doc|mail|name|nome(?!_(?:curso|polo|organizacao|turma))|phone|fone|celular|(?:^|_)ra$|creator|token|key|secret|passw|senha|auth|sign|continuable|cursor/i;

export const isSensitiveName = (name: string): boolean => SENSITIVE_NAME.test(name.replace(/[-\s]/g, '_'));

const PERSONAL = [
  // CPF or CNPJ, bare or punctuated: 11 or 14 digits in a run.
  /\d{3}\.?\d{3}\.?\d{3}-?\d{2}|\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}/g,
  // Our secrets by their shape: checkout and payment-link tokens, API keys, signing secrets.
  /\b(?:c|pl|pt|ik)_[A-Za-z0-9_-]{20,}|\bwhsec_[A-Za-z0-9+/=]{16,}/g,
];

const decodedName = (raw: string) => {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
};

/** `a=1&aluno_cpf=123&Api-Token=x` → `a=1&aluno_cpf=[redacted]&Api-Token=[redacted]`. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return isSensitiveName(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
}

/** Tokens, then CPF-like digits and secrets by their shape, in any text. */
const redactShapes = (text: string) =>
  PERSONAL.reduce((out, pattern) => out.replace(pattern, '[redacted]'), text.replace(TOKEN_SEGMENT, '$1[token]'));

/**
 * `/Pay/pl_abc/card?aluno_cpf=1&x=2` → `/Pay/[token]/card?aluno_cpf=[redacted]&x=2`: the shape of
 * the request stays readable, what identifies a person or opens a door does not.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return redactShapes(url);
  return `${redactShapes(url.slice(0, at))}?${redactShapes(redactQuery(url.slice(at + 1)))}`;
}

/** Parsed query or path values, as `redactUrl` leaves them. */
export function redactValues(values: unknown): unknown {
  if (!values || typeof values !== 'object') return values;
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      isSensitiveName(name) ? '[redacted]' : typeof value === 'string' ? redactShapes(value) : value,
    ]),
  );
}

/**
 * A message with link tokens, CPFs, CNPJs, secrets and the values PostgreSQL quotes (`invalid input
 * syntax for type uuid: "Maria"`) replaced; a Drizzle query's `params:` are cut.
 */
export function redactText(text: string): string {
  const withoutParams = text.replace(/\nparams:[\s\S]*$/, '\nparams: [redacted]');
  return redactShapes(withoutParams.replace(/: "[^"]*"/g, ': "[redacted]"'));
}

interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
}

/**
 * An error as a log line may hold it: type, code, message and stack with personal data redacted,
 * and its cause the same way; never its other properties (a query's `params`, PostgreSQL's
 * `detail` such as `Key (cpf)=(...)`, a body). Takes an error or one pino already serialised.
 */
export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (typeof error !== 'object' || error === null) return { type: typeof error, message: redactText(String(error)) };
  const e = error as {
    type?: unknown;
    name?: unknown;
    message?: unknown;
    code?: unknown;
    stack?: unknown;
    cause?: unknown;
  };
  const type =
    error instanceof Error
      ? error.constructor.name
      : typeof e.type === 'string'
        ? e.type
        : typeof e.name === 'string'
          ? e.name
          : 'Object';
  return {
    type,
    message: redactText(typeof e.message === 'string' ? e.message : ''),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.stack === 'string' ? { stack: redactText(e.stack) } : {}),
    ...(e.cause !== undefined && e.cause !== null && depth < 3 ? { cause: errorForLog(e.cause, depth + 1) } : {}),
  };
}
