import { eq, type SQL, sql } from 'drizzle-orm';

import type { webhookConfigurations, webhookDeliveries } from '../db/schema/index.js';

/** The tenant whose events a configuration receives: a partner (Partner API) or an institution (Institution API). */
export interface Recipient {
  kind: 'partner' | 'institution';
  id: string;
}

/** The column a row's tenant is kept in, for the engine's raw statements. */
export const recipientColumn = (recipient: Recipient): SQL =>
  recipient.kind === 'partner' ? sql.raw('partner_id') : sql.raw('institution_id');

/** A configuration or a delivery of this tenant (a row of the other kind, or of another tenant, never matches). */
export const ownedBy = (table: typeof webhookConfigurations | typeof webhookDeliveries, recipient: Recipient): SQL =>
  recipient.kind === 'partner' ? eq(table.partnerId, recipient.id) : eq(table.institutionId, recipient.id);

/** The two tenant columns of a row written for this tenant. */
export const recipientColumns = (recipient: Recipient) =>
  recipient.kind === 'partner'
    ? { partnerId: recipient.id, institutionId: null }
    : { partnerId: null, institutionId: recipient.id };

/** The tenant of a stored row (exactly one of its columns is set). */
export const recipientOf = (row: { partnerId: string | null; institutionId: string | null }): Recipient =>
  row.partnerId !== null ? { kind: 'partner', id: row.partnerId } : { kind: 'institution', id: row.institutionId! };
