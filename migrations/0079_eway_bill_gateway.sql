CREATE TABLE "eway_bill_gateways" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"base_url" text NOT NULL,
	"gstin" text NOT NULL,
	"email" text NOT NULL,
	"sealed" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "eway_bill_gateways" ADD CONSTRAINT "eway_bill_gateways_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;