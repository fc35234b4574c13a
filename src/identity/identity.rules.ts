import { ApiError } from '../core/errors.js';

export const PROFILES = ['superadmin', 'admin', 'vendedor'] as const;
export type Profile = (typeof PROFILES)[number];

export const PROFILE_LABELS: Record<Profile, string> = {
  superadmin: 'Superadmin',
  admin: 'Admin',
  vendedor: 'Vendedor',
};

export const isProfile = (value: unknown): value is Profile => PROFILES.includes(value as Profile);

/** The tenant a user acts for. Partners' users today; institutions' users share the same tables later. */
export type TenantRef = { kind: 'partner' | 'institution'; id: string };

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
  constructor() {
    super(
      409,
      'USER-002',
      'A partner keeps at least one Superadmin: promote another user first',
      'A empresa precisa de pelo menos um Superadmin: promova outro usuário antes.',
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
  constructor() {
    super(400, 'USER-005', 'The profile is superadmin, admin or vendedor', 'Escolha um perfil.', 'profile');
  }
}

export class PasswordRefused extends IdentityRuleError {
  constructor(pt: string, field = 'password') {
    super(400, 'USER-006', 'The new password is refused', pt, field);
  }
}
