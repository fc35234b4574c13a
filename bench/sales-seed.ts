import type postgres from 'postgres';

const CHUNK = 50_000;
const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Daniel',
  'Eduarda',
  'Felipe',
  'Gabriela',
  'Heitor',
  'Isabela',
  'João',
  'Larissa',
  'Marcos',
  'Natália',
  'Otávio',
  'Paula',
  'Rafael',
  'Sofia',
  'Thiago',
  'Vitória',
  'Lucas',
  'Mariana',
  'Pedro',
  'Beatriz',
  'Gustavo',
  'Júlia',
  'Caio',
  'Letícia',
  'André',
  'Camila',
  'Diego',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
];
/** Out of 100 sales: where they stand in the state machine. */
const STATUS_SHARE: [string, number][] = [
  ['not_logged', 8],
  ['in_progress', 15],
  ['waiting_payment', 10],
  ['guarantor_needed', 2],
  ['financing_analysis', 3],
  ['denied', 1],
  ['made_effective', 35],
  ['canceled', 4],
  ['canceled_by_partner', 5],
  ['expired', 17],
];
const STATUSES = STATUS_SHARE.flatMap(([status, share]) => Array<string>(share).fill(status));
/** Seven creators per partner: the API integration for half the sales, six consultants for the rest. */
export const creatorsOf = (prefix: string) => [
  'API',
  ...[1, 2, 3, 4, 5, 6].map((n) => `consultor${n}@escola-${prefix.toLowerCase()}.com.br`),
];

export type SeedPartner = { id: string; prefix: string; rows: number };

/** Twenty courses of two classes each (one remote, one on campus); the classes as [courseId, classId, price]. */
export async function seedCatalogue(
  sql: postgres.Sql,
  p: Pick<SeedPartner, 'id' | 'prefix'>,
): Promise<[number, number, number][]> {
  const [area] = await sql<{ id: number }[]>`select id from micro_area_groups order by id limit 1`;
  const courses = await sql<{ id: number; n: number }[]>`
    insert into courses (partner_id, micro_area_id, name, description, price_in_cents, product_type, show_on_website, has_selection_process, workload, creator, internal_partner_product_id)
    select ${p.id}, ${area!.id}, 'Curso ' || n, 'Curso livre ' || n, 100000 + n * 5000, 'COURSE', true, false, 40 + n, 'API', ${p.prefix} || '-SKU-' || n
    from generate_series(1, 20) n returning id, (price_in_cents - 100000) / 5000 as n`;
  const classes = await sql<{ course_id: number; id: number; price_in_cents: number }[]>`
    insert into course_classes (partner_id, course_id, name, visible, type_id, modality_id, attend_type_id, period_id, partner_sku, price_in_cents, grace_period_days)
    select ${p.id}, c.id, 'Turma ' || m, true, 1, m, 1, case when m = 1 then 1 end, 'T' || c.id || '-' || m, 100000 + c.n * 5000 - m * 1000, 30
    from jsonb_to_recordset(${JSON.stringify(courses.map((c) => ({ id: c.id, n: c.n })))}::jsonb) as c(id int, n int), generate_series(1, 2) m
    returning course_id, id, price_in_cents`;
  return classes.map((c) => [c.course_id, c.id, c.price_in_cents]);
}

