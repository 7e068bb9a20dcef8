ALTER TABLE "refunds" ADD COLUMN "payee" jsonb;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payee_sealed" text;--> statement-breakpoint
ALTER TABLE "return_policies" ADD COLUMN "store_credit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "refund_to" jsonb;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "refund_to_sealed" text;