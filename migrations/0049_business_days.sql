-- Bank business days in Brazil for PostgreSQL, which computes and filters `dias_atraso`: the
-- calendar of src/core/business-days.ts (its sources and laws are named there), written here for
-- a low cost per row and compared with it day by day (tests/platform/business-days.test.ts).
--
-- IMMUTABLE because an index holds their results (installments_paid_days_late_idx): replacing one
-- in place would leave that index answering the old calendar. A new calendar is new functions and
-- an index rebuilt on them.
--
-- What they call is fixed when they are created (SQL bodies, PostgreSQL 14 and later) or named
-- with its schema: a VACUUM or ANALYZE evaluates the index with a search_path of pg_catalog alone.

-- Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher).
CREATE FUNCTION easter_sunday(y integer) RETURNS date
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  a integer := y % 19;
  b integer := y / 100;
  c integer := y % 100;
  h integer := (19 * a + b - b / 4 - (b - (b + 8) / 25 + 1) / 3 + 15) % 30;
  l integer := (32 + 2 * (b % 4) + 2 * (c / 4) - h - c % 4) % 7;
  m integer := (a + 11 * h + 22 * l) / 451;
BEGIN
  RETURN make_date(y, (h + l - 7 * m + 114) / 31, (h + l - 7 * m + 114) % 31 + 1);
END
$$;--> statement-breakpoint

-- 0 on Mondays to 6 on Sundays (3 January 2000 was a Monday).
CREATE FUNCTION days_after_monday(d date) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ((d - date '2000-01-03') % 7 + 7) % 7;--> statement-breakpoint

-- Carnival Monday and Tuesday, Good Friday, Corpus Christi.
CREATE FUNCTION is_easter_holiday(d date) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN d - easter_sunday(date_part('year', d::timestamp)::integer) IN (-48, -47, -2, 60);--> statement-breakpoint

-- Not a Saturday, a Sunday or a national holiday. Per row this costs a few comparisons: Easter is
-- worked out only on the weekdays its holidays can fall on (Easter Sunday is from 22 March to
-- 25 April: Carnival in February or March, Good Friday in March or April, Corpus Christi, a
-- Thursday, in May or June).
CREATE FUNCTION is_business_day(d date) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN days_after_monday(d) < 5 AND CASE date_part('month', d::timestamp)
  WHEN 1 THEN date_part('day', d::timestamp) <> 1
  WHEN 2 THEN days_after_monday(d) > 1 OR NOT is_easter_holiday(d)
  WHEN 3 THEN days_after_monday(d) IN (2, 3) OR NOT is_easter_holiday(d)
  WHEN 4 THEN date_part('day', d::timestamp) <> 21 AND (days_after_monday(d) <> 4 OR NOT is_easter_holiday(d))
  WHEN 5 THEN date_part('day', d::timestamp) <> 1 AND (days_after_monday(d) <> 3 OR NOT is_easter_holiday(d))
  WHEN 6 THEN days_after_monday(d) <> 3 OR NOT is_easter_holiday(d)
  WHEN 9 THEN date_part('day', d::timestamp) <> 7
  WHEN 10 THEN date_part('day', d::timestamp) <> 12
  WHEN 11 THEN date_part('day', d::timestamp) NOT IN (2, 15)
    AND (date_part('day', d::timestamp) <> 20 OR date_part('year', d::timestamp) < 2024)
  WHEN 12 THEN date_part('day', d::timestamp) <> 25
  ELSE true
END;--> statement-breakpoint

-- The day itself when it is a business day, else the first business day after it. PL/pgSQL, so
-- that a statement calls it: written into each statement, as PostgreSQL does with a SQL body, the
-- calendar took milliseconds of planning per use; here it is planned once per session.
CREATE FUNCTION business_day_on_or_after(d date) RETURNS date
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  WHILE NOT public.is_business_day(d) LOOP
    d := d + 1;
  END LOOP;
  RETURN d;
END
$$;
