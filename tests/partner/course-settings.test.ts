import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';

import { UsageError } from '../../src/cli/commands/command.js';
import { courseSettingsCommands } from '../../src/cli/commands/course-settings.js';
import { partnerSettingsCommands } from '../../src/cli/commands/partner-settings.js';
import { usePartnersWithCatalogues } from '../support/campaigns.js';
import { useTestContext } from '../support/context.js';

const courseCommand = courseSettingsCommands['course:settings']!;
const partnerCommand = partnerSettingsCommands['partner:settings']!;

describe('npm run admin -- course:settings', () => {
  const t = useTestContext();
  const f = usePartnersWithCatalogues(t);

  const course = (id: number, options: Record<string, string> = {}) =>
    courseCommand.run(t.ctx.db, { partner: f.partner.id, course: String(id), ...options }, []);
  const both = () => [
    { id: f.c.nursing.id, courseClassId: f.c.nursingRemote.id },
    { id: f.c.excel.id, courseClassId: f.c.excelRemote.id },
  ];
  const sell = (extra: Record<string, unknown> = {}) =>
    request(t.app)
      .post('/sales/exclusive-sale')
      .set(f.partner.headers)
      .send({ cpf: '39053344705', checkout_price_in_cents: 800000, courses: both(), ...extra });
  const upfrontOf = async (saleId: number) =>
    (
      await t.ctx.db.execute<{ upfront: number }>(
        sql`select upfront_in_cents::int as upfront from sales where id = ${saleId}`,
      )
    )[0]!.upfront;

  it('shows a course without a default of its own: the partner’s applies', async () => {
    expect(await course(f.c.nursing.id)).toEqual({
      partner: f.partner.id,
      course: f.c.nursing.id,
      name: 'Técnico em Enfermagem',
      defaultUpfrontInCents: null,
      effectiveDefaultUpfrontInCents: null,
    });
  });

  it('the largest default of the courses sold applies, a course without one counting the partner’s', async () => {
    await partnerCommand.run(t.ctx.db, { partner: f.partner.id, 'default-upfront-cents': '20000' }, []);
    expect(await course(f.c.excel.id, { 'default-upfront-cents': '30000' })).toMatchObject({
      defaultUpfrontInCents: 30000,
      effectiveDefaultUpfrontInCents: 30000,
    });
    expect(await course(f.c.nursing.id)).toMatchObject({ effectiveDefaultUpfrontInCents: 20000 });
    // Excel's own 30000 beats the partner's 20000 that nursing falls back to.
    expect((await sell({ upfront_amount_in_cents: 29999 }).expect(400)).body.code).toBe('SALE-003');
    expect(await upfrontOf((await sell().expect(201)).body.content.id)).toBe(30000);

    await course(f.c.nursing.id, { 'default-upfront-cents': '45000' });
    expect((await sell({ upfront_amount_in_cents: 44999 }).expect(400)).body.code).toBe('SALE-003');
    expect(await upfrontOf((await sell().expect(201)).body.content.id)).toBe(45000);

    // Dropping both courses' own defaults leaves the partner's.
    expect(await course(f.c.nursing.id, { 'default-upfront-cents': 'none' })).toMatchObject({
      defaultUpfrontInCents: null,
      effectiveDefaultUpfrontInCents: 20000,
    });
    await course(f.c.excel.id, { 'default-upfront-cents': 'none' });
    expect(await upfrontOf((await sell().expect(201)).body.content.id)).toBe(20000);
    await partnerCommand.run(t.ctx.db, { partner: f.partner.id, 'default-upfront-cents': '0' }, []);
  });

  it('a course default not below the price refuses the sale (SALE-014)', async () => {
    await course(f.c.excel.id, { 'default-upfront-cents': '800000' });
    expect((await sell().expect(400)).body.code).toBe('SALE-014');
    await course(f.c.excel.id, { 'default-upfront-cents': 'none' });
  });

  it('refuses another partner’s course, an unknown one and values that are not cents', async () => {
    await expect(course(f.theirs.excel.id)).rejects.toThrow(
      new UsageError(`partner ${f.partner.id} has no course ${f.theirs.excel.id}`),
    );
    await expect(course(999999)).rejects.toThrow(UsageError);
    await expect(course(f.c.excel.id, { 'default-upfront-cents': '-1' })).rejects.toThrow(UsageError);
    await expect(course(f.c.excel.id, { 'default-upfront-cents': '1.5' })).rejects.toThrow(UsageError);
    await expect(courseCommand.run(t.ctx.db, { partner: f.partner.id }, [])).rejects.toThrow(
      new UsageError('course:settings needs --partner ID and --course ID'),
    );
    const [theirs] = await t.ctx.db.execute<{ upfront: number | null }>(
      sql`select default_upfront_in_cents as upfront from courses where id = ${f.theirs.excel.id}`,
    );
    expect(theirs!.upfront).toBeNull();
  });
});
