CREATE TABLE "courier_polls" (
	"shipment_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"carrier_id" text NOT NULL,
	"awb" text NOT NULL,
	"booked_at" timestamp with time zone NOT NULL,
	"next_poll_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_parcels" (
	"awb" text PRIMARY KEY NOT NULL,
	"carrier_id" text NOT NULL,
	"reference" text NOT NULL,
	"scenario" text NOT NULL,
	"booked_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"instructions" jsonb NOT NULL,
	CONSTRAINT "sandbox_parcels_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD COLUMN "routing_code" text;--> statement-breakpoint
ALTER TABLE "courier_polls" ADD CONSTRAINT "courier_polls_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courier_polls" ADD CONSTRAINT "courier_polls_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "courier_polls_carrier_due_idx" ON "courier_polls" USING btree ("carrier_id","next_poll_at");