CREATE TABLE "exchange_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"release_on" text NOT NULL,
	"qc_charge_paise" bigint,
	"exchange_charge_paise" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchanges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"display_id" text NOT NULL,
	"unique_id" text NOT NULL,
	"channel" text NOT NULL,
	"return_reason" text NOT NULL,
	"forward_order_id" uuid NOT NULL,
	"forward_shipment_id" uuid NOT NULL,
	"return_id" uuid NOT NULL,
	"release_on" text NOT NULL,
	"replacement_held" boolean NOT NULL,
	"qc_failed_at" timestamp with time zone,
	"qc_charge_paise" bigint,
	"exchange_charge_paise" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exchange_settings" ADD CONSTRAINT "exchange_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_forward_order_id_orders_id_fk" FOREIGN KEY ("forward_order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_forward_shipment_id_shipments_id_fk" FOREIGN KEY ("forward_shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchanges" ADD CONSTRAINT "exchanges_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_account_display_key" ON "exchanges" USING btree ("account_id","display_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_account_unique_key" ON "exchanges" USING btree ("account_id","unique_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_forward_shipment_key" ON "exchanges" USING btree ("forward_shipment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_return_key" ON "exchanges" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX "exchanges_account_created_idx" ON "exchanges" USING btree ("account_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "exchanges_held_idx" ON "exchanges" USING btree ("return_id") WHERE "exchanges"."replacement_held";