DROP INDEX "shipment_actions_carrier_open_idx";--> statement-breakpoint
ALTER TABLE "shipment_actions" ADD COLUMN "courier_reference" text;--> statement-breakpoint
ALTER TABLE "shipment_actions" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipment_actions" ADD COLUMN "refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shipment_actions" ADD COLUMN "refusal" text;--> statement-breakpoint
CREATE INDEX "shipment_actions_carrier_unconfirmed_idx" ON "shipment_actions" USING btree ("carrier_id","acknowledged_at","id") WHERE "shipment_actions"."courier_reference" is not null and "shipment_actions"."confirmed_at" is null and "shipment_actions"."refused_at" is null;--> statement-breakpoint
CREATE INDEX "shipment_actions_carrier_open_idx" ON "shipment_actions" USING btree ("carrier_id","created_at","id") WHERE "shipment_actions"."acknowledged_at" is null and "shipment_actions"."refused_at" is null;--> statement-breakpoint
-- Instructions couriers took before this change were done when taken.
UPDATE "shipment_actions" SET "confirmed_at" = "acknowledged_at" WHERE "acknowledged_at" IS NOT NULL;
