import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

import type { SmtpSettings } from '../../src/config.js';

/** One message the test server accepted, its MIME parts decoded. */
export interface ReceivedMail {
  /** The envelope's recipients. */
  rcptTo: string[];
  /** Who signed in to send it (`SMTP_URL`'s user). */
  user: string | undefined;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** How the server answers the next connections or messages: `451` refuses the message, `close` the connection (421). */
export type Refusal = '451' | 'close';

const SENDER = 'Painel Edufin <painel@edufin.example>';

/** The settings `SMTP_URL=smtp://painel:segredo@127.0.0.1:<port>` and `MAIL_FROM` would give (no TLS: a loopback relay). */
export const smtpSettings = (port: number): SmtpSettings => ({
  url: `smtp://painel:segredo-smtp@127.0.0.1:${port}`,
  from: SENDER,
  requireTls: false,
});

/**
 * A real SMTP server in the test process, on a free loopback port, for the blocks that use it:
 * it takes any message from the user `painel` and keeps it in `received`; `refuse` makes it turn
 * the next sends away, as a mail server that is busy or down would.
 */
export function useSmtpServer() {
  const received: ReceivedMail[] = [];
  const refusals: Refusal[] = [];
  const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    // Without a certificate a client would trust: the plain relay of a loopback address.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (refusals[0] === 'close') {
        refusals.shift();
        return callback(refusal(421, 'Service not available, closing channel'));
      }
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === 'painel' && auth.password === 'segredo-smtp')
        return callback(null, { user: auth.username });
      callback(refusal(535, 'Authentication failed'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals[0] === '451') {
          refusals.shift();
          return callback(refusal(451, 'Requested action aborted: try again later'));
        }
        received.push({
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          ...parseMail(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    received,
    get settings() {
      return smtpSettings(port);
    },
    refuse: (...next: Refusal[]) => refusals.push(...next),
    /** Turns no send away any more. */
    accept: () => refusals.splice(0),
    /** The messages received since `from` (a length of `received` read before). */
    since: (from: number) => received.slice(from),
  };
}

/** `=?UTF-8?Q?…?=` and `=?UTF-8?B?…?=` words of a header, the space between two of them dropped (RFC 2047). */
const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, encoding: string, word: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(word, 'base64').toString('utf8')
        : quotedPrintable(word.replaceAll('_', ' ')),
    );

function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\n/g, '');
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function headersAndBody(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\n\n');
  const headers = new Map<string, string>();
  for (const line of raw
    .slice(0, split)
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(split + 2) };
}

const decodeBody = (headers: Map<string, string>, body: string) => {
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'quoted-printable') return quotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  return body;
};

/** The headers and the text and HTML parts of a message as nodemailer writes it (multipart/alternative). */
function parseMail(raw: string): Pick<ReceivedMail, 'from' | 'to' | 'subject' | 'text' | 'html'> {
  const { headers, body } = headersAndBody(raw.replace(/\r\n/g, '\n'));
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => headersAndBody(part.replace(/^\n/, '')))
    : [{ headers, body }];
  const partOf = (type: string) => {
    const part = parts.find((p) => p.headers.get('content-type')?.startsWith(type));
    return part ? decodeBody(part.headers, part.body).replace(/\n$/, '') : '';
  };
  return {
    from: decodeWords(headers.get('from') ?? ''),
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: partOf('text/plain'),
    html: partOf('text/html'),
  };
}
