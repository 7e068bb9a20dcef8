CREATE TABLE "return_request_photos" (
	"account_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "return_request_photos_request_id_position_pk" PRIMARY KEY("request_id","position")
);
--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "photos" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "return_request_photos" ADD CONSTRAINT "return_request_photos_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_request_photos" ADD CONSTRAINT "return_request_photos_request_id_return_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;