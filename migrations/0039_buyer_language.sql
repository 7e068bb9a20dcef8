ALTER TABLE "stores" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "language" text;