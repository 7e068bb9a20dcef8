ALTER TABLE "orders" ADD COLUMN "channel_ref" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "company_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "total_discount_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vendor_details" jsonb;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "expected_pickup_date" date;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "expected_delivery_date" date;--> statement-breakpoint
ALTER TABLE "warehouses" ADD COLUMN "gst_no" text;