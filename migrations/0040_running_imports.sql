CREATE TABLE "running_imports" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text,
	"started_at" timestamp with time zone NOT NULL,
	"holder_pid" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "running_imports" ADD CONSTRAINT "running_imports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;