CREATE TABLE "shipment_boxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"shipment_id" uuid NOT NULL,
	"box_no" integer NOT NULL,
	"box_count" integer NOT NULL,
	"awb" text NOT NULL,
	"courier_reference" text NOT NULL,
	"weight_grams" double precision NOT NULL,
	"length_cm" double precision NOT NULL,
	"breadth_cm" double precision NOT NULL,
	"height_cm" double precision NOT NULL,
	"items" jsonb NOT NULL,
	"status" text NOT NULL,
	"status_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shipment_boxes_box_no_check" CHECK ("shipment_boxes"."box_no" between 1 and "shipment_boxes"."box_count" and "shipment_boxes"."box_count" >= 2)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "packages" jsonb;--> statement-breakpoint
ALTER TABLE "shipment_boxes" ADD CONSTRAINT "shipment_boxes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipment_boxes" ADD CONSTRAINT "shipment_boxes_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_boxes_shipment_box_key" ON "shipment_boxes" USING btree ("shipment_id","box_no");--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_boxes_awb_key" ON "shipment_boxes" USING btree ("awb");--> statement-breakpoint
CREATE INDEX "shipment_boxes_account_shipment_idx" ON "shipment_boxes" USING btree ("account_id","shipment_id","box_no");