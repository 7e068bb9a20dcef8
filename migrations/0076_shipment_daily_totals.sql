CREATE TABLE "shipment_daily_totals" (
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"store_id" text NOT NULL,
	"status" text NOT NULL,
	"is_cod" boolean NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"shipments" bigint NOT NULL,
	"value_paise" bigint NOT NULL,
	CONSTRAINT "shipment_daily_totals_pkey" PRIMARY KEY("account_id","day","store_id","status","is_cod","shard")
);
--> statement-breakpoint
ALTER TABLE "shipment_daily_totals" ADD CONSTRAINT "shipment_daily_totals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Kept like shipment_counts (migrations 0016, 0023): a deferred constraint trigger applies each row
-- change's delta at commit, to the writing backend's shard, so concurrent bookings of one account
-- write different rows. The day is India's calendar day (UTC+05:30, no daylight saving) of
-- created_at, computed without a time-zone database so PGlite and PostgreSQL agree.
CREATE OR REPLACE FUNCTION dakiya_shipment_daily_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shipment_daily_totals AS c (account_id, day, store_id, status, is_cod, shard, shipments, value_paise)
  SELECT d.account_id, d.day, d.store_id, d.status, d.is_cod, pg_backend_pid() % 16, sum(d.delta), sum(d.delta * d.value_paise)
  FROM (
    SELECT OLD.account_id, ((OLD.created_at + interval '330 minutes') AT TIME ZONE 'UTC')::date, coalesce(OLD.store_id::text, ''),
           OLD.status, OLD.is_cod, OLD.total_price_paise, -1
     WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT NEW.account_id, ((NEW.created_at + interval '330 minutes') AT TIME ZONE 'UTC')::date, coalesce(NEW.store_id::text, ''),
           NEW.status, NEW.is_cod, NEW.total_price_paise, 1
     WHERE TG_OP <> 'DELETE'
  ) AS d (account_id, day, store_id, status, is_cod, value_paise, delta)
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(d.delta) <> 0 OR sum(d.delta * d.value_paise) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, day, store_id, status, is_cod, shard)
  DO UPDATE SET shipments = c.shipments + excluded.shipments, value_paise = c.value_paise + excluded.value_paise;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shipments_daily_totals AFTER INSERT OR DELETE ON shipments
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION dakiya_shipment_daily_totals();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shipments_daily_totals_update
  AFTER UPDATE OF account_id, created_at, store_id, status, is_cod, total_price_paise ON shipments
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.created_at, OLD.store_id, OLD.status, OLD.is_cod, OLD.total_price_paise)
        IS DISTINCT FROM (NEW.account_id, NEW.created_at, NEW.store_id, NEW.status, NEW.is_cod, NEW.total_price_paise))
  EXECUTE FUNCTION dakiya_shipment_daily_totals();
--> statement-breakpoint
-- The counters' rebuild (a bulk load with triggers off, bench/lib/year-traffic.ts) rebuilds these too.
CREATE OR REPLACE FUNCTION dakiya_rebuild_shipment_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM shipment_counts;
  DELETE FROM shipment_facet_counts;
  DELETE FROM shipment_daily_totals;
  INSERT INTO shipment_counts
    (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shipments)
  SELECT account_id, status, coalesce(sub_status, ''), channel, zone, is_cod, coalesce(carrier_id, ''), attempt_count,
         coalesce(ndr_reason, ''), coalesce(rto_reason, ''), count(*)
    FROM shipments
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
  INSERT INTO shipment_facet_counts (account_id, facet, value, shipments)
  SELECT account_id, 'warehouse', warehouse_id::text, count(*) FROM shipments GROUP BY 1, 3
  UNION ALL
  SELECT account_id, 'store', coalesce(store_id::text, ''), count(*) FROM shipments GROUP BY 1, 3
  UNION ALL
  SELECT s.account_id, 'sku', u.v, count(*) FROM shipments s CROSS JOIN LATERAL (SELECT DISTINCT unnest(s.skus)) AS u (v) GROUP BY 1, 3
  UNION ALL
  SELECT s.account_id, 'tag', u.v, count(*) FROM shipments s CROSS JOIN LATERAL (SELECT DISTINCT unnest(s.tags)) AS u (v) GROUP BY 1, 3;
  INSERT INTO shipment_daily_totals (account_id, day, store_id, status, is_cod, shipments, value_paise)
  SELECT account_id, ((created_at + interval '330 minutes') AT TIME ZONE 'UTC')::date, coalesce(store_id::text, ''), status, is_cod,
         count(*), sum(total_price_paise)
    FROM shipments
   GROUP BY 1, 2, 3, 4, 5;
$$;
--> statement-breakpoint
-- An install's existing shipments, once; the triggers keep them from here (a migration runs before
-- any process writes).
INSERT INTO shipment_daily_totals (account_id, day, store_id, status, is_cod, shipments, value_paise)
SELECT account_id, ((created_at + interval '330 minutes') AT TIME ZONE 'UTC')::date, coalesce(store_id::text, ''), status, is_cod,
       count(*), sum(total_price_paise)
  FROM shipments
 GROUP BY 1, 2, 3, 4, 5;
