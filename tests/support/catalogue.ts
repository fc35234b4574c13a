import { sql } from 'drizzle-orm';
import request from 'supertest';
import { expect } from 'vitest';

import type { components } from '../../generated/partner.js';
import type { TestContext } from './context.js';

type Headers = Record<string, string>;
type Schemas = components['schemas'];
/** Fields set over a valid body, including values the contract refuses: what a refusal test sends. */
type Body = Record<string, unknown>;

const VALID_COURSE = {
  MicroAreaId: 1,
  name: 'Técnico em Enfermagem',
  description: 'Formação técnica com estágio supervisionado.',
  hasSelectionProcess: false,
  visible: true,
  workload: 1200,
  price: 4500,
} satisfies Schemas['CourseInput'];

export const courseBody = (overrides: Body = {}): Body => ({ ...VALID_COURSE, ...overrides });

/** A remote, recorded, lifetime subscription: the class with the fewest conditional fields. */
export const classBody = (CourseId: number, overrides: Body = {}): Body => ({
  ...({
    CourseId,
    name: 'Acesso Vitalício',
    visible: true,
    CourseClassTypeId: 2,
    CourseClassModalityId: 1,
    CourseClassAttendTypeId: 2,
    CourseClassDurationId: 5,
  } satisfies Schemas['CourseClassInput']),
  ...overrides,
});

const VALID_CAMPUS = {
  name: 'Unidade Paulista',
  zipCode: '01310100',
  street: 'Avenida Paulista',
  number: '1578',
  district: 'Bela Vista',
  city: 'São Paulo',
  state: 'SP',
} satisfies Schemas['CampusInput'];

export const campusBody = (overrides: Body = {}): Body => ({ ...VALID_CAMPUS, ...overrides });

async function created(t: TestContext, headers: Headers, path: string, body: Body) {
  const res = await request(t.app).post(path).set(headers).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.content;
}

export const givenCourse = (t: TestContext, headers: Headers, overrides: Body = {}) =>
  created(t, headers, '/courses', courseBody(overrides));
export const givenClass = (t: TestContext, headers: Headers, courseId: number, overrides: Body = {}) =>
  created(t, headers, '/course-classes', classBody(courseId, overrides));
export const givenCampus = (t: TestContext, headers: Headers, overrides: Body = {}) =>
  created(t, headers, '/campuses', campusBody(overrides));

/** Rows of a table, to prove that a refused request wrote nothing. */
export async function countRows(
  t: TestContext,
  table: 'courses' | 'course_classes' | 'campuses' | 'campaigns' | 'campaign_courses',
): Promise<number> {
  const rows = await t.ctx.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return rows[0]!.n;
}

export type JobRow = {
  id: string;
  task_identifier: string;
  key: string | null;
  run_at: Date;
  payload: unknown;
  attempts: number;
};

/**
 * The pending graphile-worker job with this key, if any. The public view of graphile-worker 0.17
 * has no payload, so it is read from the table behind it.
 */
export async function jobWithKey(t: TestContext, key: string): Promise<JobRow | undefined> {
  const rows = await t.ctx.db.execute<Omit<JobRow, 'run_at'> & { run_at: string }>(sql`
    select j.id::text, j.task_identifier, j.key, j.run_at::text, p.payload, j.attempts
    from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
    where j.key = ${key}`);
  return rows[0] && { ...rows[0], run_at: new Date(rows[0].run_at) };
}

/** Makes a pending job due by the database clock, whatever the machine's date, so runJobs() runs it. */
export async function makeDue(t: TestContext, job: JobRow): Promise<void> {
  await t.ctx.db.execute(sql`select graphile_worker.reschedule_jobs(array[${job.id}]::bigint[], run_at => now())`);
}

/** Moves a pending job a day into the database's future, so that no worker runs it meanwhile. */
export async function postpone(t: TestContext, key: string): Promise<void> {
  await t.ctx.db.execute(sql`
    select graphile_worker.reschedule_jobs(array_agg(id), run_at => now() + interval '1 day')
    from graphile_worker.jobs where key = ${key}`);
}
