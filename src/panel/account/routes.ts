import { Router } from 'express';

import { endPersonLinks } from '../../identity/links.js';
import { endPersonSessions } from '../../identity/sessions.js';
import { changePassword, SessionEndedByGuesses } from '../../identity/sign-in.js';
import { type FieldErrors, formErrors, panelField } from '../../pages/form-fields.js';
import { readFields } from '../../pages/form-values.js';
import { html } from '../../pages/html.js';
import { clearCookie } from '../cookies.js';
import { errorsOf, panelForm } from '../forms.js';
import { type Notice, sendPage } from '../layout.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { requireSignedIn, sessionOf } from '../session.js';

const LABELS = { current: 'Senha atual', password: 'Nova senha', confirmation: 'Repita a nova senha' };
const NOTICES = { 'senha-alterada': 'Senha alterada. Suas outras sessões foram encerradas.' };

/** `/painel/conta`: the signed-in person's password, and signing out of every browser (every membership). Every profile. */
export function accountPages(panel: PanelContext): Router {
  const router = Router();
  const { db, clock } = panel.app;
  router.use('/conta', requireSignedIn());

  const view = (
    req: Parameters<typeof sessionOf>[0],
    res: Parameters<typeof panelForm>[1],
    errors: FieldErrors,
    notice?: Notice,
  ) => ({
    title: 'Minha conta',
    notice,
    breadcrumb: [{ label: 'Configurações' }],
    body: html`<section class="card" aria-labelledby="trocar-senha">
  <h2 id="trocar-senha">Trocar a senha</h2>
  ${formErrors(errors, LABELS)}
  ${panelForm(req, res, panel.cookies, {
    action: '/painel/conta/senha',
    submit: 'Trocar a senha',
    body: html`<input type="text" name="username" value="${sessionOf(req).user.email}" autocomplete="username" hidden>
    ${panelField({ name: 'current', label: LABELS.current, errors, attrs: html` type="password" autocomplete="current-password" required` })}
    ${panelField({ name: 'password', label: LABELS.password, errors, hintId: 'regras-senha', attrs: html` type="password" autocomplete="new-password" required` })}
    <p class="hint" id="regras-senha">Pelo menos 10 caracteres; não use o seu e-mail nem senhas comuns. As suas outras sessões serão encerradas.</p>
    ${panelField({ name: 'confirmation', label: LABELS.confirmation, errors, attrs: html` type="password" autocomplete="new-password" required` })}`,
  })}
</section>
<section class="card" aria-labelledby="sessoes">
  <h2 id="sessoes">Sessões</h2>
  <p>Saia de todos os navegadores em que você entrou, este incluído (por exemplo, se esqueceu uma sessão aberta em outro computador).</p>
  ${panelForm(req, res, panel.cookies, { action: '/painel/conta/sair-de-todas', submit: 'Sair de todas as sessões', body: html`` })}
</section>`,
  });

  router.get('/conta', (req, res) => sendPage(req, res, 200, view(req, res, {}, noticeOf(NOTICES, req.query.aviso))));

  router.post('/conta/senha', async (req, res) => {
    const session = sessionOf(req);
    const form = readFields(req, ['current', 'password', 'confirmation']);
    try {
      await changePassword(db, {
        personId: session.personId,
        sessionId: session.id,
        ...form,
        now: clock.now(),
        mail: panel.mail,
      });
    } catch (error) {
      if (error instanceof SessionEndedByGuesses) {
        clearCookie(res, panel.cookies.session, panel.cookies);
        return res.redirect(303, '/painel/entrar?aviso=tentativas');
      }
      const errors = errorsOf(error);
      if (!errors) throw error;
      return sendPage(req, res, 400, view(req, res, errors));
    }
    res.redirect(303, '/painel/conta?aviso=senha-alterada');
  });

  router.post('/conta/sair-de-todas', async (req, res) => {
    const { personId } = sessionOf(req);
    // Every way in ends, in every tenant the person belongs to: the sessions, and any password link still open.
    await db.transaction(async (tx) => {
      await endPersonSessions(tx, personId);
      await endPersonLinks(tx, personId);
    });
    clearCookie(res, panel.cookies.session, panel.cookies);
    res.redirect(303, '/painel/entrar?aviso=sessoes-encerradas');
  });
  return router;
}
