CREATE TABLE "awb_counters" (
	"carrier_id" text PRIMARY KEY NOT NULL,
	"last_value" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"sku" text NOT NULL,
	"units" integer NOT NULL,
	"selling_price_paise" bigint NOT NULL,
	"discount_paise" bigint NOT NULL,
	"tax_percent" double precision,
	"hsn" text
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"merchant_order_id" text NOT NULL,
	"store_id" uuid,
	"warehouse_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"order_date" timestamp with time zone NOT NULL,
	"payment_method" text NOT NULL,
	"sub_total_paise" bigint NOT NULL,
	"cod_collectible_paise" bigint NOT NULL,
	"billing_name" text NOT NULL,
	"billing_last_name" text,
	"billing_address" text NOT NULL,
	"billing_address_2" text,
	"billing_city" text NOT NULL,
	"billing_pincode" text NOT NULL,
	"billing_state" text NOT NULL,
	"billing_country" text NOT NULL,
	"billing_email" text,
	"billing_phone" text NOT NULL,
	"shipping_is_billing" boolean NOT NULL,
	"shipping_name" text NOT NULL,
	"shipping_last_name" text,
	"shipping_address" text NOT NULL,
	"shipping_address_2" text,
	"shipping_city" text NOT NULL,
	"shipping_pincode" text NOT NULL,
	"shipping_state" text NOT NULL,
	"shipping_country" text NOT NULL,
	"shipping_email" text,
	"shipping_phone" text NOT NULL,
	"length_cm" double precision NOT NULL,
	"breadth_cm" double precision NOT NULL,
	"height_cm" double precision NOT NULL,
	"weight_grams" double precision NOT NULL,
	"tags" text[] NOT NULL,
	"print_label" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipment_milestones" (
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"milestone" text NOT NULL,
	"milestone_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shipment_milestones_shipment_id_milestone_pk" PRIMARY KEY("shipment_id","milestone")
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"store_id" uuid,
	"channel" text NOT NULL,
	"order_date" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"sub_status" text,
	"zone" text NOT NULL,
	"is_cod" boolean NOT NULL,
	"cod_amount_paise" bigint NOT NULL,
	"total_price_paise" bigint NOT NULL,
	"applied_weight_grams" double precision NOT NULL,
	"carrier_id" text,
	"awb" text,
	"freight_paise" bigint,
	"cod_charges_paise" bigint,
	"rto_charges_paise" bigint,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"ndr_reason" text,
	"rto_reason" text,
	"skus" text[] NOT NULL,
	"tags" text[] NOT NULL,
	"search_text" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"assigned_at" timestamp with time zone,
	"picked_up_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"rto_initiated_at" timestamp with time zone,
	"rto_delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "warehouses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"contact_person" text,
	"street_address" text NOT NULL,
	"pincode" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"country" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_milestones" ADD CONSTRAINT "shipment_milestones_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_milestones" ADD CONSTRAINT "shipment_milestones_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouses" ADD CONSTRAINT "warehouses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "order_items_order_idx" ON "order_items" USING btree ("account_id","order_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_account_merchant_order_key" ON "orders" USING btree ("account_id","merchant_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_awb_key" ON "shipments" USING btree ("awb");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_order_key" ON "shipments" USING btree ("account_id","order_id");--> statement-breakpoint
CREATE INDEX "shipments_account_created_idx" ON "shipments" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "warehouses_account_created_idx" ON "warehouses" USING btree ("account_id","created_at","id");