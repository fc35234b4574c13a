-- Each API process keeps the tenant of the keys it has seen in memory (src/tenants/key-cache.ts) and
-- LISTENs on this channel to forget a key the moment it changes. A trigger rather than the code that
-- revokes: it catches every writer (the panel, the CLI, a hand-written statement), and a NOTIFY is
-- delivered on commit only, so a rolled-back revocation forgets nothing. last_used_at is left out:
-- writing it must not empty the caches.
CREATE FUNCTION notify_credential_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('credential_changes', 'all');
  ELSIF TG_TABLE_NAME = 'credentials' THEN
    PERFORM pg_notify('credential_changes', 'key ' || OLD.id);
  ELSE
    PERFORM pg_notify('credential_changes', 'tenant ' || OLD.id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER credentials_changed AFTER UPDATE OF id, secret_hash, revoked_at, institution_id, partner_id OR DELETE
  ON credentials FOR EACH ROW EXECUTE FUNCTION notify_credential_change();--> statement-breakpoint
CREATE TRIGGER credentials_truncated AFTER TRUNCATE ON credentials
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();--> statement-breakpoint
CREATE TRIGGER institutions_changed AFTER UPDATE OF id, name OR DELETE
  ON institutions FOR EACH ROW EXECUTE FUNCTION notify_credential_change();--> statement-breakpoint
CREATE TRIGGER institutions_truncated AFTER TRUNCATE ON institutions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();--> statement-breakpoint
CREATE TRIGGER partners_changed AFTER UPDATE OF id, name OR DELETE
  ON partners FOR EACH ROW EXECUTE FUNCTION notify_credential_change();--> statement-breakpoint
CREATE TRIGGER partners_truncated AFTER TRUNCATE ON partners
  FOR EACH STATEMENT EXECUTE FUNCTION notify_credential_change();
