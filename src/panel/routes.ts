import express, { type ErrorRequestHandler, type RequestHandler, Router } from 'express';

import type { AppContext } from '../context.js';
import { toApiError } from '../http/error-handler.js';
import { noteErrorOnRequestLog } from '../http/logging.js';
import { onlyUnder } from '../http/path-prefixes.js';
import { IdentityRuleError } from '../identity/identity.rules.js';
import { mailOutbox } from '../identity/mail-outbox.js';
import { html } from '../pages/html.js';
import { accountPages } from './account/routes.js';
import { accountChooserPages } from './accounts/routes.js';
import { apiTokenPages } from './api-tokens/routes.js';
import { batchPages } from './batches/routes.js';
import { cataloguePages } from './catalogue/routes.js';
import { panelCookies } from './cookies.js';
import { checkCsrf } from './csrf.js';
import { PanelError, PanelPageNotFound } from './errors.js';
import { homePage } from './home.js';
import { installmentPages } from './installments/routes.js';
import { PANEL_HEADERS, sendPage } from './layout.js';
import type { PanelContext } from './panel-context.js';
import { receiptPages } from './receipts/routes.js';
import { salePages } from './sales/routes.js';
import { loadSession } from './session.js';
import { signInPages } from './sign-in/routes.js';
import { statementPages } from './statements/routes.js';
import { userPages } from './users/routes.js';
import { webhookPages } from './webhooks/routes.js';

/**
 * The panel at `/painel`, a partner's and a university's: server-rendered pt-BR pages that work
 * without JavaScript. Every
 * request loads its session; every POST is parsed (small forms only), then checked for its origin
 * and form token before any section sees it. Each section is a router of its own that guards its
 * pages with `requireProfile`; failures become pages, never JSON.
 */
export function panelPages(ctx: AppContext): RequestHandler {
  const panel: PanelContext = {
    app: ctx,
    cookies: panelCookies(ctx.config),
    mail: ctx.mail ? mailOutbox(ctx.config, ctx.config.publicBaseUrl) : undefined,
  };
  const inner = Router();
  inner.use((_req, res, next) => {
    res.set(PANEL_HEADERS);
    next();
  });
  inner.use(loadSession(ctx, panel.cookies));
  // Panel forms are a few short fields: 16 kB and 50 fields are plenty; more is refused with a page (413).
  inner.post(
    /.*/,
    express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }),
    checkCsrf(ctx.config, panel.cookies),
  );

  inner.use(
    signInPages(panel),
    accountChooserPages(panel),
    homePage(ctx),
    accountPages(panel),
    userPages(panel),
    apiTokenPages(panel),
  );
  inner.use(salePages(panel), receiptPages(panel), cataloguePages(panel), webhookPages(panel));
  // A university's sections.
  inner.use(batchPages(panel), installmentPages(panel), statementPages(panel));

  inner.use((_req, _res, next) => next(new PanelPageNotFound()));
  inner.use(panelErrors());

  const router = Router();
  router.use('/painel', inner);
  // Tried only for its own paths: the router matches a request against each of its routes in turn.
  return onlyUnder(['/painel'], router);
}

const UNREADABLE = {
  title: 'Formulário não lido',
  text: 'O formulário enviado não pôde ser lido (grande demais ou malformado). Abra a página de novo e envie outra vez.',
};

/** Every failure under `/painel` as a page of the panel, at its status; a fault of ours is a 500 page quoting the request id. */
function panelErrors(): ErrorRequestHandler {
  return (thrown, req, res, next) => {
    if (res.headersSent) return next(thrown);
    const error = toApiError(thrown, req.method, req.path);
    if (!error) {
      res.err = thrown as Error; // pino-http logs the request's one line with it, at error level
      return sendPage(req, res, 500, {
        title: 'Erro interno',
        body: html`<section class="card"><p>Algo deu errado do nosso lado. Tente de novo; se persistir, informe ao suporte o código ${String(req.id)}.</p></section>`,
      });
    }
    noteErrorOnRequestLog(res, error);
    const { title, text } =
      error instanceof PanelError
        ? error
        : error instanceof IdentityRuleError
          ? { title: 'Não encontrado', text: error.pt }
          : UNREADABLE;
    const signIn = error.status === 403 && !req.panelPerson;
    sendPage(req, res, error.status, {
      title,
      body: html`<section class="card"><p>${text}</p><p>${signIn ? html`<a href="/painel/entrar">Entrar</a>` : html`<a href="/painel">Ir para o início do painel</a>`}</p></section>`,
    });
  };
}
