CREATE TABLE "shipment_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"carrier_id" text NOT NULL,
	"action" text NOT NULL,
	"requested_by" text NOT NULL,
	"attempt" integer NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "shipment_actions" ADD CONSTRAINT "shipment_actions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_actions" ADD CONSTRAINT "shipment_actions_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipment_actions_account_shipment_idx" ON "shipment_actions" USING btree ("account_id","shipment_id","created_at");--> statement-breakpoint
CREATE INDEX "shipment_actions_carrier_open_idx" ON "shipment_actions" USING btree ("carrier_id","created_at","id") WHERE "shipment_actions"."acknowledged_at" is null;