import { Writable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/http/logging.js';
import { mailTransportOf } from '../../src/mail-wiring.js';
import { PRODUCTION_ENV } from '../support/production-env.js';

const refusal = (env: Record<string, string | undefined>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return undefined;
};

/** A logger whose JSON lines land in `lines`. */
function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger('info', destination) };
}

const SMTP = { SMTP_URL: 'smtp://painel:s3gredo@mail.example.com:587', MAIL_FROM: 'Painel <painel@example.com>' };

describe('mail configuration: SMTP_URL and MAIL_FROM', () => {
  it('reads the server and the sender; production requires TLS of an smtp:// server but a loopback relay', () => {
    expect(loadConfig({ ...PRODUCTION_ENV, ...SMTP }).smtp).toEqual({
      url: SMTP.SMTP_URL,
      from: SMTP.MAIL_FROM,
      requireTls: true,
    });
    const relay = { ...PRODUCTION_ENV, ...SMTP, SMTP_URL: 'smtp://127.0.0.1:25' };
    expect(loadConfig(relay).smtp?.requireTls).toBe(false);
    const tls = { ...PRODUCTION_ENV, ...SMTP, SMTP_URL: 'smtps://painel:s3gredo@mail.example.com:465' };
    expect(loadConfig(tls).smtp?.requireTls).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', ...SMTP }).smtp?.requireTls).toBe(false);
    expect(loadConfig({ ...PRODUCTION_ENV }).smtp).toBeUndefined();
    expect(loadConfig({ ...PRODUCTION_ENV, MAIL_FROM: SMTP.MAIL_FROM }).smtp).toBeUndefined();
  });

  it('refuses to start without MAIL_FROM, with a malformed sender, or an SMTP_URL it cannot read, never repeating its password', () => {
    expect(refusal({ ...PRODUCTION_ENV, SMTP_URL: SMTP.SMTP_URL })).toBe(
      'MAIL_FROM is required when SMTP_URL is set: the sender of the mail, like painel@example.com or "Painel <painel@example.com>"',
    );
    for (const MAIL_FROM of ['painel', 'Painel <painel>', 'a@b.c\nBcc: x@y.z', '<a@b.c> x'])
      expect(refusal({ ...PRODUCTION_ENV, ...SMTP, MAIL_FROM })).toMatch(/^MAIL_FROM must be an address/);
    for (const SMTP_URL of [
      'mail.example.com',
      'http://painel:s3gredo@mail.example.com',
      'smtp://painel:s3gredo@mail.example.com:587/caminho',
      'smtp://painel:s3gredo@:587',
    ]) {
      const message = refusal({ ...PRODUCTION_ENV, ...SMTP, SMTP_URL });
      expect(message).toBe('SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465');
    }
    // Nodemailer would take `debug` and `logger` from the query and log every body.
    expect(refusal({ ...PRODUCTION_ENV, ...SMTP, SMTP_URL: `${SMTP.SMTP_URL}?debug=true&logger=true` })).toBe(
      'SMTP_URL takes no query options: smtp://user:password@host:587 or smtps://user:password@host:465',
    );
  });
});

describe('the mail transport of a process', () => {
  it('in production without SMTP_URL there is none, and the process says so once', () => {
    const { lines, logger } = capturedLogger();
    expect(mailTransportOf(loadConfig({ ...PRODUCTION_ENV }), logger)).toBeUndefined();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'mail is off (SMTP_URL unset): invitations and password links are shown in the panel only; set SMTP_URL and MAIL_FROM to send them',
      }),
    ]);
  });

  it('SMTP whenever SMTP_URL is set; the log in development and tests only, which never reaches production', async () => {
    const { lines, logger } = capturedLogger();
    expect(mailTransportOf(loadConfig({ ...PRODUCTION_ENV, ...SMTP }), logger)).toBeDefined();
    expect(lines).toEqual([]);
    const development = mailTransportOf(loadConfig({ NODE_ENV: 'development' }), logger);
    await development!.send({ to: 'a@b.example', subject: 'Assunto', text: 'link', html: '<p>link</p>' });
    expect(lines).toEqual([expect.objectContaining({ mail: { to: 'a@b.example', subject: 'Assunto', text: 'link' } })]);
  });
});
