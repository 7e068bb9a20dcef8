CREATE TABLE "kept_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid,
	"connector" text NOT NULL,
	"carrier_id" text,
	"awb" text NOT NULL,
	"journey" text,
	"raw" jsonb NOT NULL,
	"reason_code" text NOT NULL,
	"reason" text NOT NULL,
	"fingerprint" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"replayed_at" timestamp with time zone,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
-- courier_polls keys a row by its subject, a shipment or (new) a return: existing rows are shipments.
ALTER TABLE "courier_polls" ADD COLUMN "subject_id" uuid;--> statement-breakpoint
UPDATE "courier_polls" SET "subject_id" = "shipment_id";--> statement-breakpoint
ALTER TABLE "courier_polls" ALTER COLUMN "subject_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "courier_polls" DROP CONSTRAINT "courier_polls_pkey";--> statement-breakpoint
ALTER TABLE "courier_polls" ADD PRIMARY KEY ("subject_id");--> statement-breakpoint
ALTER TABLE "courier_polls" ALTER COLUMN "shipment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking_events" ADD COLUMN "stated_time" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "courier_polls" ADD COLUMN "journey" text DEFAULT 'forward' NOT NULL;--> statement-breakpoint
ALTER TABLE "courier_polls" ADD COLUMN "return_id" uuid;--> statement-breakpoint
ALTER TABLE "kept_scans" ADD CONSTRAINT "kept_scans_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kept_scans_fingerprint_key" ON "kept_scans" USING btree ("fingerprint");--> statement-breakpoint
CREATE INDEX "kept_scans_account_open_idx" ON "kept_scans" USING btree ("account_id","first_seen_at") WHERE "kept_scans"."applied_at" is null;--> statement-breakpoint
CREATE INDEX "kept_scans_connector_open_idx" ON "kept_scans" USING btree ("connector","first_seen_at") WHERE "kept_scans"."applied_at" is null;--> statement-breakpoint
ALTER TABLE "courier_polls" ADD CONSTRAINT "courier_polls_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courier_polls" ADD CONSTRAINT "courier_polls_subject_check" CHECK (("courier_polls"."journey" = 'forward' and "courier_polls"."shipment_id" = "courier_polls"."subject_id" and "courier_polls"."return_id" is null) or ("courier_polls"."journey" = 'return' and "courier_polls"."return_id" = "courier_polls"."subject_id" and "courier_polls"."shipment_id" is null));