import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';

import { UsageError } from '../../src/cli/commands/command.js';
import { partnerSettingsCommands } from '../../src/cli/commands/partner-settings.js';
import { courseBody } from '../support/catalogue.js';
import { useTestContext } from '../support/context.js';
import { givenPartner } from '../support/tenants.js';

const command = partnerSettingsCommands['partner:settings']!;

describe('npm run admin -- partner:settings', () => {
  const t = useTestContext();
  let partner: Awaited<ReturnType<typeof givenPartner>>;

  beforeAll(async () => {
    partner = await givenPartner(t.ctx);
  });

  const run = (options: Record<string, string>) => command.run(t.ctx.db, { partner: partner.id, ...options }, []);

  it('shows the defaults of a partner nobody configured: fixed plan, no grace period, no default upfront', async () => {
    expect(await run({})).toEqual({
      partner: partner.id,
      plan: 'fixed',
      minimumSaleInCents: null,
      defaultGracePeriodDays: 0,
      defaultUpfrontInCents: null,
    });
  });

  it('puts a partner on a flexible plan, whose minimum then governs course prices', async () => {
    expect(await run({ plan: 'flexible', 'min-sale-cents': '1500' })).toMatchObject({
      plan: 'flexible',
      minimumSaleInCents: 1500,
    });
    await request(t.app)
      .post('/courses')
      .set(partner.headers)
      .send(courseBody({ price: 15 }))
      .expect(201);
    expect(
      (
        await request(t.app)
          .post('/courses')
          .set(partner.headers)
          .send(courseBody({ price: 14 }))
          .expect(400)
      ).body.code,
    ).toBe('COURSE-002');
  });

  it('sets the default grace period and upfront, keeping the plan', async () => {
    expect(await run({ 'grace-period-days': '10', 'default-upfront-cents': '50000' })).toMatchObject({
      plan: 'flexible',
      defaultGracePeriodDays: 10,
      defaultUpfrontInCents: 50000,
    });
    const res = await request(t.app).post('/courses').set(partner.headers).send(courseBody()).expect(201);
    expect(res.body.content.gracePeriod).toBe(10);
  });

  it('drops the minimum when going back to a fixed plan, where 30 reais applies again', async () => {
    expect(await run({ plan: 'fixed' })).toMatchObject({ plan: 'fixed', minimumSaleInCents: null });
    expect(
      (
        await request(t.app)
          .post('/courses')
          .set(partner.headers)
          .send(courseBody({ price: 29 }))
          .expect(400)
      ).body.code,
    ).toBe('COURSE-002');
  });

  it('refuses inconsistent or malformed settings without changing anything', async () => {
    await expect(run({ plan: 'flexible' })).rejects.toThrow(
      new UsageError('a flexible plan needs a minimum sale value'),
    );
    await expect(run({ 'min-sale-cents': '2000' })).rejects.toThrow(
      new UsageError('a minimum sale value applies only to a flexible plan'),
    );
    await expect(run({ plan: 'premium' })).rejects.toThrow(UsageError);
    await expect(run({ 'grace-period-days': '-1' })).rejects.toThrow(UsageError);
    await expect(run({ 'min-sale-cents': '12.5', plan: 'flexible' })).rejects.toThrow(UsageError);
    expect(await run({})).toMatchObject({ plan: 'fixed', minimumSaleInCents: null, defaultGracePeriodDays: 10 });
  });

  it('refuses an unknown partner', async () => {
    await expect(command.run(t.ctx.db, { partner: '00000000-0000-4000-8000-000000000000' }, [])).rejects.toThrow(
      UsageError,
    );
    await expect(command.run(t.ctx.db, {}, [])).rejects.toThrow(new UsageError('partner:settings needs --partner ID'));
  });
});
