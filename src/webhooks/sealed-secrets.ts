import { and, eq, isNotNull, not, or, type SQL, sql } from 'drizzle-orm';

import type { Config } from '../config.js';
import { sealedWithPattern, SecretBox } from '../core/secret-box.js';
import type { Queryable } from '../db/client.js';
import { webhookConfigurations } from '../db/schema/index.js';

/** What each sealed column holds, authenticated with it: a token never opens as a signing secret. */
const TOKEN = 'webhook authorization token';
const SIGNING_SECRET = 'webhook signing secret';

const boxes = new WeakMap<object, SecretBox>();

/** The box of the configured keys (`SECRETS_KEY`, `SECRETS_KEY_PREVIOUS`), one per configuration. */
export function secretBoxOf(config: Pick<Config, 'secretsKey' | 'previousSecretsKeys'>): SecretBox {
  let box = boxes.get(config);
  if (!box) boxes.set(config, (box = new SecretBox(config.secretsKey, config.previousSecretsKeys)));
  return box;
}

export const sealToken = (box: SecretBox, token: string | null): string | null =>
  token === null ? null : box.seal(token, TOKEN);
export const openToken = (box: SecretBox, stored: string | null): string | null =>
  stored === null ? null : box.open(stored, TOKEN);
export const sealSigningSecret = (box: SecretBox, secret: string): string => box.seal(secret, SIGNING_SECRET);
export const openSigningSecret = (box: SecretBox, stored: string | null): string | null =>
  stored === null ? null : box.open(stored, SIGNING_SECRET);

const COLUMNS = [
  { column: webhookConfigurations.authorizationToken, key: 'authorizationToken', purpose: TOKEN },
  { column: webhookConfigurations.signingSecret, key: 'signingSecret', purpose: SIGNING_SECRET },
  { column: webhookConfigurations.previousSigningSecret, key: 'previousSigningSecret', purpose: SIGNING_SECRET },
] as const;

/**
 * The data migration of secrets at rest, run by every process at start after the schema
 * migrations: each token or signing secret stored in plain text (before sealing existed), or sealed
 * with a key rotated out (`SECRETS_KEY_PREVIOUS`), is sealed again with `SECRETS_KEY`. Each row is
 * written only if it still holds what was read, so processes starting together never undo each
 * other. Answers how many configurations it sealed.
 */
export async function sealStoredSecrets(db: Queryable, box: SecretBox): Promise<number> {
  const stale = (column: (typeof COLUMNS)[number]['column']): SQL =>
    and(isNotNull(column), not(sql`${column} like ${sealedWithPattern(box.currentKeyId)}`))!;
  const rows = await db
    .select({
      id: webhookConfigurations.id,
      authorizationToken: webhookConfigurations.authorizationToken,
      signingSecret: webhookConfigurations.signingSecret,
      previousSigningSecret: webhookConfigurations.previousSigningSecret,
    })
    .from(webhookConfigurations)
    .where(or(...COLUMNS.map(({ column }) => stale(column))));
  let sealed = 0;
  for (const row of rows) {
    const changes = Object.fromEntries(
      COLUMNS.flatMap(({ key, purpose }) => {
        const stored = row[key];
        return stored === null || box.isCurrent(stored) ? [] : [[key, box.seal(box.open(stored, purpose), purpose)]];
      }),
    );
    const unchanged = COLUMNS.map(({ column, key }) =>
      row[key] === null ? sql`${column} is null` : eq(column, row[key]),
    );
    const updated = await db
      .update(webhookConfigurations)
      .set(changes)
      .where(and(eq(webhookConfigurations.id, row.id), ...unchanged))
      .returning({ id: webhookConfigurations.id });
    sealed += updated.length;
  }
  return sealed;
}
