DROP INDEX "courier_polls_carrier_due_idx";--> statement-breakpoint
CREATE INDEX "courier_polls_due_idx" ON "courier_polls" USING btree ("next_poll_at");