ALTER TABLE "shipments" ADD COLUMN "history_pruned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "returns" ADD COLUMN "history_pruned_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "shipments_history_kept_idx" ON "shipments" USING btree ("updated_at") WHERE "shipments"."history_pruned_at" is null and "shipments"."status" in ('delivered', 'rto_delivered', 'cancelled');--> statement-breakpoint
CREATE INDEX "returns_history_kept_idx" ON "returns" USING btree ("updated_at") WHERE "returns"."history_pruned_at" is null and "returns"."status" in ('return_delivered', 'return_cancelled', 'return_lost');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "channel_writebacks_finished_idx" ON "channel_writebacks" USING btree ("updated_at") WHERE "channel_writebacks"."status" <> 'pending';