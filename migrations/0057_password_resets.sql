ALTER TABLE "members" ADD COLUMN "reset_token_hash" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "reset_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "members_reset_token_key" ON "members" USING btree ("reset_token_hash");