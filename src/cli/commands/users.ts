import { IdentityRuleError } from '../../identity/identity.rules.js';
import { issuePasswordLink } from '../../identity/password-links.js';
import { findUserByEmail, inviteUser, listUsers } from '../../identity/users.js';
import { type Command, runtimeOr, UsageError } from './command.js';
import { requireTenant } from './tenants.js';

/** A rule of the people domain refused the command: told to the operator as a usage error. */
async function asUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof IdentityRuleError) throw new UsageError(error.message);
    throw error;
  }
}

type Kind = 'partner' | 'institution';
const OPTION: Record<Kind, string> = { partner: '--partner', institution: '--institution' };
const PROFILE_CHOICES: Record<Kind, string> = {
  partner: 'superadmin|admin|vendedor',
  institution: 'administrador|financeiro|integracao',
};

/** `<kind>:user:create`: the first user of a tenant (its Superadmin or Administrador) and the invitation link. */
const createCommand = (kind: Kind): Command => ({
  usage: `${kind}:user:create ${OPTION[kind]} ID --email EMAIL --profile ${PROFILE_CHOICES[kind]}   invite a panel user: prints a one-time link (7 days)`,
  run: async (db, options, _args, runtime) => {
    const { config, clock } = runtimeOr(runtime);
    const { email, profile } = options;
    const id = options[kind];
    if (!id || !email || !profile)
      throw new UsageError(
        `${kind}:user:create needs ${OPTION[kind]} ID, --email EMAIL and --profile ${PROFILE_CHOICES[kind]}`,
      );
    await requireTenant(db, kind, id);
    const { user, invitation } = await asUsage(() =>
      inviteUser(db, { tenant: { kind, id }, email, profile, now: clock.now(), baseUrl: config.publicBaseUrl }),
    );
    return {
      id: user.id,
      email: user.email,
      profile: user.profile,
      invitationUrl: invitation.url,
      expiresAt: invitation.expiresAt.toISOString(),
    };
  },
});

/** `<kind>:user:list`: the panel users of a tenant. */
const listCommand = (kind: Kind): Command => ({
  usage: `${kind}:user:list ${OPTION[kind]} ID${kind === 'partner' ? '       ' : ' '}the panel users of ${kind === 'partner' ? 'a partner' : 'an institution'}`,
  run: async (db, options) => {
    const id = options[kind];
    if (!id) throw new UsageError(`${kind}:user:list needs ${OPTION[kind]} ID`);
    await requireTenant(db, kind, id);
    const users = await listUsers(db, { kind, id });
    return {
      users: users.map((u) => ({
        email: u.email,
        profile: u.profile,
        active: u.active,
        invitedBy: u.invitedByEmail ?? 'operator',
      })),
    };
  },
});

/**
 * The panel's users, partners' and institutions': the first user of a tenant, password links (one
 * e-mail is one user, whatever its tenant), the list.
 */
export const userCommands: Record<string, Command> = {
  'partner:user:create': createCommand('partner'),
  'institution:user:create': createCommand('institution'),
  'partner:user:reset-password': {
    usage:
      "partner:user:reset-password --email EMAIL   a one-time link to set a new password (1 hour), or a new invitation for a user who has none (a partner's or an institution's)",
    run: async (db, { email }, _args, runtime) => {
      const { config, clock } = runtimeOr(runtime);
      if (!email) throw new UsageError('partner:user:reset-password needs --email EMAIL');
      const user = await findUserByEmail(db, email);
      if (!user) throw new UsageError(`no panel user with e-mail ${email}`);
      const link = await issuePasswordLink(db, {
        userId: user.id,
        active: user.active,
        now: clock.now(),
        baseUrl: config.publicBaseUrl,
      });
      return { email: user.email, kind: link.purpose, url: link.url, expiresAt: link.expiresAt.toISOString() };
    },
  },
  'partner:user:list': listCommand('partner'),
  'institution:user:list': listCommand('institution'),
};
