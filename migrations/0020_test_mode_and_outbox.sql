ALTER TABLE "shipments" ADD COLUMN "test_mode" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "subject" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "body_text" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "body_html" text;--> statement-breakpoint
-- Bookings made before this column: waybills in Dakiya's own series (the service's prefix and ten
-- digits, drawn for push and sandbox services) were issued by no courier.
UPDATE "shipments" SET "test_mode" = true WHERE "awb" ~ '^[A-Z][A-Z0-9]{1,4}[0-9]{10}$';
