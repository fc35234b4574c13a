/**
 * The value a table keeps under `key` itself, never one its prototype lends: a lookup by a name a
 * client chose (`?aviso=constructor`, `__proto__`, `toString`) would otherwise answer a built-in.
 */
export function ownEntry<Value>(table: Readonly<Record<string, Value>>, key: unknown): Value | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}
