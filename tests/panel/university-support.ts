import type { TestContext } from '../support/context.js';
import { givenInstitution, givenPartner } from '../support/tenants.js';
import { givenUser, type SignedIn, signIn } from './support.js';

/** The sections of a university's panel and the profiles each lets in (docs/panel.md). */
export const UNIVERSITY_PAGES = {
  '/painel/lotes': ['administrador', 'integracao'],
  '/painel/parcelas': ['administrador', 'financeiro'],
  '/painel/extratos': ['administrador', 'financeiro'],
  '/painel/usuarios': ['administrador'],
  '/painel/configuracoes/integracoes/api-token': ['administrador', 'integracao'],
  '/painel/webhooks': ['administrador', 'integracao'],
} as const;

/** Paths both kinds of tenant open, each with its own data. */
export const SHARED_PAGES = ['/painel/usuarios', '/painel/configuracoes/integracoes/api-token', '/painel/webhooks'];

/** A partner's sections, which no university user ever opens. */
export const PARTNER_PAGES = [
  '/painel/vendas',
  '/painel/vendas/nova',
  '/painel/recebimentos',
  '/painel/catalogo',
] as const;

/**
 * A university with a user of each profile, signed in; a second university with its Administrador
 * and a partner with its Superadmin, to prove that nobody sees another tenant's data.
 */
export async function givenUniversityStaff(t: TestContext, prefix: string) {
  const university = await givenInstitution(t.ctx, `Universidade ${prefix}`);
  const other = await givenInstitution(t.ctx, `Outra Universidade ${prefix}`);
  const partner = await givenPartner(t.ctx, `Escola ${prefix}`);
  const tenant = { kind: 'institution', id: university.id } as const;
  const users = {
    administrador: await givenUser(t, tenant, `adm-${prefix}@uni.example`, 'administrador'),
    financeiro: await givenUser(t, tenant, `fin-${prefix}@uni.example`, 'financeiro'),
    integracao: await givenUser(t, tenant, `int-${prefix}@uni.example`, 'integracao'),
    otherAdmin: await givenUser(
      t,
      { kind: 'institution', id: other.id },
      `adm-${prefix}@outra.example`,
      'administrador',
    ),
    partnerAdmin: await givenUser(t, partner.id, `super-${prefix}@escola.example`, 'superadmin'),
  };
  const sessions: Record<keyof typeof users, SignedIn> = {
    administrador: await signIn(t, users.administrador.email),
    financeiro: await signIn(t, users.financeiro.email),
    integracao: await signIn(t, users.integracao.email),
    otherAdmin: await signIn(t, users.otherAdmin.email),
    partnerAdmin: await signIn(t, users.partnerAdmin.email),
  };
  return { university, other, partner, users, sessions };
}
