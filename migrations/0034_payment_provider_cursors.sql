-- How far the reconciliation has read Stripe's list of events for refunds and disputes whose delivery never came.
CREATE TABLE "payment_provider_cursors" (
	"provider" text PRIMARY KEY NOT NULL,
	"listed_until" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
