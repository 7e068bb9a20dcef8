DROP INDEX "tracking_events_event_id_key";--> statement-breakpoint
DROP INDEX "tracking_events_status_time_key";--> statement-breakpoint
ALTER TABLE "shipment_boxes" ADD COLUMN "sub_status" text;--> statement-breakpoint
ALTER TABLE "tracking_events" ADD COLUMN "box_no" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_events_event_id_key" ON "tracking_events" USING btree ("shipment_id","box_no","event_id") WHERE "tracking_events"."event_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "tracking_events_status_time_key" ON "tracking_events" USING btree ("shipment_id","box_no","status","event_time");