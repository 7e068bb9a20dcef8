CREATE TABLE "buyer_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"confirmation_id" uuid,
	"channel" text NOT NULL,
	"purpose" text NOT NULL,
	"template" text NOT NULL,
	"language" text NOT NULL,
	"recipient" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"provider_message_id" text,
	"last_error" text,
	"variables" jsonb NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "confirmation_policies" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"min_value_paise" bigint DEFAULT 0 NOT NULL,
	"risk_levels" text[] NOT NULL,
	"channels" text[] NOT NULL,
	"language" text NOT NULL,
	"window_minutes" integer NOT NULL,
	"hold_unconfirmed" boolean NOT NULL,
	"payment_link_template" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_channels" (
	"account_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"settings" jsonb NOT NULL,
	"sealed_secret" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "messaging_channels_account_id_channel_pk" PRIMARY KEY("account_id","channel")
);
--> statement-breakpoint
CREATE TABLE "order_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"held" boolean NOT NULL,
	"channel" text,
	"language" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"answered_via" text,
	"payment_link" text,
	"cod_to_prepaid" text,
	"payment_reference" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "buyer_messages" ADD CONSTRAINT "buyer_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_messages" ADD CONSTRAINT "buyer_messages_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_messages" ADD CONSTRAINT "buyer_messages_confirmation_id_order_confirmations_id_fk" FOREIGN KEY ("confirmation_id") REFERENCES "public"."order_confirmations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "confirmation_policies" ADD CONSTRAINT "confirmation_policies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_channels" ADD CONSTRAINT "messaging_channels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_confirmations" ADD CONSTRAINT "order_confirmations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_confirmations" ADD CONSTRAINT "order_confirmations_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyer_messages_due_idx" ON "buyer_messages" USING btree ("next_attempt_at") WHERE "buyer_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "buyer_messages_shipment_idx" ON "buyer_messages" USING btree ("account_id","shipment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_confirmations_shipment_key" ON "order_confirmations" USING btree ("account_id","shipment_id");--> statement-breakpoint
CREATE INDEX "order_confirmations_due_idx" ON "order_confirmations" USING btree ("due_at") WHERE "order_confirmations"."outcome" = 'pending';