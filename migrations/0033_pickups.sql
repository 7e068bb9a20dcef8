CREATE TABLE "pickups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"carrier_id" text NOT NULL,
	"pickup_date" date NOT NULL,
	"courier_reference" text,
	"parcels" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"checked_at" timestamp with time zone,
	"missed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "pickup_id" uuid;--> statement-breakpoint
ALTER TABLE "pickups" ADD CONSTRAINT "pickups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pickups" ADD CONSTRAINT "pickups_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pickups_account_created_idx" ON "pickups" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pickups_unchecked_idx" ON "pickups" USING btree ("pickup_date") WHERE "pickups"."checked_at" is null;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_pickup_id_pickups_id_fk" FOREIGN KEY ("pickup_id") REFERENCES "public"."pickups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipments_account_pickup_idx" ON "shipments" USING btree ("account_id","pickup_id","created_at","id") WHERE "shipments"."pickup_id" is not null;