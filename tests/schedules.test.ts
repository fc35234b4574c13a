import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/http/logging.js';
import { applyDueSchedules } from '../src/partner/schedules.js';
import { startService } from '../src/service.js';
import { givenClass, givenCourse, jobWithKey, makeDue, postpone } from './support/catalogue.js';
import { createTestContext, type TestContext } from './support/context.js';
import { givenPartner } from './support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const DAY = 86_400_000;

describe('catalogue schedules', () => {
  let t: TestContext;
  let partner: Partner;
  let course: { id: number };

  beforeAll(async () => {
    t = await createTestContext();
    partner = await givenPartner(t.ctx);
    course = await givenCourse(t, partner.headers);
  });
  afterAll(() => t.close());

  async function classById(id: number) {
    const res = await request(t.app).get('/courses?itemsPerPage=100').set(partner.headers).expect(200);
    return res.body.content.flatMap((c: { CourseClasses: { id: number }[] }) => c.CourseClasses).find((k: { id: number }) => k.id === id);
  }

  it('makes a class invisible when its expiresAt is reached, through its job', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 2 * DAY);
    const created = await givenClass(t, partner.headers, course.id, { expiresAt: expiresAt.toISOString() });
    const job = await jobWithKey(t, `class-expiry:${created.id}`);
    expect(job?.run_at).toEqual(expiresAt);

    t.clock.set(new Date(expiresAt.getTime() - 1));
    await applyDueSchedules(t.ctx.db, t.clock.now());
    expect((await classById(created.id)).visible).toBe(true);

    t.clock.set(expiresAt);
    await makeDue(t, job!);
    await t.runJobs();
    expect(await classById(created.id)).toMatchObject({ visible: false, updatedAt: expiresAt.toISOString() });
    expect(await jobWithKey(t, `class-expiry:${created.id}`)).toBeUndefined();
  });

  it('retries a job that the database finds due before the service clock does, instead of losing it', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + DAY);
    const created = await givenClass(t, partner.headers, course.id, { expiresAt: expiresAt.toISOString() });
    await makeDue(t, (await jobWithKey(t, `class-expiry:${created.id}`))!);
    await t.runJobs();
    expect((await classById(created.id)).visible).toBe(true);
    const retry = await jobWithKey(t, `class-expiry:${created.id}`);
    expect(retry?.attempts).toBe(1);

    t.clock.set(expiresAt);
    await makeDue(t, retry!);
    await t.runJobs();
    expect((await classById(created.id)).visible).toBe(false);
  });

  it('applies on start-up what came due while the service was down', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + DAY);
    const created = await givenClass(t, partner.headers, course.id, { expiresAt: expiresAt.toISOString() });
    // Only the sweep may apply it: its job is not due by the database clock during this start.
    await postpone(t, `class-expiry:${created.id}`);
    t.clock.set(new Date(expiresAt.getTime() + DAY));
    const service = await startService({
      config: { ...t.ctx.config, databaseUrl: t.ctx.databaseUrl, port: 0 },
      role: 'worker',
      logger: createLogger('silent'),
      clock: t.clock,
    });
    await service.stop();
    expect(await classById(created.id)).toMatchObject({ visible: false, updatedAt: t.clock.now().toISOString() });
  });
});
