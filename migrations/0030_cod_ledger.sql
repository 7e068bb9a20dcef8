CREATE TABLE "cod_discrepancies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"shipment_id" uuid NOT NULL,
	"awb" text NOT NULL,
	"carrier_id" text NOT NULL,
	"receivable_id" uuid,
	"remittance_id" uuid,
	"expected_paise" bigint NOT NULL,
	"received_paise" bigint NOT NULL,
	"expected_date" date,
	"detected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cod_receivables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"awb" text NOT NULL,
	"carrier_id" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"delivered_at" timestamp with time zone NOT NULL,
	"expected_date" date NOT NULL,
	"state" text NOT NULL,
	"received_paise" bigint DEFAULT 0 NOT NULL,
	"utr" text,
	"remittance_date" date,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cod_remittance_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"format" text NOT NULL,
	"source" text NOT NULL,
	"file_name" text,
	"lines" integer NOT NULL,
	"applied" integer NOT NULL,
	"duplicates" integer NOT NULL,
	"problems" integer NOT NULL,
	"applied_paise" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cod_remittances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"import_id" uuid NOT NULL,
	"carrier_id" text NOT NULL,
	"awb" text NOT NULL,
	"shipment_id" uuid NOT NULL,
	"receivable_id" uuid,
	"utr" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"remittance_date" date NOT NULL,
	"line" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cod_discrepancies" ADD CONSTRAINT "cod_discrepancies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_discrepancies" ADD CONSTRAINT "cod_discrepancies_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_discrepancies" ADD CONSTRAINT "cod_discrepancies_receivable_id_cod_receivables_id_fk" FOREIGN KEY ("receivable_id") REFERENCES "public"."cod_receivables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_discrepancies" ADD CONSTRAINT "cod_discrepancies_remittance_id_cod_remittances_id_fk" FOREIGN KEY ("remittance_id") REFERENCES "public"."cod_remittances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_receivables" ADD CONSTRAINT "cod_receivables_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_receivables" ADD CONSTRAINT "cod_receivables_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_remittance_imports" ADD CONSTRAINT "cod_remittance_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_remittances" ADD CONSTRAINT "cod_remittances_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_remittances" ADD CONSTRAINT "cod_remittances_import_id_cod_remittance_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."cod_remittance_imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_remittances" ADD CONSTRAINT "cod_remittances_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cod_remittances" ADD CONSTRAINT "cod_remittances_receivable_id_cod_receivables_id_fk" FOREIGN KEY ("receivable_id") REFERENCES "public"."cod_receivables"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cod_discrepancies_account_detected_idx" ON "cod_discrepancies" USING btree ("account_id","detected_at","id");--> statement-breakpoint
CREATE INDEX "cod_discrepancies_receivable_idx" ON "cod_discrepancies" USING btree ("receivable_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cod_discrepancies_missing_key" ON "cod_discrepancies" USING btree ("receivable_id") WHERE "cod_discrepancies"."kind" = 'missing_from_remittance';--> statement-breakpoint
CREATE UNIQUE INDEX "cod_receivables_shipment_key" ON "cod_receivables" USING btree ("account_id","shipment_id");--> statement-breakpoint
CREATE INDEX "cod_receivables_account_delivered_idx" ON "cod_receivables" USING btree ("account_id","delivered_at","id");--> statement-breakpoint
CREATE INDEX "cod_receivables_account_expected_idx" ON "cod_receivables" USING btree ("account_id","carrier_id","expected_date");--> statement-breakpoint
CREATE INDEX "cod_receivables_pending_due_idx" ON "cod_receivables" USING btree ("expected_date") WHERE "cod_receivables"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "cod_receivables_account_utr_idx" ON "cod_receivables" USING btree ("account_id","utr");--> statement-breakpoint
CREATE UNIQUE INDEX "cod_remittances_key" ON "cod_remittances" USING btree ("account_id","carrier_id","utr","awb");--> statement-breakpoint
CREATE INDEX "cod_remittances_account_date_idx" ON "cod_remittances" USING btree ("account_id","remittance_date","id");--> statement-breakpoint
CREATE INDEX "cod_remittances_account_utr_idx" ON "cod_remittances" USING btree ("account_id","utr");--> statement-breakpoint
CREATE INDEX "cod_remittances_receivable_idx" ON "cod_remittances" USING btree ("receivable_id");--> statement-breakpoint
CREATE INDEX "cod_remittances_shipment_idx" ON "cod_remittances" USING btree ("account_id","shipment_id");