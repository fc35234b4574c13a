-- Each attempt keeps the headers it sent (the authorization value masked), for the panel's delivery log.
ALTER TABLE "webhook_attempts" ADD COLUMN "request_headers" jsonb;