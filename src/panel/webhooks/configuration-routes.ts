import type { Request, Response, Router } from 'express';

import { pageRequest } from '../../core/paging.js';
import { readChoices, readFields } from '../../pages/form-values.js';
import {
  type ConfigurationInput,
  type ConfigurationPatch,
  createConfiguration,
  deleteConfiguration,
  listConfigurations,
  updateConfiguration,
} from '../../webhooks/configurations.js';
import { sendPage } from '../layout.js';
import { oncePerForm } from '../once-per-form.js';
import { noticeOf, type PanelContext } from '../panel-context.js';
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
import { tenantWebhooks } from './tenant.js';

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

/** The configuration a creating form asks for. */
const createInput = (form: ConfigurationForm): ConfigurationInput => ({
  name: form.configurationName,
  url: form.webhookUrl,
  events: form.enabledEvents,
  ...(form.authorizationToken ? { authorizationToken: form.authorizationToken } : {}),
  signed: form.signed,
});

/** The changes of an editing form: every key of the form, the token only when changed. */
const patchOf = (form: ConfigurationForm): ConfigurationPatch => ({
  name: form.configurationName,
  url: form.webhookUrl,
  events: form.enabledEvents,
  ...(form.removeToken
    ? { authorizationToken: null }
    : form.authorizationToken
      ? { authorizationToken: form.authorizationToken }
      : {}),
  signed: form.signed,
});

const formOf = (c: WebhookConfiguration): ConfigurationForm => ({
  configurationName: c.name,
  webhookUrl: c.url,
  enabledEvents: [...c.events],
  signed: c.signed,
  authorizationToken: '',
  removeToken: false,
});

/**
 * The configurations: list, create, edit, activate, deactivate, delete. Each change is checked
 * against the contract of the tenant's API (the body its route would receive) and handed to the
 * engine's service that route calls, so every rule and code is that API's.
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
    unlessRefused(
      run,
      (errors) =>
        sendPage(
          req,
          res,
          400,
          configurationFormView(req, res, panel, { events: tenantWebhooks(req).events, form, current, errors }),
        ),
      tenantWebhooks(req).words.holder,
    );

  router.get('/webhooks', async (req, res) => {
    const tenant = tenantWebhooks(req);
    const paging = pageRequest(req.query.page, WEBHOOKS_PAGE_SIZE);
    const page = await listConfigurations(ctx, tenant.audience.recipient, paging);
    sendPage(req, res, 200, configurationsView(tenant.words, page, noticeOf(NOTICES, req.query.aviso)));
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
    sendPage(req, res, 200, configurationFormView(req, res, panel, { events: tenantWebhooks(req).events, form }));
  });

  router.post('/webhooks/novo', async (req, res) => {
    const form = readForm(req);
    await change(req, res, form, undefined, async () => {
      const tenant = tenantWebhooks(req);
      const input = createInput(form);
      await tenant.checkCreate(input);
      // One configuration per filled form: sent twice, both answers lead to the one made.
      const { result } = await oncePerForm(req, panel, NEW_WEBHOOK_FORM, async (tx) => ({
        result: { configurationId: (await createConfiguration(ctx, tenant.audience, input, tx)).id },
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
    const { events } = tenantWebhooks(req);
    sendPage(req, res, 200, configurationFormView(req, res, panel, { events, form: formOf(current), current }));
  });

  router.post('/webhooks/:id/editar', async (req, res) => {
    const current = await configurationOf(req);
    const form = readForm(req);
    if (form.removeToken && form.authorizationToken) {
      const errors = { authorizationToken: 'Informe um novo token ou marque "Remover o token", não os dois.' };
      const { events } = tenantWebhooks(req);
      return sendPage(req, res, 400, configurationFormView(req, res, panel, { events, form, current, errors }));
    }
    await change(req, res, form, current, async () => {
      const tenant = tenantWebhooks(req);
      const patch = patchOf(form);
      await tenant.checkPatch(patch);
      await updateConfiguration(ctx, tenant.audience, current.id, patch);
      res.redirect(303, `${configurationPath(current.id)}?aviso=alterado`);
    });
  });

  for (const [action, active] of [
    ['ativar', true],
    ['desativar', false],
  ] as const) {
    router.post(`/webhooks/:id/${action}`, async (req, res) => {
      const { id } = await configurationOf(req);
      await updateConfiguration(ctx, tenantWebhooks(req).audience, id, { active });
      res.redirect(303, `${configurationPath(id)}?aviso=${active ? 'ativado' : 'desativado'}`);
    });
  }

  router.get('/webhooks/:id/excluir', async (req, res) => {
    sendPage(req, res, 200, deleteView(req, res, panel, await configurationOf(req)));
  });

  router.post('/webhooks/:id/excluir', async (req, res) => {
    const { id } = await configurationOf(req);
    await deleteConfiguration(ctx.db, tenantWebhooks(req).audience.recipient, id);
    res.redirect(303, `${WEBHOOKS_PATH}?aviso=excluido`);
  });
}
