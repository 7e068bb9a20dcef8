CREATE TABLE "account_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"tables_total" integer NOT NULL,
	"tables_done" integer DEFAULT 0 NOT NULL,
	"rows_total" bigint NOT NULL,
	"rows_written" bigint DEFAULT 0 NOT NULL,
	"bytes" bigint,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "account_exports" ADD CONSTRAINT "account_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_exports_account_created_idx" ON "account_exports" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_exports_running_key" ON "account_exports" USING btree ("account_id") WHERE "account_exports"."status" = 'running';