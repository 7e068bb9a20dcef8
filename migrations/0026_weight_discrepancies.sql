CREATE TABLE "weight_discrepancies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"awb" text NOT NULL,
	"carrier_id" text NOT NULL,
	"declared_weight_grams" double precision NOT NULL,
	"charged_weight_grams" double precision NOT NULL,
	"charged_length_cm" double precision,
	"charged_breadth_cm" double precision,
	"charged_height_cm" double precision,
	"charged_freight_paise" bigint NOT NULL,
	"extra_paise" bigint NOT NULL,
	"state" text NOT NULL,
	"settled_by" text,
	"comment" text,
	"resolution" text,
	"opened_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"disputed_at" timestamp with time zone,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "weight_dispute_evidence" (
	"discrepancy_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "weight_dispute_evidence_discrepancy_id_position_pk" PRIMARY KEY("discrepancy_id","position")
);
--> statement-breakpoint
ALTER TABLE "weight_discrepancies" ADD CONSTRAINT "weight_discrepancies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weight_discrepancies" ADD CONSTRAINT "weight_discrepancies_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weight_dispute_evidence" ADD CONSTRAINT "weight_dispute_evidence_discrepancy_id_weight_discrepancies_id_fk" FOREIGN KEY ("discrepancy_id") REFERENCES "public"."weight_discrepancies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "weight_dispute_evidence" ADD CONSTRAINT "weight_dispute_evidence_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "weight_discrepancies_shipment_key" ON "weight_discrepancies" USING btree ("account_id","shipment_id");--> statement-breakpoint
CREATE INDEX "weight_discrepancies_account_opened_idx" ON "weight_discrepancies" USING btree ("account_id","opened_at","id");--> statement-breakpoint
CREATE INDEX "weight_discrepancies_open_due_idx" ON "weight_discrepancies" USING btree ("due_at") WHERE "weight_discrepancies"."state" = 'open';