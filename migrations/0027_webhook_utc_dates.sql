-- Events stored before the UTC twins existed get them, so that GET /events answers one shape: each
-- checkout date (Brasília wall-clock time written with Z) read as Brasília time and written in UTC.
-- Deliveries keep the exact bytes their attempts send (webhook_deliveries.body is not rewritten).
UPDATE "sale_events" SET "payload" = jsonb_set("payload", '{checkout}', ("payload"->'checkout') || (
  SELECT jsonb_object_agg(key || 'Utc', CASE
    WHEN jsonb_typeof(value) = 'string'
      THEN to_jsonb(to_char((value #>> '{}')::timestamp AT TIME ZONE 'America/Sao_Paulo' AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    ELSE 'null'::jsonb
  END)
  FROM jsonb_each("payload"->'checkout')
  WHERE key IN ('createdAt', 'updatedAt', 'canceledAt', 'madeEffectiveAt')
))
WHERE "payload" ? 'checkout' AND NOT ("payload"->'checkout' ? 'createdAtUtc');
