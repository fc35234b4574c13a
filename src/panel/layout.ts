import type { Request, Response } from 'express';

import { PROFILE_LABELS } from '../identity/identity.rules.js';
import type { PersonSession, Session } from '../identity/sessions.js';
import { html, SafeHtml, sha256Source } from '../pages/html.js';
import { PAGE_CSS } from '../pages/page-style.js';
import { PANEL_CSS } from '../pages/panel-style.js';
import { csrfInput } from './csrf.js';
import { currentNavItem, NAVIGATION } from './navigation.js';

/**
 * Headers of every panel page: no caching, no framing, no sniffing, no script at all, our two
 * stylesheets by hash, forms to ourselves. The referrer goes to our own origin only: a stricter
 * `no-referrer` would make browsers send `Origin: null` with our forms, which the form check refuses.
 */
export const PANEL_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': [
    "default-src 'none'",
    `style-src ${sha256Source(PAGE_CSS)} ${sha256Source(PANEL_CSS)}`,
    'img-src data:',
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'Referrer-Policy': 'same-origin',
};

export interface Notice {
  text: string;
  error?: boolean;
}

/** What a page of the panel says; the frame (header, navigation, footer) is the layout's. */
export interface PanelView {
  /** The page's `<h1>` and `<title>`. */
  title: string;
  body: SafeHtml;
  /** Links above the title, outermost first; the page itself is not a link. */
  breadcrumb?: { label: string; href?: string }[];
  notice?: Notice;
}

/** What the panel is called for a kind of tenant: a partner's team, or a university's. */
const PANEL_NAME = { partner: 'Painel do parceiro', institution: 'Painel da instituição' } as const;
const panelName = (session: Session | undefined) => (session ? PANEL_NAME[session.user.tenant.kind] : 'Painel');

const noticeBlock = (notice?: Notice) =>
  notice ? html`<p class="notice${notice.error ? ' error' : ''}" role="status">${notice.text}</p>` : '';

function signedInHeader(session: Session, path: string): SafeHtml {
  const current = currentNavItem(path);
  const items = NAVIGATION.filter((item) => item.profiles.includes(session.user.profile));
  return html`<header class="panel">
  <div class="bar">
    <div class="tenant"><strong>${session.user.tenantName}</strong><span>${panelName(session)}</span></div>
    <div class="who"><span>${session.user.email} · ${PROFILE_LABELS[session.user.profile]}</span>
      ${session.memberships > 1 ? html`<a href="/painel/contas">Trocar de conta</a>` : ''}
      <form class="inline" method="post" action="/painel/sair">${csrfInput(session.csrfToken)}<button type="submit" class="link">Sair</button></form>
    </div>
  </div>
  <nav class="sections" aria-label="Seções do painel"><ul>${items.map(
    (item) =>
      html`<li><a href="${item.href}"${item === current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  )}</ul></nav>
</header>`;
}

/** Signed in, acting for no membership yet: the chooser and the invitations. */
const personHeader = (person: PersonSession) => html`<header class="panel">
  <div class="bar">
    <div class="tenant"><strong>Painel</strong><span>Escolha a conta</span></div>
    <div class="who"><span>${person.email}</span>
      <form class="inline" method="post" action="/painel/sair">${csrfInput(person.csrfToken)}<button type="submit" class="link">Sair</button></form>
    </div>
  </div>
</header>`;

const anonymousHeader = html`<header class="panel"><div class="bar"><div class="tenant"><strong>Painel</strong><span>Acesso da sua equipe: parceiros e instituições</span></div></div></header>`;

function breadcrumbBlock(view: PanelView): SafeHtml | '' {
  if (!view.breadcrumb?.length) return '';
  return html`<nav class="breadcrumb" aria-label="Você está em"><ol>${view.breadcrumb.map((b) =>
    b.href ? html`<li><a href="${b.href}">${b.label}</a></li>` : html`<li>${b.label}</li>`,
  )}<li aria-current="page">${view.title}</li></ol></nav>`;
}

/** The whole document of a panel page: signed in, with the header and the sections the profile opens. */
/** Whose data the page shows; before sign-in the page may serve a partner's or a university's user. */
const footerNote = (session: Session | undefined) =>
  !session
    ? 'Painel de parceiros e instituições: não compartilhe seus links de acesso.'
    : `os dados desta página são ${session.user.tenant.kind === 'institution' ? 'da sua instituição' : 'da sua empresa'}: não os compartilhe.`;

export function panelDocument(req: Request, view: PanelView): string {
  const session = req.panelSession;
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${view.title} · ${panelName(session)}</title>
<style>${new SafeHtml(PAGE_CSS)}</style>
<style>${new SafeHtml(PANEL_CSS)}</style>
</head>
<body class="${req.panelPerson ? 'panel' : 'anonymous'}">
<a class="skip" href="#conteudo">Pular para o conteúdo</a>
${session ? signedInHeader(session, req.originalUrl.split('?')[0]!) : req.panelPerson ? personHeader(req.panelPerson) : anonymousHeader}
<main id="conteudo" tabindex="-1">
<div>${breadcrumbBlock(view)}<h1>${view.title}</h1></div>
${noticeBlock(view.notice)}
${view.body}
</main>
<footer>${panelName(session)} · ${footerNote(session)}</footer>
</body>
</html>`.value;
}

/** Answers a panel page with its headers. */
export function sendPage(req: Request, res: Response, status: number, view: PanelView): void {
  res.status(status).set(PANEL_HEADERS).type('html').send(panelDocument(req, view));
}
