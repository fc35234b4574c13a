import { createHash } from 'node:crypto';

/**
 * A UUID-shaped id derived from its parts (name-based, like UUID v5 but over SHA-256): the same
 * parts always give the same id, for things identified by natural keys rather than stored rows.
 */
export function stableId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID, the shape of the ids PostgreSQL's `uuid` columns accept. */
export const isUuid = (value: string): boolean => UUID.test(value);
