import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { useTestContext } from '../support/context.js';

describe('health and readiness', () => {
  const t = useTestContext();

  it('GET /health answers while the process is up, without credentials', async () => {
    const res = await request(t.app).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /ready answers 200 when the database is reachable and every migration is applied', async () => {
    const res = await request(t.app).get('/ready').expect(200);
    expect(res.body).toEqual({ status: 'ready' });
  });

  it('GET /ready answers 503 while a migration of this build is missing', async () => {
    await t.ctx.db.execute(sql`create table drizzle.migrations_backup as select * from drizzle.__drizzle_migrations`);
    await t.ctx.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    try {
      const res = await request(t.app).get('/ready').expect(503);
      expect(res.body).toEqual({ status: 'migrations pending' });
    } finally {
      await t.ctx.db.execute(
        sql`insert into drizzle.__drizzle_migrations select * from drizzle.migrations_backup on conflict do nothing`,
      );
    }
  });
});
