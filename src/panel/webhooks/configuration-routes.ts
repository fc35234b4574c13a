import type { Request, Response, Router } from 'express';

import { checkRequestBody } from '../../contract/request-bodies.js';
import { pageRequest } from '../../core/paging.js';
import {
  createConfiguration,
  deleteConfiguration,
  listConfigurations,
  updateConfiguration,
} from '../../partner/webhooks/configurations.js';
import { readChoices, readFields } from '../forms.js';
import { sendPage } from '../layout.js';
import { oncePerForm } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
import { partnerOf } from '../session.js';
import {
  type ConfigurationForm,
  configurationFormView,
  configurationPath,
  configurationsView,
  configurationView,
  deleteView,
  NEW_WEBHOOK_FORM,
  type WebhookConfiguration,
  WEBHOOKS_PAGE_SIZE,
  WEBHOOKS_PATH,
} from './configuration-pages.js';
import { unlessRefused } from './refusals.js';

const NOTICES = {
  criado: 'Webhook criado: ele recebe os eventos escolhidos a partir de agora.',
  alterado: 'Alterações salvas.',
  ativado: 'Webhook ativado: as entregas pausadas foram retomadas.',
  desativado: 'Webhook desativado: ele não recebe novos eventos, e as entregas pendentes ficaram pausadas.',
  excluido: 'Webhook excluído.',
};

/** The longest value any field of the form may hold (the URL's 2048), plus one: longer is refused by its rule. */
const KEPT = 2049;

function readForm(req: Request): ConfigurationForm {
  const fields = readFields(
    req,
    ['configurationName', 'webhookUrl', 'authorizationToken', 'signed', 'removeToken'],
    KEPT,
  );
  return {
    ...fields,
    enabledEvents: readChoices(req, 'enabledEvents'),
    signed: fields.signed === 'on',
    removeToken: fields.removeToken === 'on',
  };
}

const eventsOfForm = (form: ConfigurationForm) => form.enabledEvents.map((name) => ({ name }));

/** The body `POST /webhooks` would receive from this form. */
const createBody = (form: ConfigurationForm) => ({
  configurationName: form.configurationName,
  webhookUrl: form.webhookUrl,
  enabledEvents: eventsOfForm(form),
  ...(form.authorizationToken ? { authorizationToken: form.authorizationToken } : {}),
  signed: form.signed,
});

/** The body `PATCH /webhooks/{id}` would receive: every key of the form, the token only when changed. */
const patchBody = (form: ConfigurationForm) => ({
  configurationName: form.configurationName,
  webhookUrl: form.webhookUrl,
  enabledEvents: eventsOfForm(form),
  ...(form.removeToken
    ? { authorizationToken: null }
    : form.authorizationToken
      ? { authorizationToken: form.authorizationToken }
      : {}),
  signed: form.signed,
});

const formOf = (c: WebhookConfiguration): ConfigurationForm => ({
  configurationName: c.configurationName,
  webhookUrl: c.webhookUrl,
  enabledEvents: c.enabledEvents.map((e) => e.name),
  signed: c.signed,
  authorizationToken: '',
  removeToken: false,
});

/**
 * The configurations: list, create, edit, activate, deactivate, delete. Each change is the body the
 * Partner API's route would receive, checked against the same contract and handed to the same
 * service, so every rule and code is the API's.
 */
export function configurationRoutes(
  router: Router,
  panel: PanelContext,
  configurationOf: (req: Request) => Promise<WebhookConfiguration>,
): void {
  const ctx = panel.app;

  /** Runs a change of the form; a refusal shows the form again, each message by its field. */
  const change = (
    req: Request,
    res: Response,
    form: ConfigurationForm,
    current: WebhookConfiguration | undefined,
    run: () => Promise<void>,
  ) =>
    unlessRefused(run, (errors) =>
      sendPage(req, res, 400, configurationFormView(req, res, panel, { form, current, errors })),
    );

  router.get('/webhooks', async (req, res) => {
    const page = await listConfigurations(ctx, partnerOf(req), pageRequest(req.query.page, WEBHOOKS_PAGE_SIZE));
    sendPage(req, res, 200, configurationsView(page, noticeOf(NOTICES, req.query.aviso)));
  });

  router.get('/webhooks/novo', (req, res) => {
    const form = {
      configurationName: '',
      webhookUrl: '',
      enabledEvents: [],
      signed: true,
      authorizationToken: '',
      removeToken: false,
    };
    sendPage(req, res, 200, configurationFormView(req, res, panel, { form }));
  });

  router.post('/webhooks/novo', async (req, res) => {
    const form = readForm(req);
    await change(req, res, form, undefined, async () => {
      const body = createBody(form);
      await checkRequestBody('partner', 'createWebhookConfiguration', body);
      // One configuration per filled form: sent twice, both answers lead to the one made.
      const { result } = await oncePerForm(req, panel, NEW_WEBHOOK_FORM, async (tx) => ({
        result: { configurationId: (await createConfiguration(ctx, partnerOf(req), body, tx)).content.id },
      }));
      res.redirect(303, `${configurationPath(result.configurationId)}?aviso=criado`);
    });
  });

  router.get('/webhooks/:id', async (req, res) => {
    sendPage(
      req,
      res,
      200,
      configurationView(req, res, panel, await configurationOf(req), noticeOf(NOTICES, req.query.aviso)),
    );
  });

  router.get('/webhooks/:id/editar', async (req, res) => {
    const current = await configurationOf(req);
    sendPage(req, res, 200, configurationFormView(req, res, panel, { form: formOf(current), current }));
  });

  router.post('/webhooks/:id/editar', async (req, res) => {
    const current = await configurationOf(req);
    const form = readForm(req);
    if (form.removeToken && form.authorizationToken) {
      const errors = { authorizationToken: 'Informe um novo token ou marque "Remover o token", não os dois.' };
      return sendPage(req, res, 400, configurationFormView(req, res, panel, { form, current, errors }));
    }
    await change(req, res, form, current, async () => {
      const body = patchBody(form);
      await checkRequestBody('partner', 'updateWebhookConfiguration', body);
      await updateConfiguration(ctx, partnerOf(req), current.id, body);
      res.redirect(303, `${configurationPath(current.id)}?aviso=alterado`);
    });
  });

  for (const [action, active] of [
    ['ativar', true],
    ['desativar', false],
  ] as const) {
    router.post(`/webhooks/:id/${action}`, async (req, res) => {
      const { id } = await configurationOf(req);
      await updateConfiguration(ctx, partnerOf(req), id, { active });
      res.redirect(303, `${configurationPath(id)}?aviso=${active ? 'ativado' : 'desativado'}`);
    });
  }

  router.get('/webhooks/:id/excluir', async (req, res) => {
    sendPage(req, res, 200, deleteView(req, res, panel, await configurationOf(req)));
  });

  router.post('/webhooks/:id/excluir', async (req, res) => {
    const { id } = await configurationOf(req);
    await deleteConfiguration(ctx.db, partnerOf(req), id);
    res.redirect(303, `${WEBHOOKS_PATH}?aviso=excluido`);
  });
}
