DROP INDEX "webhook_attempts_delivery_idx";--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","account_id","attempted_at");