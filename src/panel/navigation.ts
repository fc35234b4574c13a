import { INSTITUTION_PROFILES, PARTNER_PROFILES, type Profile, PROFILES } from '../identity/identity.rules.js';

/** One entry of the panel's navigation: shown only to the profiles that may open it. */
export interface NavItem {
  href: string;
  label: string;
  profiles: readonly Profile[];
}

const EVERYONE = PROFILES;

/** The university's profiles that open each of its sections (its routers' `requireProfile`). */
export const UNIVERSITY_SECTIONS = {
  batches: ['administrador', 'integracao'],
  installments: ['administrador', 'financeiro'],
  statements: ['administrador', 'financeiro'],
} as const satisfies Record<string, readonly (typeof INSTITUTION_PROFILES)[number][]>;

/** Who manages a tenant's API keys: a partner's Superadmin and Admin, a university's Administrador and Integração. */
export const INTEGRATION_PROFILES = ['superadmin', 'admin', 'administrador', 'integracao'] as const;

/** Who manages a tenant's webhooks: the same users as its API keys. */
export const WEBHOOK_PROFILES = INTEGRATION_PROFILES;

/**
 * The sections of the panel, in the order of the menu: a partner's and a university's, told apart
 * by their profiles (the two sets do not meet). A section adds its entry here, with the same
 * profiles its router's `requireProfile` lets in.
 */
export const NAVIGATION: readonly NavItem[] = [
  { href: '/painel', label: 'Início', profiles: EVERYONE },
  { href: '/painel/vendas', label: 'Vendas', profiles: PARTNER_PROFILES },
  { href: '/painel/recebimentos', label: 'Recebimentos', profiles: ['superadmin', 'admin'] },
  { href: '/painel/catalogo', label: 'Catálogo', profiles: PARTNER_PROFILES },
  { href: '/painel/lotes', label: 'Lotes', profiles: UNIVERSITY_SECTIONS.batches },
  { href: '/painel/parcelas', label: 'Parcelas', profiles: UNIVERSITY_SECTIONS.installments },
  { href: '/painel/extratos', label: 'Extratos', profiles: UNIVERSITY_SECTIONS.statements },
  { href: '/painel/usuarios', label: 'Usuários', profiles: ['superadmin', 'administrador'] },
  { href: '/painel/configuracoes/integracoes/api-token', label: 'Integrações', profiles: INTEGRATION_PROFILES },
  { href: '/painel/webhooks', label: 'Webhooks', profiles: WEBHOOK_PROFILES },
  { href: '/painel/conta', label: 'Minha conta', profiles: EVERYONE },
];

/** The entry a path belongs to: the longest `href` it starts with. */
export function currentNavItem(path: string): NavItem | undefined {
  return NAVIGATION.filter((item) => path === item.href || path.startsWith(`${item.href}/`)).sort(
    (a, b) => b.href.length - a.href.length,
  )[0];
}

/** Whether a profile's menu opens the section of `href` (a page links to another section only then). */
export const opensSection = (profile: Profile, href: string): boolean =>
  NAVIGATION.some((item) => item.href === href && item.profiles.includes(profile));
