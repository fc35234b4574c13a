import { Router } from 'express';

import { type Profile, PROFILE_LABELS } from '../identity/identity.rules.js';
import { html } from '../payments/html.js';
import { sendPage } from './layout.js';
import { NAVIGATION } from './navigation.js';
import { requireSignedIn, sessionOf } from './session.js';

/** What each profile may do, as the home page tells the user. */
const CAN_DO: Record<Profile, string> = {
  superadmin: 'convida, muda o perfil e remove usuários, gera e revoga os tokens da API e configura os webhooks.',
  admin: 'gera e revoga os tokens da API e configura os webhooks.',
  vendedor: 'cria vendas exclusivas, acompanha as vendas criadas por você e consulta o catálogo.',
  administrador: 'vê tudo da instituição: lotes, parcelas, links de pagamento, extratos; e gerencia os usuários.',
  financeiro: 'acompanha as parcelas e seus pagamentos, gera links de pagamento e consulta os extratos e fechamentos.',
  integracao: 'acompanha os lotes enviados pela API e os erros dos seus itens.',
};

/** `/painel`: who is signed in, for which partner or institution, and the sections their profile opens. */
export function homePage(): Router {
  const router = Router();
  router.get('/', requireSignedIn(), (req, res) => {
    const { user } = sessionOf(req);
    const sections = NAVIGATION.filter((item) => item.href !== '/painel' && item.profiles.includes(user.profile));
    sendPage(req, res, 200, {
      title: `Olá, ${user.email}`,
      body: html`<section class="card" aria-labelledby="perfil">
  <h2 id="perfil">Seu perfil: ${PROFILE_LABELS[user.profile]}</h2>
  <p>Na ${user.tenantName}, o perfil ${PROFILE_LABELS[user.profile]} ${CAN_DO[user.profile]}</p>
  <ul>${sections.map((item) => html`<li><a href="${item.href}">${item.label}</a></li>`)}</ul>
</section>`,
    });
  });
  return router;
}
