import { type Response, Router } from 'express';

import { type StartedSession, switchSession } from '../../identity/sessions.js';
import { membershipsOf } from '../../identity/sign-in.js';
import { readFields } from '../../pages/form-values.js';
import { clearCookie } from '../cookies.js';
import { sendPage } from '../layout.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { personOf, requirePerson, setSessionCookie } from '../session.js';
import { chooserView } from './pages.js';

const NOTICES = { 'convite-aceito': 'Convite aceito: você já está na nova conta.' };

/**
 * `/painel/contas`: a person who belongs to several tenants chooses the one to act for, after
 * sign-in and later from the header. Each choice ends the session and starts a new one acting for
 * that membership (ending when the first would have); a membership that is not the person's own
 * active one is a 404 page and changes nothing.
 */
export function accountChooserPages(panel: PanelContext): Router {
  const router = Router();
  const { db, clock } = panel.app;
  router.use('/contas', requirePerson());

  router.get('/contas', async (req, res) => {
    const person = personOf(req);
    const memberships = await membershipsOf(db, person.personId);
    sendPage(
      req,
      res,
      200,
      chooserView(req, res, panel, {
        email: person.email,
        memberships,
        currentId: person.user?.id,
        notice: noticeOf(NOTICES, req.query.aviso),
      }),
    );
  });

  router.post('/contas/entrar', async (req, res) => {
    const person = personOf(req);
    const { conta } = readFields(req, ['conta']);
    const started = await switchSession(db, { sessionId: person.id, personId: person.personId }, conta, clock.now());
    enter(res, started, panel);
  });
  return router;
}

/** Sets the new session's cookie and opens its home; a session ended meanwhile goes back to sign-in. */
export function enter(res: Response, started: StartedSession | undefined, panel: PanelContext, path = '/painel') {
  if (!started) {
    clearCookie(res, panel.cookies.session, panel.cookies);
    return res.redirect(303, '/painel/entrar');
  }
  setSessionCookie(res, started, panel.cookies);
  res.redirect(303, path);
}
