-- A sale's timeline in the panel reads the deliveries of its events (redeliveries included) by event id.
CREATE INDEX "webhook_deliveries_event" ON "webhook_deliveries" USING btree ("event_id");