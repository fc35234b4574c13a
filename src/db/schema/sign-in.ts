import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { timestampNow } from './common.js';
import { people, users } from './tenants.js';

/**
 * A signed-in browser: a person, acting for one of their memberships (`user_id`), or, between a
 * sign-in and the choice of one of several, for none yet. The cookie holds a random token; only its
 * SHA-256 is kept. A session ends at `expires_at`, or when idle for longer than the idle limit
 * since `last_seen_at` (written at most once a minute), or when deleted (sign-out, password
 * change, removal of its membership, a switch to another membership).
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    personId: uuid()
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    /** The synchronizer token every form of this session carries back. */
    csrfToken: text().notNull(),
    createdAt: timestampNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.personId), index().on(t.userId), index().on(t.expiresAt)],
);

/**
 * A one-time link sent for a membership: an invitation (sets the person's first password, or is
 * accepted signed in by a person who has one) or a password reset (of the person).
 * Only the token's SHA-256 is kept; `used_at` makes it single-use.
 */
export const userLinks = pgTable(
  'user_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().$type<'invitation' | 'password_reset'>().notNull(),
    /**
     * Shown on a tenant administrator's page (not only mailed): such a link sets the password of a
     * person who belongs to that tenant alone, so that no tenant hands out a way into another.
     */
    shown: boolean().notNull().default(false),
    tokenHash: text().notNull(),
    createdAt: timestampNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex().on(t.tokenHash), index().on(t.userId)],
);

/**
 * Failed sign-ins counted per key (`email:<address>`, known or not, and `ip:<address>`) in a window;
 * past the limit the key is locked until `locked_until`. Shared by every API process.
 */
export const signInThrottle = pgTable(
  'sign_in_throttle',
  {
    key: text().primaryKey(),
    failures: integer().notNull(),
    windowStartedAt: timestamp({ withTimezone: true }).notNull(),
    lockedUntil: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.windowStartedAt)],
);

/**
 * A one-time form of the panel that created something (a sale, a token, an invitation, a webhook…),
 * so that a second submission of it answers what the first made instead of making it again. Keyed
 * by the SHA-256 of the form id (the id itself, which opens `sealed_secret`, stays in the page);
 * `result` names what was made. A secret shown once (a token, a link) is kept sealed until
 * `secret_until` only; the row goes once its form id has expired.
 */
export const sentForms = pgTable(
  'sent_forms',
  {
    formHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    /** When the page holding the form was shown (from the form id). */
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    result: jsonb().notNull(),
    sealedSecret: text(),
    secretUntil: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.issuedAt), index().on(t.secretUntil)],
);
