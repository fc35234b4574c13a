import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  foreignKey,
  index,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';

export const institutions = pgTable('institutions', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdAt: timestampNow(),
});

export const partners = pgTable('partners', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  createdAt: timestampNow(),
});

/**
 * A person who signs in to the panel: one e-mail (kept lower-cased), one password, whatever the
 * tenants they belong to (`users`). Sign-in, a password reset or change, and "Sair de todas as
 * sessões" act on the person, hence on every membership at once.
 */
export const people = pgTable(
  'people',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    /** argon2id, PHC string; null until a first invitation is accepted. */
    passwordHash: text(),
    passwordChangedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex('people_email').on(t.email),
    // The target of `users_person_email`: a membership's e-mail is always its person's.
    uniqueIndex('people_id_email').on(t.id, t.email),
    check('people_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

/**
 * A person's membership of one tenant: a partner's user (profiles `superadmin`, `admin`,
 * `vendedor`) or an institution's (`administrador`, `financeiro`, `integracao`). Pending until the
 * invitation is accepted (`accepted_at`). The e-mail is the person's (kept here so that every
 * tenant-scoped page reads its users alone), unique among the tenant's active memberships. A
 * removed membership stays, so that what it did keeps its author; the person may be invited again.
 */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    personId: uuid().notNull(),
    institutionId: uuid().references(() => institutions.id),
    partnerId: uuid().references(() => partners.id),
    email: text().notNull(),
    profile: text()
      .$type<'superadmin' | 'admin' | 'vendedor' | 'administrador' | 'financeiro' | 'integracao'>()
      .notNull(),
    /** Who invited them; null when the operator did (CLI). */
    invitedBy: uuid().references((): AnyPgColumn => users.id),
    createdAt: timestampNow(),
    /** When the person accepted the invitation (set a first password, or accepted signed in). */
    acceptedAt: timestamp({ withTimezone: true }),
    removedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: 'users_person_email',
      columns: [t.personId, t.email],
      foreignColumns: [people.id, people.email],
    }),
    uniqueIndex('users_active_partner_email')
      .on(t.partnerId, t.email)
      .where(sql`${t.removedAt} is null`),
    uniqueIndex('users_active_institution_email')
      .on(t.institutionId, t.email)
      .where(sql`${t.removedAt} is null`),
    index().on(t.personId),
    index().on(t.partnerId),
    index().on(t.institutionId),
    check('users_one_tenant', sql`num_nonnulls(${t.institutionId}, ${t.partnerId}) = 1`),
    check('users_email_lower', sql`${t.email} = lower(${t.email})`),
    // A profile belongs to one kind of tenant: a partner's user is never an Administrador, and so on.
    check(
      'users_profile',
      sql`(${t.partnerId} is not null and ${t.profile} in ('superadmin', 'admin', 'vendedor')) or (${t.institutionId} is not null and ${t.profile} in ('administrador', 'financeiro', 'integracao'))`,
    ),
  ],
);

/** An institution `apikey` or a partner `Api-Token`: only its SHA-256 and a visible prefix are kept. */
export const credentials = pgTable(
  'credentials',
  {
    id: uuid().primaryKey().defaultRandom(),
    institutionId: uuid().references(() => institutions.id),
    partnerId: uuid().references(() => partners.id),
    prefix: text().notNull(),
    secretHash: text().notNull(),
    createdAt: timestampNow(),
    revokedAt: timestamp({ withTimezone: true }),
    /** The panel user who issued it; null when the operator did (CLI, demo tenants). */
    createdBy: uuid().references(() => users.id),
    /** When a request last carried it, to the minute: written at most once a minute per key. */
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex().on(t.prefix),
    uniqueIndex().on(t.secretHash),
    check('credentials_one_tenant', sql`num_nonnulls(${t.institutionId}, ${t.partnerId}) = 1`),
  ],
);