/** Three campaigns of the partner; the ids. */
async function seedCampaigns(sql: postgres.Sql, p: SeedPartner): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    insert into campaigns (partner_id, name, slug, name_key, running_days_to_first_installment, running_days_to_expire, checkout_price_in_cents,
      total_amount_in_cents, max_installments_to_apply, custom_identifier, payment_methods, active, starts_at)
    select ${p.id}, 'Campanha ' || n, 'campanha-' || n, 'campanha ' || n, 30, 7, 200000, 250000, 12, ${p.prefix} || '-CAMP-' || n, array['pix','boleto'], true, now()
    from generate_series(1, 3) n returning id`;
  return rows.map((r) => r.id);
}

/**
 * Sales `from..to` of a partner (its i-th sale created i/rows of the way through two years), each
 * with one course (one in ten with two), spread over the state machine with the dates its status
 * implies, a buyer per 1.25 sales, seven creators and three campaigns.
 */
async function seedChunk(
  sql: postgres.Sql,
  p: SeedPartner,
  classes: [number, number, number][],
  campaignIds: string[],
  from: number,
  to: number,
) {
  const k = classes.length;
  await sql`
    with picked as (
      select i, (${sql.array(STATUSES)}::text[])[1 + (i::bigint * 7919) % 100] as status, i % (${p.rows}::int * 4 / 5) as buyer,
        timestamptz '2024-11-22 09:00:00-03' + (i::float8 / ${p.rows}::int) * interval '730 days' as created,
        (${sql.array(classes.map((c) => c[2]))}::int[])[1 + i % ${k}::int] + case when i % 10 = 0 then (${sql.array(classes.map((c) => c[2]))}::int[])[1 + (i + 7) % ${k}::int] else 0 end as price
      from generate_series(${from}::int, ${to}::int) i
    ), named as (
      select *, (${sql.array(FIRST)}::text[])[1 + buyer % 30] || ' ' || (${sql.array(LAST)}::text[])[1 + (buyer / 30) % 30] || ' ' || (${sql.array(LAST)}::text[])[1 + (buyer / 900) % 30] as buyer_name,
        case when status in ('made_effective', 'canceled') then created + (i % 5) * interval '1 day' + interval '2 hours' end as effective
      from picked
    ), inserted as (
      insert into sales (partner_id, origin, status, product_type, external_sale_id, cpf, checkout_price_in_cents, upfront_in_cents, installments_to_apply,
        max_installments_to_apply, running_days_to_first_installment, running_days_to_expire, campaign_id, creator, buyer_name, buyer_email, buyer_phone,
        name_key, email_key, checkout_token, payment_method, made_effective_at, canceled_at, released_on, created_at, updated_at)
      select ${p.id}, case when i % 20 = 0 then 'CAMPAIGN' when i % 4 = 0 then 'EXCLUSIVE_SALE' else 'PLATFORM_PAY' end, status, 'COURSE',
        'PED-' || ${p.prefix} || '-' || (i - (i % 40 = 1)::int), lpad((buyer::bigint * 7919 + 10203040)::text, 11, '0'), price, price / 10, 12, 12, 30, 7,
        case when i % 20 = 0 then (${sql.array(campaignIds)}::uuid[])[1 + i % 3] end,
        (${sql.array(creatorsOf(p.prefix))}::text[])[case when i % 2 = 0 then 1 else 2 + i % 6 end], buyer_name,
        lower(translate(buyer_name, ' áéíóúãõçâêô', '.aeiouaocaeo')) || buyer || '@exemplo.com.br', '119' || lpad((buyer % 100000000)::text, 8, '0'),
        lower(translate(buyer_name, 'áéíóúãõçâêô', 'aeiouaocaeo')), lower(translate(buyer_name, ' áéíóúãõçâêô', '.aeiouaocaeo')) || buyer || '@exemplo.com.br',
        ${p.prefix} || '-' || i, case when status not in ('not_logged', 'in_progress') then (array['pix','boleto','credit_card','financing'])[1 + i % 4] end,
        effective, case when status = 'canceled' then effective + interval '10 days' end,
        (effective + interval '15 days')::date,
        created, coalesce(effective, created + interval '30 minutes')
      from named
      returning id, split_part(checkout_token, '-', 2)::int as i
    )
    insert into sale_items (sale_id, position, course_id, course_class_id, price_in_cents)
    select id, n, (${sql.array(classes.map((c) => c[0]))}::int[])[1 + (i + (n - 1) * 7) % ${k}::int], (${sql.array(classes.map((c) => c[1]))}::int[])[1 + (i + (n - 1) * 7) % ${k}::int],
      (${sql.array(classes.map((c) => c[2]))}::int[])[1 + (i + (n - 1) * 7) % ${k}::int]
    from inserted, generate_series(1, case when i % 10 = 0 then 2 else 1 end) n`;
}

/**
 * The partners' sales, written chunk by chunk in turn so that their rows interleave on disk as
 * they would in production; the counters follow through their trigger, once per chunk.
 */
export async function seedSales(sql: postgres.Sql, partners: SeedPartner[]): Promise<void> {
  const catalogue = new Map<string, { classes: [number, number, number][]; campaigns: string[] }>();
  for (const p of partners)
    catalogue.set(p.id, { classes: await seedCatalogue(sql, p), campaigns: await seedCampaigns(sql, p) });
  const largest = Math.max(...partners.map((p) => p.rows));
  for (let step = 0; step * CHUNK < largest; step++) {
    for (const p of partners) {
      const size = Math.ceil((CHUNK * p.rows) / largest);
      const from = step * size + 1;
      const to = Math.min(p.rows, from + size - 1);
      if (from > to) continue;
      await seedChunk(sql, p, catalogue.get(p.id)!.classes, catalogue.get(p.id)!.campaigns, from, to);
      process.stdout.write(`\rsales ${p.prefix}: ${to.toLocaleString('en')} / ${p.rows.toLocaleString('en')}   `);
    }
  }
  process.stdout.write('\n');
}
