import postgres from 'postgres';

/** Whether the database answers, asked on a connection of its own so that a full or stuck pool does not decide. */
export interface DatabaseProbe {
  /** True when `select 1` answers within `timeoutMs`. */
  check(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function createDatabaseProbe(url: string): DatabaseProbe {
  let client: postgres.Sql | undefined;
  const drop = (sql: postgres.Sql) => {
    if (client === sql) client = undefined;
    // Not awaited, its failure of no consequence: the connection is dropped because it failed or hangs.
    sql.end({ timeout: 0 }).catch(() => {});
  };
  return {
    async check(timeoutMs) {
      // Opened at the first check; idle, its connection closes by itself.
      const sql = (client ??= postgres(url, { max: 1, connect_timeout: 5, idle_timeout: 30, onnotice: () => {} }));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      try {
        const answered = await Promise.race([
          sql`select 1`.then(
            () => true,
            () => false,
          ),
          late,
        ]);
        // A connection that failed or hangs (a frozen server keeps it open) is dropped; the next check opens another.
        if (!answered) drop(sql);
        return answered;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      const sql = client;
      client = undefined;
      await sql?.end({ timeout: 0 });
    },
  };
}
