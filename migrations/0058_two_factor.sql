CREATE TABLE "two_factor_logins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"member_id" uuid,
	"secret_sealed" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_time_step" integer,
	"recovery_code_hashes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "two_factor_logins_login_key" UNIQUE NULLS NOT DISTINCT("account_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "two_factor_logins" ADD CONSTRAINT "two_factor_logins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor_logins" ADD CONSTRAINT "two_factor_logins_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;