CREATE TABLE "ndr_rule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"action" text NOT NULL,
	"rule_name" text NOT NULL,
	"rule_index" integer NOT NULL,
	"rule" jsonb NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"action_id" uuid,
	"due_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rto_history" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"rto" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rto_history_pkey" PRIMARY KEY("account_id","kind","key")
);
--> statement-breakpoint
CREATE TABLE "rto_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"thresholds" jsonb,
	"ndr_rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "address_validity" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "address_reasons" text[];--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "rto_risk" text;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "rto_risk_score" integer;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "rto_risk_reasons" jsonb;--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "ndr_outcomes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ndr_rule_runs" ADD CONSTRAINT "ndr_rule_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ndr_rule_runs" ADD CONSTRAINT "ndr_rule_runs_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rto_history" ADD CONSTRAINT "rto_history_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rto_settings" ADD CONSTRAINT "rto_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ndr_rule_runs_shipment_attempt_action_key" ON "ndr_rule_runs" USING btree ("account_id","shipment_id","attempt","action");--> statement-breakpoint
CREATE INDEX "ndr_rule_runs_due_idx" ON "ndr_rule_runs" USING btree ("due_at") WHERE "ndr_rule_runs"."status" = 'pending';