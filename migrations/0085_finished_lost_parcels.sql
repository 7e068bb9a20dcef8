-- A lost, damaged or destroyed parcel (status `others`) is finished too: its scans are pruned and
-- its buyer anonymised once it has stayed so for their periods (issue 52). The two jobs' partial
-- indexes hold the wider predicate (base/db/schema/shipments.ts `shipmentFinished`) under new names,
-- with IF [NOT] EXISTS written by hand (drizzle-kit writes neither), so that an operator with a large
-- shipments table can build them CONCURRENTLY beforehand (docs/data-lifecycle.md) and this then
-- skips them: here each build holds the table's writes until the migration commits.
CREATE INDEX IF NOT EXISTS "shipments_finished_in_clear_idx" ON "shipments" USING btree ("updated_at") WHERE "shipments"."buyer_anonymised_at" is null and ("shipments"."status" in ('delivered', 'rto_delivered', 'cancelled') or ("shipments"."status" = 'others' and coalesce("shipments"."sub_status", '') in ('lost', 'damaged', 'destroyed')));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "shipments_finished_history_kept_idx" ON "shipments" USING btree ("updated_at") WHERE "shipments"."history_pruned_at" is null and ("shipments"."status" in ('delivered', 'rto_delivered', 'cancelled') or ("shipments"."status" = 'others' and coalesce("shipments"."sub_status", '') in ('lost', 'damaged', 'destroyed')));--> statement-breakpoint
DROP INDEX IF EXISTS "shipments_buyer_in_clear_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "shipments_history_kept_idx";
