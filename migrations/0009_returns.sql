CREATE TABLE "return_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"return_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"sku" text NOT NULL,
	"units" integer NOT NULL,
	"selling_price_paise" bigint NOT NULL,
	"discount_paise" bigint NOT NULL,
	"qc" jsonb
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"merchant_order_id" text NOT NULL,
	"warehouse_id" uuid,
	"forward_shipment_id" uuid,
	"channel_ref" text,
	"order_date" timestamp with time zone NOT NULL,
	"payment_method" text NOT NULL,
	"sub_total_paise" bigint NOT NULL,
	"total_discount_paise" bigint NOT NULL,
	"pickup" jsonb NOT NULL,
	"shipping" jsonb NOT NULL,
	"length_cm" double precision NOT NULL,
	"breadth_cm" double precision NOT NULL,
	"height_cm" double precision NOT NULL,
	"weight_grams" double precision NOT NULL,
	"request_pickup" boolean NOT NULL,
	"qc_requested" boolean NOT NULL,
	"qc_applied" boolean,
	"qc_note" text,
	"status" text NOT NULL,
	"zone" text NOT NULL,
	"applied_weight_grams" double precision NOT NULL,
	"carrier_id" text,
	"awb" text,
	"freight_paise" bigint,
	"qc_paise" bigint,
	"platform_fee_paise" bigint,
	"assigned_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"expected_pickup_date" date,
	"expected_delivery_date" date,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_items" ADD CONSTRAINT "return_items_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_forward_shipment_id_shipments_id_fk" FOREIGN KEY ("forward_shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "return_items_return_idx" ON "return_items" USING btree ("account_id","return_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_account_merchant_order_key" ON "returns" USING btree ("account_id","merchant_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_shipment_key" ON "returns" USING btree ("shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_awb_key" ON "returns" USING btree ("awb");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_forward_shipment_key" ON "returns" USING btree ("account_id","forward_shipment_id") WHERE "returns"."status" <> 'return_cancelled';--> statement-breakpoint
CREATE INDEX "returns_account_created_idx" ON "returns" USING btree ("account_id","created_at","id");