import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { createLogger } from '../../../src/http/logging.js';
import { applyDueSchedules } from '../../../src/partner/catalogue/schedules.js';
import { startService } from '../../../src/service.js';
import { givenCampaign } from '../../support/campaigns.js';
import { givenClass, givenCourse, jobWithKey, makeDue, postpone } from '../../support/catalogue.js';
import { useTestContext } from '../../support/context.js';
import { givenPartner } from '../../support/tenants.js';

type Partner = Awaited<ReturnType<typeof givenPartner>>;
const DAY = 86_400_000;

describe('catalogue schedules', () => {
  const t = useTestContext();
  let partner: Partner;
  let course: { id: number };
  let lifetime: { id: number };

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
    course = await givenCourse(t, partner.headers);
    lifetime = await givenClass(t, partner.headers, course.id);
  });

  const campaign = (name: string, schedule: { startsAt?: Date; endsAt?: Date }) =>
    givenCampaign(t, partner, {
      name,
      checkout_price_in_cents: 300000,
      courses: [{ id: course.id, courseClassId: lifetime.id }],
      startsAt: schedule.startsAt?.toISOString(),
      endsAt: schedule.endsAt?.toISOString(),
    });
  const later = (ms: number) => new Date(t.clock.now().getTime() + ms);

  async function campaignById(id: string) {
    const res = await request(t.app).get('/campaigns?limit=100').set(partner.headers).expect(200);
    return res.body.content.find((c: { id: string }) => c.id === id);
  }

  async function classById(id: number) {
    const res = await request(t.app).get('/courses?itemsPerPage=100').set(partner.headers).expect(200);
    return res.body.content
      .flatMap((c: { CourseClasses: { id: number }[] }) => c.CourseClasses)
      .find((k: { id: number }) => k.id === id);
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

  it('activates a campaign created with a future startsAt at that instant, through its job', async () => {
    const startsAt = later(3 * DAY);
    const created = await campaign('Matrículas Abertas', { startsAt });
    expect(created).toMatchObject({ active: false, startsAt: startsAt.toISOString() });
    const job = await jobWithKey(t, `campaign-start:${created.id}`);
    expect(job?.run_at).toEqual(startsAt);

    t.clock.set(new Date(startsAt.getTime() - 1));
    await applyDueSchedules(t.ctx.db, t.clock.now());
    expect((await campaignById(created.id)).active).toBe(false);

    t.clock.set(startsAt);
    await makeDue(t, job!);
    await t.runJobs();
    expect(await campaignById(created.id)).toMatchObject({ active: true, updatedAt: startsAt.toISOString() });
  });

  it('deactivates a campaign at its endsAt, through its job', async () => {
    const endsAt = later(10 * DAY);
    const created = await campaign('Semana do Consumidor', { endsAt });
    expect(created.active).toBe(true);
    const job = await jobWithKey(t, `campaign-end:${created.id}`);
    expect(job?.run_at).toEqual(endsAt);

    t.clock.set(new Date(endsAt.getTime() - 1));
    await applyDueSchedules(t.ctx.db, t.clock.now());
    expect((await campaignById(created.id)).active).toBe(true);

    t.clock.set(endsAt);
    await makeDue(t, job!);
    await t.runJobs();
    expect(await campaignById(created.id)).toMatchObject({ active: false, updatedAt: endsAt.toISOString() });
  });

  it('keeps a campaign without endsAt active: nothing deactivates it', async () => {
    const created = await campaign('Sempre Aberta', {});
    expect(await jobWithKey(t, `campaign-end:${created.id}`)).toBeUndefined();
    t.clock.set(later(400 * DAY));
    await applyDueSchedules(t.ctx.db, t.clock.now());
    expect((await campaignById(created.id)).active).toBe(true);
  });

  it('applies on start-up what came due while the service was down', async () => {
    const expiresAt = later(DAY);
    const created = await givenClass(t, partner.headers, course.id, { expiresAt: expiresAt.toISOString() });
    const starting = await campaign('Começa Fora do Ar', { startsAt: later(DAY) });
    const missed = await campaign('Começa e Acaba Fora do Ar', {
      startsAt: later(DAY),
      endsAt: later(DAY + 3_600_000),
    });
    // Only the sweep may apply them: their jobs are not due by the database clock during this start.
    for (const key of [
      `class-expiry:${created.id}`,
      `campaign-start:${starting.id}`,
      `campaign-start:${missed.id}`,
      `campaign-end:${missed.id}`,
    ])
      await postpone(t, key);
    t.clock.set(new Date(expiresAt.getTime() + DAY));
    const service = await startService({
      config: { ...t.ctx.config, databaseUrl: t.ctx.databaseUrl, port: 0 },
      role: 'worker',
      logger: createLogger('silent'),
      clock: t.clock,
    });
    await service.stop();
    expect(await classById(created.id)).toMatchObject({ visible: false, updatedAt: t.clock.now().toISOString() });
    expect((await campaignById(starting.id)).active).toBe(true);
    // Its start and its end both passed while down: it never became active.
    expect((await campaignById(missed.id)).active).toBe(false);
  });
});
