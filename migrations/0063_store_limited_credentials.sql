ALTER TABLE "api_keys" ADD COLUMN "store_ids" uuid[];--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "store_ids" uuid[];