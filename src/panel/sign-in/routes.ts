import { type Request, Router } from 'express';

import { checkFormId, formHashOf } from '../../identity/form-ids.js';
import { isEmail, normaliseEmail } from '../../identity/identity.rules.js';
import { deviceKeyOf, knownDevice, newDeviceToken } from '../../identity/known-devices.js';
import { findOpenLink, type LinkPurpose } from '../../identity/links.js';
import { acceptInvitation } from '../../identity/memberships.js';
import { requestPasswordReset } from '../../identity/password-links.js';
import { endSession, startSession, sweepSessions } from '../../identity/sessions.js';
import { setPasswordWithLink, signIn } from '../../identity/sign-in.js';
import { sweepThrottle } from '../../identity/throttle.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { readFields } from '../../pages/form-values.js';
import { acceptView } from '../accounts/pages.js';
import { enter } from '../accounts/routes.js';
import { clearCookie, readCookie } from '../cookies.js';
import { FormIdRefused } from '../errors.js';
import { errorsOf } from '../forms.js';
import { sendPage } from '../layout.js';
import { FORM_ID_FIELD } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { CHOOSER_PATH, personOf, requirePerson, setSessionCookie } from '../session.js';
import { FORGOT_FORM, forgotView, linkClosedView, setPasswordView, signInView } from './pages.js';

const NOTICES = {
  saiu: 'Você saiu do painel.',
  'senha-definida': 'Senha definida. Entre com o seu e-mail e a nova senha.',
  'sessoes-encerradas': 'Todas as suas sessões foram encerradas. Entre de novo.',
  'usuario-removido': 'Seu acesso foi removido.',
  tentativas:
    'Muitas tentativas com a senha atual errada: a sessão foi encerrada. Entre de novo daqui a alguns minutos.',
};

/** A page of the panel to go back to after sign-in: a plain path under `/painel`, nothing else. */
const backPath = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\/painel(\/[A-Za-z0-9_-]+)*\/?$/.test(value) ? value : undefined;

/** Expired sessions and stale counters are swept at most every ten minutes per process, on a sign-in. */
const SWEEP_EVERY_MS = 10 * 60_000;

/** A browser stays known to the e-mail it signed in with for a year. */
const DEVICE_COOKIE_MS = 365 * 24 * 60 * 60_000;

/** Sign-in and sign-out, the invitation and password-reset links, and "forgot my password". */
export function signInPages(panel: PanelContext): Router {
  const router = Router();
  const { db, clock, config } = panel.app;
  const deviceKey = deviceKeyOf(config.secretsKey);
  let sweptAt = 0;

  router.get('/entrar', (req, res) => {
    if (req.panelPerson)
      return res.redirect(303, backPath(req.query.voltar) ?? (req.panelSession ? '/painel' : CHOOSER_PATH));
    sendPage(
      req,
      res,
      200,
      signInView(req, res, panel, { back: backPath(req.query.voltar), notice: noticeOf(NOTICES, req.query.aviso) }),
    );
  });

  router.post('/entrar', async (req, res) => {
    const form = readFields(req, ['email', 'password', 'voltar']);
    const back = backPath(form.voltar);
    const again = (status: number, errors: FieldErrors) =>
      sendPage(req, res, status, signInView(req, res, panel, { email: form.email, back, errors }));
    const errors: FieldErrors = {};
    if (!isEmail(normaliseEmail(form.email))) errors.email = 'Informe o e-mail com que você foi convidado.';
    if (!form.password) errors.password = 'Informe a sua senha.';
    if (Object.keys(errors).length) return again(400, errors);

    const now = clock.now();
    const email = normaliseEmail(form.email);
    const deviceCookie = readCookie(req, panel.cookies.device);
    const device = knownDevice(deviceKey, email, deviceCookie);
    const outcome = await signIn(db, {
      email,
      password: form.password,
      ip: clientIp(req),
      now,
      device,
      mail: panel.mail,
    });
    if (outcome.kind === 'locked') {
      const minutes = Math.max(1, Math.ceil((outcome.until.getTime() - now.getTime()) / 60_000));
      res.set('Retry-After', String(minutes * 60));
      return again(429, {
        form: `Muitas tentativas sem sucesso. Tente de novo em ${minutes} minuto${minutes > 1 ? 's' : ''}.`,
      });
    }
    if (outcome.kind === 'refused') return again(401, { form: 'E-mail ou senha incorretos.' });

    // A new session at every sign-in: whatever session this browser had before ends here.
    if (req.panelPerson) await endSession(db, req.panelPerson.id);
    // One membership is entered at once; with several (or only invitations to accept), the person chooses.
    const started = await startSession(db, outcome.user, outcome.verifiedHash, now);
    // Removed, or its password changed, while the password was being checked.
    if (!started) return again(401, { form: 'E-mail ou senha incorretos.' });
    setSessionCookie(res, started, panel.cookies);
    // This browser gets through the locks others can aim at the e-mail from now on.
    if (!device)
      res.cookie(panel.cookies.device, newDeviceToken(deviceKey, email), {
        ...panel.cookies.options,
        maxAge: DEVICE_COOKIE_MS,
      });
    clearCookie(res, panel.cookies.formToken, panel.cookies);
    if (now.getTime() - sweptAt > SWEEP_EVERY_MS) {
      sweptAt = now.getTime();
      await sweepSessions(db, now);
      await sweepThrottle(db, now);
    }
    res.redirect(303, back ?? (outcome.user.id ? '/painel' : CHOOSER_PATH));
  });

  router.post('/sair', async (req, res) => {
    if (req.panelPerson) await endSession(db, req.panelPerson.id);
    clearCookie(res, panel.cookies.session, panel.cookies);
    res.redirect(303, '/painel/entrar?aviso=saiu');
  });

  for (const [path, purpose] of [
    ['/convite/:token', 'invitation'],
    ['/senha/:token', 'password_reset'],
  ] as const)
    passwordLinkRoutes(router, panel, path, purpose);

  router.get('/esqueci-senha', (req, res) => sendPage(req, res, 200, forgotView(req, res, panel, {})));
  router.post('/esqueci-senha', async (req, res) => {
    const { email } = readFields(req, ['email']);
    if (!panel.mail) return sendPage(req, res, 200, forgotView(req, res, panel, {}));
    if (!isEmail(normaliseEmail(email)))
      return sendPage(
        req,
        res,
        400,
        forgotView(req, res, panel, { email, errors: { email: 'Informe um e-mail válido, como nome@exemplo.com.' } }),
      );
    await requestPasswordReset(db, panel.mail, { email, now: clock.now(), form: forgotFormHash(req, panel) });
    sendPage(req, res, 200, forgotView(req, res, panel, { sent: true }));
  });
  return router;
}

