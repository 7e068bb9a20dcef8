CREATE TABLE "paperwork_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"eway_bill_check" text DEFAULT 'refuse' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ewaybill_no" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ewaybill_date" date;--> statement-breakpoint
ALTER TABLE "paperwork_settings" ADD CONSTRAINT "paperwork_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;