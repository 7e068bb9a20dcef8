ALTER TABLE "shipments" ADD COLUMN "label_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "label_reissued_at" timestamp with time zone;