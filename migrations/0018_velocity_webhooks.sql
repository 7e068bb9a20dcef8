ALTER TABLE "webhook_endpoints" ADD COLUMN "format" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "api_key" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "api_key_header" text;