CREATE TABLE "invoice_counters" (
	"account_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"financial_year" integer NOT NULL,
	"last_sequence" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "invoice_counters_store_id_financial_year_pk" PRIMARY KEY("store_id","financial_year")
);
--> statement-breakpoint
CREATE TABLE "shipment_invoices" (
	"shipment_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"financial_year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"prefix" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "invoice_legal_name" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "invoice_gstin" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "invoice_address" text;--> statement-breakpoint
ALTER TABLE "stores" ADD COLUMN "invoice_prefix" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "buyer_gstin" text;--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_invoices" ADD CONSTRAINT "shipment_invoices_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_invoices" ADD CONSTRAINT "shipment_invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_invoices" ADD CONSTRAINT "shipment_invoices_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_invoices_series_key" ON "shipment_invoices" USING btree ("store_id","financial_year","sequence");