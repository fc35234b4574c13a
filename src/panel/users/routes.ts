import { type Request, type Response, Router } from 'express';

import { USER_ADMIN_PROFILE } from '../../identity/identity.rules.js';
import { issuePasswordLink } from '../../identity/password-links.js';
import { changeProfile, findUser, inviteUser, listUsers, removeUser } from '../../identity/users.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { readFields } from '../../pages/form-values.js';
import { clearCookie } from '../cookies.js';
import { errorsOf } from '../forms.js';
import { type Notice, sendPage } from '../layout.js';
import { type Made, oncePerForm } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { requireProfile, sessionOf } from '../session.js';
import {
  INVITE_FORM,
  linkGoneView,
  linkShownView,
  passwordLinkForm,
  removeView,
  type ShownLink,
  shownLink,
  usersView,
} from './pages.js';

const NOTICES = {
  'perfil-alterado': 'Perfil alterado.',
  removido: 'Usuário removido.',
};

/**
 * `/painel/usuarios`: a partner's Superadmin or an institution's Administrador lists the tenant's
 * users (the profiles of its kind), invites one (the link is shown once,
 * and mailed where a transport exists), changes a profile, hands out a new password link, removes
 * a user. The last of them can be neither demoted nor removed.
 */
export function userPages(panel: PanelContext): Router {
  const router = Router();
  const { db, clock, config } = panel.app;
  router.use('/usuarios', requireProfile(USER_ADMIN_PROFILE.partner, USER_ADMIN_PROFILE.institution));
  const tenantOf = (req: Request) => sessionOf(req).user.tenant;
  const idOf = (req: Request) => String(req.params.id);

  const list = async (
    req: Request,
    res: Response,
    status: number,
    state: { errors?: FieldErrors; notice?: Notice; invite?: { email: string; profile: string } },
  ) => {
    const tenant = tenantOf(req);
    const users = await listUsers(db, tenant);
    sendPage(
      req,
      res,
      status,
      usersView(req, res, panel, { kind: tenant.kind, users, selfId: sessionOf(req).user.id, ...state }),
    );
  };

  router.get('/usuarios', (req, res) => list(req, res, 200, { notice: noticeOf(NOTICES, req.query.aviso) }));

  /** A link shown once; the same form sent again shows it again within the window, and names it after. */
  const sendLink = (req: Request, res: Response, { result, secret }: Made<ShownLink>) =>
    secret === undefined
      ? sendPage(req, res, 409, linkGoneView(result))
      : sendPage(req, res, 201, linkShownView({ ...result, url: secret, mailed: Boolean(panel.mail) }));

  router.post('/usuarios/convidar', async (req, res) => {
    const form = readFields(req, ['email', 'profile']);
    let made: Made<ShownLink>;
    try {
      made = await oncePerForm(req, panel, INVITE_FORM, async (tx) => {
        const { user, invitation } = await inviteUser(tx, {
          tenant: tenantOf(req),
          email: form.email,
          profile: form.profile,
          invitedBy: sessionOf(req).user.id,
          now: clock.now(),
          baseUrl: config.publicBaseUrl,
          mail: panel.mail,
          shown: true,
        });
        return { result: shownLink(user.email, invitation, true), secret: invitation.url };
      });
    } catch (error) {
      const errors = errorsOf(error);
      if (!errors) throw error;
      return list(req, res, 400, { errors, invite: form });
    }
    sendLink(req, res, made);
  });

  router.post('/usuarios/:id/perfil', async (req, res) => {
    const { profile } = readFields(req, ['profile']);
    try {
      await changeProfile(db, tenantOf(req), idOf(req), profile);
    } catch (error) {
      const errors = errorsOf(error);
      if (!errors) throw error;
      return list(req, res, errorStatus(error), { notice: { text: Object.values(errors)[0]!, error: true } });
    }
    // A Superadmin who just gave up the profile no longer opens this page.
    const selfDemoted = idOf(req) === sessionOf(req).user.id && profile !== USER_ADMIN_PROFILE[tenantOf(req).kind];
    res.redirect(303, selfDemoted ? '/painel' : '/painel/usuarios?aviso=perfil-alterado');
  });

  router.post('/usuarios/:id/link-senha', async (req, res) => {
    const user = await findUser(db, tenantOf(req), idOf(req));
    const made = await oncePerForm(req, panel, passwordLinkForm(user.id), async (tx) => {
      const link = await issuePasswordLink(tx, {
        userId: user.id,
        active: user.active,
        now: clock.now(),
        baseUrl: config.publicBaseUrl,
        mail: panel.mail,
        shown: true,
      });
      return { result: shownLink(user.email, link, link.purpose === 'invitation'), secret: link.url };
    });
    sendLink(req, res, made);
  });

  router.get('/usuarios/:id/remover', async (req, res) => {
    const user = await findUser(db, tenantOf(req), idOf(req));
    sendPage(req, res, 200, removeView(req, res, panel, user, user.id === sessionOf(req).user.id));
  });

  router.post('/usuarios/:id/remover', async (req, res) => {
    const self = idOf(req) === sessionOf(req).user.id;
    try {
      await removeUser(db, tenantOf(req), idOf(req), clock.now());
    } catch (error) {
      const errors = errorsOf(error);
      if (!errors) throw error;
      return list(req, res, errorStatus(error), { notice: { text: Object.values(errors)[0]!, error: true } });
    }
    if (!self) return res.redirect(303, '/painel/usuarios?aviso=removido');
    clearCookie(res, panel.cookies.session, panel.cookies);
    res.redirect(303, '/painel/entrar?aviso=usuario-removido');
  });
  return router;
}

const errorStatus = (error: unknown) => (error as { status: number }).status;
