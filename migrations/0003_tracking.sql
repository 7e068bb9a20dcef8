CREATE TABLE "carrier_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"carrier_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tracking_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"status" text NOT NULL,
	"sub_status" text,
	"event_time" timestamp with time zone NOT NULL,
	"location" text,
	"description" text,
	"ndr_reason" text,
	"rto_reason" text,
	"event_id" text,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracking_events" ADD CONSTRAINT "tracking_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_events" ADD CONSTRAINT "tracking_events_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_tokens_token_hash_key" ON "carrier_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_events_event_id_key" ON "tracking_events" USING btree ("shipment_id","event_id") WHERE "tracking_events"."event_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_events_status_time_key" ON "tracking_events" USING btree ("shipment_id","status","event_time");--> statement-breakpoint
CREATE INDEX "tracking_events_account_shipment_idx" ON "tracking_events" USING btree ("account_id","shipment_id","event_time");--> statement-breakpoint
CREATE INDEX "shipments_account_status_created_idx" ON "shipments" USING btree ("account_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "shipments_account_carrier_created_idx" ON "shipments" USING btree ("account_id","carrier_id","created_at","id");--> statement-breakpoint
CREATE INDEX "shipments_account_warehouse_created_idx" ON "shipments" USING btree ("account_id","warehouse_id","created_at","id");--> statement-breakpoint
CREATE INDEX "shipments_search_trgm_idx" ON "shipments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "shipments_skus_idx" ON "shipments" USING gin ("skus");--> statement-breakpoint
CREATE INDEX "shipments_tags_idx" ON "shipments" USING gin ("tags");