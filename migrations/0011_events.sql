CREATE TABLE "event_consumers" (
	"name" text PRIMARY KEY NOT NULL,
	"after_txid" "xid8" NOT NULL,
	"after_position" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"position" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1)
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_subject_sequence_key" ON "events" USING btree ("account_id","subject_id","sequence");--> statement-breakpoint
CREATE INDEX "events_account_order_idx" ON "events" USING btree ("account_id","txid","position");--> statement-breakpoint
CREATE INDEX "events_order_idx" ON "events" USING btree ("txid","position");