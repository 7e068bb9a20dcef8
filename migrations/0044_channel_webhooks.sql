ALTER TABLE "sales_channels" ADD COLUMN "webhook_ids" text[];--> statement-breakpoint
ALTER TABLE "sales_channels" ADD COLUMN "webhook_error" text;