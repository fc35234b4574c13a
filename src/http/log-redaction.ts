/**
 * What must never reach a log line: payment-link and checkout tokens (whoever holds one can pay
 * or read the installment), the panel's invitation and password links (whoever holds one sets the
 * password), CPFs, CNPJs and the values PostgreSQL quotes back in its messages.
 */

const TOKEN_PATH = /^(\/(?:pay|checkout|painel\/convite|painel\/senha)\/)[^/?#]+/;
/** Stripe adds the PaymentIntent's client secret to the card step's return address. */
const CLIENT_SECRET = /([?&]payment_intent_client_secret=)[^&#]*/g;

/** `/pay/pl_abc/card?x=1` → `/pay/[token]/card?x=1`: the shape of the path stays readable. */
export const redactUrl = (url: string): string =>
  url.replace(TOKEN_PATH, '$1[token]').replace(CLIENT_SECRET, '$1[redacted]');

const PERSONAL = [
  // CPF or CNPJ, bare or punctuated: 11 or 14 digits in a run.
  /\d{3}\.?\d{3}\.?\d{3}-?\d{2}|\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}/g,
  // The value PostgreSQL quotes after a colon (`invalid input syntax for type uuid: "Maria"`).
  /: "[^"]*"/g,
];

/** A message with CPFs, CNPJs and quoted values replaced; a Drizzle query's `params:` are cut. */
export function redactText(text: string): string {
  const withoutParams = text.replace(/\nparams:[\s\S]*$/, '\nparams: [redacted]');
  return PERSONAL.reduce(
    (out, pattern) => out.replace(pattern, (match) => (match.startsWith(': "') ? ': "[redacted]"' : '[redacted]')),
    withoutParams,
  );
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
