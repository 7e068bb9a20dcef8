CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"return_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"status" text NOT NULL,
	"items_paise" bigint NOT NULL,
	"deduction_paise" bigint NOT NULL,
	"return_shipping_fee_paise" bigint NOT NULL,
	"amount_paise" bigint NOT NULL,
	"method" text NOT NULL,
	"release_on" text NOT NULL,
	"released_at" timestamp with time zone,
	"utr" text,
	"failure_reason" text,
	"initiated_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "return_policies" ADD COLUMN "refund_deduction_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_policies" ADD COLUMN "return_shipping_fee_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_policies" ADD COLUMN "refund_release" text DEFAULT 'warehouse' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_request_id_return_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_return_id_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_request_idx" ON "refunds" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "refunds_return_idx" ON "refunds" USING btree ("account_id","return_id");--> statement-breakpoint
CREATE INDEX "refunds_account_created_idx" ON "refunds" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_account_status_created_idx" ON "refunds" USING btree ("account_id","status","created_at","id");