CREATE TABLE "courier_credentials" (
	"account_id" uuid NOT NULL,
	"connector" text NOT NULL,
	"sealed" text NOT NULL,
	"fields" text[] NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "courier_credentials_pkey" PRIMARY KEY("account_id","connector")
);
--> statement-breakpoint
ALTER TABLE "courier_credentials" ADD CONSTRAINT "courier_credentials_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;