ALTER TABLE "return_policies" ADD COLUMN "auto_rules" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "decision_rule" integer;