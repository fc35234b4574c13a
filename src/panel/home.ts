import { Router } from 'express';

import type { AppContext } from '../context.js';
import { type Profile, PROFILE_LABELS } from '../identity/identity.rules.js';
import { html } from '../pages/html.js';
import { partnerHome } from './home-partner.js';
import { universityHome } from './home-university.js';
import { sendPage } from './layout.js';
import { NAVIGATION } from './navigation.js';
import { requireSignedIn, sellerOf, sessionOf } from './session.js';

/** What each profile may do, as the home page tells the user. */
const CAN_DO: Record<Profile, string> = {
  superadmin: 'convida, muda o perfil e remove usuários, gera e revoga os tokens da API e configura os webhooks.',
  admin: 'gera e revoga os tokens da API e configura os webhooks.',
  vendedor: 'cria vendas exclusivas, acompanha as vendas criadas por você e consulta o catálogo.',
  administrador: 'vê tudo da instituição: lotes, parcelas, links de pagamento, extratos; e gerencia os usuários.',
  financeiro: 'acompanha as parcelas e seus pagamentos, gera links de pagamento e consulta os extratos e fechamentos.',
  integracao: 'acompanha os lotes enviados pela API e os erros dos seus itens.',
};

/**
 * `/painel`: what the tenant's month looks like, as far as the user's profile may see
 * (`home-university.ts`, `home-partner.ts`), then who is signed in and the sections they open.
 */
export function homePage(ctx: AppContext): Router {
  const router = Router();
  router.get('/', requireSignedIn(), async (req, res) => {
    const { user } = sessionOf(req);
    const month =
      user.tenant.kind === 'institution'
        ? await universityHome(ctx, user.profile, user.tenant.id)
        : await partnerHome(ctx, user.profile, user.tenant.id, sellerOf(req));
    const sections = NAVIGATION.filter((item) => item.href !== '/painel' && item.profiles.includes(user.profile));
    sendPage(req, res, 200, {
      title: `Olá, ${user.email}`,
      body: html`${month}
<section class="card" aria-labelledby="perfil">
  <h2 id="perfil">Seu perfil: ${PROFILE_LABELS[user.profile]}</h2>
  <p>Na ${user.tenantName}, o perfil ${PROFILE_LABELS[user.profile]} ${CAN_DO[user.profile]}</p>
  <ul>${sections.map((item) => html`<li><a href="${item.href}">${item.label}</a></li>`)}</ul>
</section>`,
    });
  });
  return router;
}
