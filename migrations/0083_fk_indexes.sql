-- An account's deletion (issue 52) deletes children before parents; for each parent row deleted,
-- PostgreSQL's foreign-key check runs `SELECT 1 FROM ONLY child WHERE fk = $1 FOR KEY SHARE` on
-- every child table. Most of these keys had only indexes led by account_id, which that check cannot
-- use: each shipment, order, return, pickup, ... deleted was a scan of its child tables (every
-- account's rows and the dead ones), so an account's deletion grew with the square of its size. At
-- a year's 73,000 shipments its 2,000 orders took 17-19 s (each a scan of shipments), 0.2 s with
-- these indexes; the account's orders alone went from ~11 min to ~7 s (docs/data-lifecycle.md).
-- Keys to the parents an account has a few rows of (accounts, members, stores, warehouses, webhook
-- endpoints, sales channels) cost a few scans per account and stay without
-- (src/consumers/privacy/fk-indexes.test.ts holds every other key to an index of its own).
-- Six account-led indexes are rebuilt led by their key instead (shipments_order_key,
-- weight_discrepancies_shipment_key, cod_receivables_shipment_key, cod_remittances_shipment_idx,
-- channel_orders_shipment_idx, return_requests_shipment_idx): their readers give both columns, and
-- each table keeps another index led by account_id for the account's own reads. Under new names,
-- and IF [NOT] EXISTS written by hand (drizzle-kit writes neither), so that an operator with large
-- tables can build them CONCURRENTLY beforehand (docs/data-lifecycle.md) and this then skips them:
-- here each build holds its table's writes until the migration commits.
DROP INDEX IF EXISTS "shipments_order_key";--> statement-breakpoint
DROP INDEX IF EXISTS "weight_discrepancies_shipment_key";--> statement-breakpoint
DROP INDEX IF EXISTS "cod_receivables_shipment_key";--> statement-breakpoint
DROP INDEX IF EXISTS "cod_remittances_shipment_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "channel_orders_shipment_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "return_requests_shipment_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_items_order_fk_idx" ON "order_items" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "shipments_order_account_key" ON "shipments" USING btree ("order_id","account_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "shipments_pickup_fk_idx" ON "shipments" USING btree ("pickup_id") WHERE "shipments"."pickup_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "shipment_actions_shipment_fk_idx" ON "shipment_actions" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "return_items_return_fk_idx" ON "return_items" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "returns_forward_shipment_fk_idx" ON "returns" USING btree ("forward_shipment_id") WHERE "returns"."forward_shipment_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "courier_polls_shipment_fk_idx" ON "courier_polls" USING btree ("shipment_id") WHERE "courier_polls"."shipment_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "courier_polls_return_fk_idx" ON "courier_polls" USING btree ("return_id") WHERE "courier_polls"."return_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_shipment_fk_idx" ON "notifications" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "weight_discrepancies_shipment_account_key" ON "weight_discrepancies" USING btree ("shipment_id","account_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "buyer_messages_shipment_fk_idx" ON "buyer_messages" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "buyer_messages_confirmation_fk_idx" ON "buyer_messages" USING btree ("confirmation_id") WHERE "buyer_messages"."confirmation_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "order_confirmations_shipment_fk_idx" ON "order_confirmations" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ndr_rule_runs_shipment_fk_idx" ON "ndr_rule_runs" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cod_discrepancies_shipment_fk_idx" ON "cod_discrepancies" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cod_discrepancies_remittance_fk_idx" ON "cod_discrepancies" USING btree ("remittance_id") WHERE "cod_discrepancies"."remittance_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "cod_receivables_shipment_account_key" ON "cod_receivables" USING btree ("shipment_id","account_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cod_remittances_shipment_account_idx" ON "cod_remittances" USING btree ("shipment_id","account_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cod_remittances_import_fk_idx" ON "cod_remittances" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "channel_orders_shipment_account_idx" ON "channel_orders" USING btree ("shipment_id","account_id") WHERE "channel_orders"."shipment_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "channel_orders_order_fk_idx" ON "channel_orders" USING btree ("order_id") WHERE "channel_orders"."order_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "channel_writebacks_shipment_fk_idx" ON "channel_writebacks" USING btree ("shipment_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "channel_writebacks_channel_order_fk_idx" ON "channel_writebacks" USING btree ("channel_order_row_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "exchanges_forward_order_fk_idx" ON "exchanges" USING btree ("forward_order_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "return_request_items_request_fk_idx" ON "return_request_items" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "return_requests_shipment_account_idx" ON "return_requests" USING btree ("shipment_id","account_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "return_requests_order_fk_idx" ON "return_requests" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "return_requests_return_fk_idx" ON "return_requests" USING btree ("return_id") WHERE "return_requests"."return_id" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "return_requests_exchange_fk_idx" ON "return_requests" USING btree ("exchange_id") WHERE "return_requests"."exchange_id" is not null;