CREATE TABLE "shipment_counts" (
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"sub_status" text NOT NULL,
	"channel" text NOT NULL,
	"zone" text NOT NULL,
	"is_cod" boolean NOT NULL,
	"carrier_id" text NOT NULL,
	"attempt_count" integer NOT NULL,
	"ndr_reason" text NOT NULL,
	"rto_reason" text NOT NULL,
	"shipments" bigint NOT NULL,
	CONSTRAINT "shipment_counts_pkey" PRIMARY KEY("account_id","status","sub_status","channel","zone","is_cod","carrier_id","attempt_count","ndr_reason","rto_reason")
);
--> statement-breakpoint
CREATE TABLE "shipment_facet_counts" (
	"account_id" uuid NOT NULL,
	"facet" text NOT NULL,
	"value" text NOT NULL,
	"shipments" bigint NOT NULL,
	CONSTRAINT "shipment_facet_counts_pkey" PRIMARY KEY("account_id","facet","value")
);
--> statement-breakpoint
ALTER TABLE "shipment_counts" ADD CONSTRAINT "shipment_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_facet_counts" ADD CONSTRAINT "shipment_facet_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipments_account_store_created_idx" ON "shipments" USING btree ("account_id","store_id","created_at","id");--> statement-breakpoint
CREATE INDEX "shipments_account_weight_idx" ON "shipments" USING btree ("account_id","applied_weight_grams");--> statement-breakpoint
CREATE INDEX "shipments_account_order_date_idx" ON "shipments" USING btree ("account_id","order_date");--> statement-breakpoint
CREATE INDEX "shipments_account_updated_idx" ON "shipments" USING btree ("account_id","updated_at");--> statement-breakpoint
CREATE INDEX "shipments_account_picked_up_idx" ON "shipments" USING btree ("account_id","picked_up_at") WHERE "shipments"."picked_up_at" is not null;--> statement-breakpoint
CREATE INDEX "shipments_account_delivered_idx" ON "shipments" USING btree ("account_id","delivered_at") WHERE "shipments"."delivered_at" is not null;--> statement-breakpoint
CREATE INDEX "shipments_account_cancelled_idx" ON "shipments" USING btree ("account_id","cancelled_at") WHERE "shipments"."cancelled_at" is not null;--> statement-breakpoint
CREATE INDEX "shipments_account_rto_initiated_idx" ON "shipments" USING btree ("account_id","rto_initiated_at") WHERE "shipments"."rto_initiated_at" is not null;--> statement-breakpoint
CREATE INDEX "shipments_account_rto_delivered_idx" ON "shipments" USING btree ("account_id","rto_delivered_at") WHERE "shipments"."rto_delivered_at" is not null;