/**
 * The hash of the one-time id of the "forgot my password" form sent, so that the same form sent
 * twice (a double click) mails one link; a form without one (an older page) is still answered, the
 * hourly limit per e-mail holding; an id that is not ours, or too old, is refused.
 */
function forgotFormHash(req: Request, panel: PanelContext): string | undefined {
  const { [FORM_ID_FIELD]: formId } = readFields(req, [FORM_ID_FIELD]);
  if (formId === '') return undefined;
  const { config, clock } = panel.app;
  const checked = checkFormId([config.secretsKey, ...config.previousSecretsKeys], formId, FORGOT_FORM, clock.now());
  if (!checked.ok) throw new FormIdRefused(checked.reason);
  return formHashOf(formId);
}

/** The client address the throttle counts: `req.ip`, which reads X-Forwarded-For only from trusted proxies. */
const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

function passwordLinkRoutes(router: Router, panel: PanelContext, path: string, purpose: LinkPurpose) {
  const { db, clock } = panel.app;
  const invitation = purpose === 'invitation';
  const tokenOf = (req: Request) => String(req.params.token);

  router.get(path, async (req, res) => {
    const link = await findOpenLink(db, tokenOf(req), purpose, clock.now());
    if (!link) return sendPage(req, res, 404, linkClosedView(invitation));
    if (invitation && link.hasPassword) {
      const signedIn = !req.panelPerson ? 'none' : req.panelPerson.personId === link.personId ? 'this' : 'other';
      const action = req.originalUrl.split('?')[0]!;
      return sendPage(req, res, 200, acceptView(req, res, panel, { action, ...link, signedIn }));
    }
    sendPage(
      req,
      res,
      200,
      setPasswordView(req, res, panel, {
        action: req.originalUrl.split('?')[0]!,
        email: link.email,
        tenantName: link.tenantName,
        invitation,
      }),
    );
  });

  if (invitation)
    router.post(`${path}/aceitar`, requirePerson(), async (req, res) => {
      const person = personOf(req);
      const input = { token: tokenOf(req), sessionId: person.id, personId: person.personId, now: clock.now() };
      const started = await acceptInvitation(db, input);
      if (!started) return sendPage(req, res, 404, linkClosedView(true));
      enter(res, started, panel, `${CHOOSER_PATH}?aviso=convite-aceito`);
    });

  router.post(path, async (req, res) => {
    const form = readFields(req, ['password', 'confirmation']);
    const input = { token: tokenOf(req), purpose, ...form, now: clock.now() };
    try {
      const done = await setPasswordWithLink(db, { ...input, mail: panel.mail });
      if (!done) return sendPage(req, res, 404, linkClosedView(invitation));
      res.redirect(303, '/painel/entrar?aviso=senha-definida');
    } catch (error) {
      const errors = errorsOf(error);
      if (!errors) throw error;
      const link = await findOpenLink(db, input.token, purpose, input.now);
      if (!link) return sendPage(req, res, 404, linkClosedView(invitation));
      sendPage(
        req,
        res,
        400,
        setPasswordView(req, res, panel, {
          action: req.originalUrl.split('?')[0]!,
          email: link.email,
          tenantName: link.tenantName,
          invitation,
          errors,
        }),
      );
    }
  });
}
