import { ApiError } from '../core/errors.js';

/** A partner's profiles, and an institution's: two separate sets, so a profile alone tells the kind of tenant. */
export const PARTNER_PROFILES = ['superadmin', 'admin', 'vendedor'] as const;
export const INSTITUTION_PROFILES = ['administrador', 'financeiro', 'integracao'] as const;
export const PROFILES = [...PARTNER_PROFILES, ...INSTITUTION_PROFILES] as const;
export type Profile = (typeof PROFILES)[number];

export const PROFILE_LABELS: Record<Profile, string> = {
  superadmin: 'Superadmin',
  admin: 'Admin',
  vendedor: 'Vendedor',
  administrador: 'Administrador',
  financeiro: 'Financeiro',
  integracao: 'Integração',
};

export type TenantKind = 'partner' | 'institution';

/** The tenant a user acts for: a partner or an institution (a university). */
export type TenantRef = { kind: TenantKind; id: string };

/** The profiles a user of this kind of tenant may have. */
export const profilesOf = (kind: TenantKind): readonly Profile[] =>
  kind === 'partner' ? PARTNER_PROFILES : INSTITUTION_PROFILES;

/** The profile that manages a tenant's users: a tenant always keeps one active user with it. */
export const USER_ADMIN_PROFILE: Record<TenantKind, Profile> = { partner: 'superadmin', institution: 'administrador' };

export const isProfileOf = (kind: TenantKind, value: unknown): value is Profile =>
  profilesOf(kind).includes(value as Profile);

export const EMAIL_MAX_LENGTH = 254;

/** An e-mail as stored and compared: trimmed and lower-cased (unique ignoring case). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** An address: something@domain.tld, without spaces or control characters (a NUL, a \x01), at most EMAIL_MAX_LENGTH long. */
export const isEmail = (email: string): boolean =>
  email.length <= EMAIL_MAX_LENGTH && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u.test(email);

/**
 * A rule of people and sign-in refused: `message` for logs and the operator's CLI, `pt` for the
 * person in the panel, next to `field` when one is to blame.
 */
export class IdentityRuleError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly pt: string,
    readonly field?: string,
  ) {
    super(status, code, message);
  }
}

export class EmailTaken extends IdentityRuleError {
  constructor(email: string) {
    super(409, 'USER-001', `${email} is already the e-mail of a user`, 'Este e-mail já é de um usuário.', 'email');
  }
}

export class LastSuperadmin extends IdentityRuleError {
  constructor(kind: TenantKind = 'partner') {
    super(
      409,
      'USER-002',
      kind === 'partner'
        ? 'A partner keeps at least one Superadmin: promote another user first'
        : 'An institution keeps at least one Administrador: promote another user first',
      kind === 'partner'
        ? 'A empresa precisa de pelo menos um Superadmin: promova outro usuário antes.'
        : 'A instituição precisa de pelo menos um Administrador: promova outro usuário antes.',
    );
  }
}

export class UserNotFound extends IdentityRuleError {
  constructor() {
    super(404, 'USER-003', 'No such user', 'Usuário não encontrado.');
  }
}

export class InvalidEmail extends IdentityRuleError {
  constructor() {
    super(400, 'USER-004', 'Not an e-mail address', 'Informe um e-mail válido, como nome@exemplo.com.', 'email');
  }
}

export class InvalidProfile extends IdentityRuleError {
  constructor(kind: TenantKind = 'partner') {
    const [first, second, third] = profilesOf(kind);
    super(400, 'USER-005', `The profile is ${first}, ${second} or ${third}`, 'Escolha um perfil.', 'profile');
  }
}

export class PasswordRefused extends IdentityRuleError {
  constructor(pt: string, field = 'password') {
    super(400, 'USER-006', 'The new password is refused', pt, field);
  }
}
