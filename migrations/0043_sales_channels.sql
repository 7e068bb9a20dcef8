CREATE TABLE "channel_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"sales_channel_id" uuid NOT NULL,
	"channel_order_id" text NOT NULL,
	"channel_order_name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"cancelled" boolean NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"fields" text[],
	"order_id" uuid,
	"shipment_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"fulfilment_reference" text,
	"fulfilled_awb" text,
	"first_seen_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_webhook_receipts" (
	"sales_channel_id" uuid NOT NULL,
	"delivery_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "channel_webhook_receipts_sales_channel_id_delivery_id_pk" PRIMARY KEY("sales_channel_id","delivery_id")
);
--> statement-breakpoint
CREATE TABLE "channel_writebacks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"sales_channel_id" uuid NOT NULL,
	"channel_order_row_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"shop_name" text NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"sealed" text NOT NULL,
	"on_import" text NOT NULL,
	"notify_customer" boolean NOT NULL,
	"default_weight_grams" double precision,
	"length_cm" double precision NOT NULL,
	"breadth_cm" double precision NOT NULL,
	"height_cm" double precision NOT NULL,
	"status" text NOT NULL,
	"pull_due" boolean DEFAULT true NOT NULL,
	"pull_locked_until" timestamp with time zone,
	"webhook_ids" text[],
	"webhook_error" text,
	"last_synced_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"disconnected_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sales_channel_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "channel_order_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "channel_order_name" text;--> statement-breakpoint
ALTER TABLE "channel_orders" ADD CONSTRAINT "channel_orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_orders" ADD CONSTRAINT "channel_orders_sales_channel_id_sales_channels_id_fk" FOREIGN KEY ("sales_channel_id") REFERENCES "public"."sales_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_orders" ADD CONSTRAINT "channel_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_orders" ADD CONSTRAINT "channel_orders_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_webhook_receipts" ADD CONSTRAINT "channel_webhook_receipts_sales_channel_id_sales_channels_id_fk" FOREIGN KEY ("sales_channel_id") REFERENCES "public"."sales_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_webhook_receipts" ADD CONSTRAINT "channel_webhook_receipts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_writebacks" ADD CONSTRAINT "channel_writebacks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_writebacks" ADD CONSTRAINT "channel_writebacks_sales_channel_id_sales_channels_id_fk" FOREIGN KEY ("sales_channel_id") REFERENCES "public"."sales_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_writebacks" ADD CONSTRAINT "channel_writebacks_channel_order_row_id_channel_orders_id_fk" FOREIGN KEY ("channel_order_row_id") REFERENCES "public"."channel_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_writebacks" ADD CONSTRAINT "channel_writebacks_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_writebacks" ADD CONSTRAINT "channel_writebacks_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_channels" ADD CONSTRAINT "sales_channels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_channels" ADD CONSTRAINT "sales_channels_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_channels" ADD CONSTRAINT "sales_channels_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_orders_channel_order_key" ON "channel_orders" USING btree ("sales_channel_id","channel_order_id");--> statement-breakpoint
CREATE INDEX "channel_orders_pending_idx" ON "channel_orders" USING btree ("updated_at") WHERE "channel_orders"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "channel_orders_account_state_idx" ON "channel_orders" USING btree ("account_id","sales_channel_id","state","updated_at");--> statement-breakpoint
CREATE INDEX "channel_orders_shipment_idx" ON "channel_orders" USING btree ("account_id","shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_writebacks_event_key" ON "channel_writebacks" USING btree ("event_id","kind");--> statement-breakpoint
CREATE INDEX "channel_writebacks_due_idx" ON "channel_writebacks" USING btree ("next_attempt_at") WHERE "channel_writebacks"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "channel_writebacks_shipment_idx" ON "channel_writebacks" USING btree ("account_id","shipment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_channels_store_key" ON "sales_channels" USING btree ("account_id","store_id") WHERE "sales_channels"."status" = 'connected';--> statement-breakpoint
CREATE UNIQUE INDEX "sales_channels_address_key" ON "sales_channels" USING btree ("account_id","channel","address") WHERE "sales_channels"."status" = 'connected';--> statement-breakpoint
CREATE INDEX "sales_channels_account_idx" ON "sales_channels" USING btree ("account_id","created_at","id");--> statement-breakpoint
-- The channels' write-back reads the event log from here on (decision 128): on an install that
-- already has events it starts after those settled, not at the install's first booking.
INSERT INTO "event_consumers" ("name", "after_txid", "after_position", "updated_at")
SELECT 'channel-writeback', coalesce("last"."txid", '0'::xid8), coalesce("last"."position", 0), now()
FROM (SELECT 1) AS "one"
LEFT JOIN (
	SELECT "txid", "position" FROM "events"
	WHERE "txid" < pg_snapshot_xmin(pg_current_snapshot())
	ORDER BY "txid" DESC, "position" DESC
	LIMIT 1
) AS "last" ON true
ON CONFLICT ("name") DO NOTHING;
