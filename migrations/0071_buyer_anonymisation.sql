CREATE TABLE "privacy_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"anonymise_after_days" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "buyer_anonymised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "buyer_anonymised_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipments_buyer_in_clear_idx" ON "shipments" USING btree ("updated_at") WHERE "shipments"."buyer_anonymised_at" is null and "shipments"."status" in ('delivered', 'rto_delivered', 'cancelled');--> statement-breakpoint
CREATE INDEX "returns_buyer_in_clear_idx" ON "returns" USING btree ("updated_at") WHERE "returns"."buyer_anonymised_at" is null and "returns"."forward_shipment_id" is null and "returns"."status" in ('return_delivered', 'return_cancelled', 'return_lost');