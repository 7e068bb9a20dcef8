CREATE TABLE "return_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"return_id" uuid NOT NULL,
	"status" text NOT NULL,
	"sub_status" text,
	"event_time" timestamp with time zone NOT NULL,
	"location" text,
	"description" text,
	"qc_status" text,
	"qc_reason" text,
	"event_id" text,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "sub_status" text;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "qc_status" text;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "qc_reason" text;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "picked_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "return_events" ADD CONSTRAINT "return_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_events" ADD CONSTRAINT "return_events_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "return_events_event_id_key" ON "return_events" USING btree ("return_id","event_id") WHERE "return_events"."event_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "return_events_status_time_key" ON "return_events" USING btree ("return_id","status","event_time");--> statement-breakpoint
CREATE INDEX "return_events_account_return_idx" ON "return_events" USING btree ("account_id","return_id","event_time");