ALTER TABLE "shipments" ADD COLUMN "track_token" text DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "support_phone" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "notify_events" text[] DEFAULT '{shipped,out_for_delivery,delivered,ndr_raised,rto_delivered}'::text[] NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_track_token_key" ON "shipments" USING btree ("track_token");