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

/** The partner panel's users: the first Superadmin of a partner, password links, the list. */
export const userCommands: Record<string, Command> = {
  'partner:user:create': {
    usage:
      'partner:user:create --partner ID --email EMAIL --profile superadmin|admin|vendedor   invite a panel user: prints a one-time link (7 days)',
    run: async (db, { partner, email, profile }, _args, runtime) => {
      const { config, clock } = runtimeOr(runtime);
      if (!partner || !email || !profile)
        throw new UsageError(
          'partner:user:create needs --partner ID, --email EMAIL and --profile superadmin|admin|vendedor',
        );
      await requireTenant(db, 'partner', partner);
      const { user, invitation } = await asUsage(() =>
        inviteUser(db, {
          tenant: { kind: 'partner', id: partner },
          email,
          profile,
          now: clock.now(),
          baseUrl: config.publicBaseUrl,
        }),
      );
      return {
        id: user.id,
        email: user.email,
        profile: user.profile,
        invitationUrl: invitation.url,
        expiresAt: invitation.expiresAt.toISOString(),
      };
    },
  },
  'partner:user:reset-password': {
    usage:
      'partner:user:reset-password --email EMAIL   a one-time link to set a new password (1 hour), or a new invitation for a user who has none',
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
  'partner:user:list': {
    usage: 'partner:user:list --partner ID       the panel users of a partner',
    run: async (db, { partner }) => {
      if (!partner) throw new UsageError('partner:user:list needs --partner ID');
      await requireTenant(db, 'partner', partner);
      const users = await listUsers(db, { kind: 'partner', id: partner });
      return {
        users: users.map((u) => ({
          email: u.email,
          profile: u.profile,
          active: u.active,
          invitedBy: u.invitedByEmail ?? 'operator',
        })),
      };
    },
  },
};
