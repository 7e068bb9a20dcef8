ALTER TABLE "stores" ALTER COLUMN "notify_events" SET DEFAULT '{shipped,out_for_delivery,delivered,ndr_raised,rto_delivered,return_requested,return_approved,return_rejected}'::text[];--> statement-breakpoint
-- A store that sent every e-mail there was keeps sending every one: the return request's three join its list.
UPDATE "stores" SET "notify_events" = "notify_events" || '{return_requested,return_approved,return_rejected}'::text[] WHERE "notify_events" @> '{shipped,out_for_delivery,delivered,ndr_raised,rto_delivered}'::text[];
