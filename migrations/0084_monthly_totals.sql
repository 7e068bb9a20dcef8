-- The daily totals summed by India calendar month (issue 52): a year's report summed ~4,250 day
-- rows (up to 16 shards each on a live install, until retention folds them); whole months read
-- from here cut that about twelvefold. The sums sit in the key's index as in 0082.
CREATE TABLE "shipment_monthly_totals" (
	"account_id" uuid NOT NULL,
	"month" date NOT NULL,
	"store_id" text NOT NULL,
	"status" text NOT NULL,
	"is_cod" boolean NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"shipments" bigint NOT NULL,
	"value_paise" bigint NOT NULL,
	CONSTRAINT "shipment_monthly_totals_pkey" PRIMARY KEY("account_id","month","store_id","status","is_cod","shard")
		INCLUDE ("shipments", "value_paise")
);
--> statement-breakpoint
ALTER TABLE "shipment_monthly_totals" ADD CONSTRAINT "shipment_monthly_totals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The same deferred triggers (0076) keep both levels: the month's row first, then the day's, each
-- with the same shard rule and in key order. The month first, in a statement of its own (a
-- data-modifying CTE runs after its main statement): a transaction that changes two parcels of one
-- month on different days takes the month's row before either day's, so another transaction
-- waiting for that month's row holds no day row it needs. A change within one month (created_at
-- moved by a day) nets to nothing at the month's level and writes no month row. The India time of
-- created_at is computed without a time-zone database so PGlite and PostgreSQL agree; date_trunc of
-- a timestamp without time zone ignores the session's.
CREATE OR REPLACE FUNCTION dakiya_shipment_daily_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shipment_monthly_totals AS c (account_id, month, store_id, status, is_cod, shard, shipments, value_paise)
  SELECT d.account_id, date_trunc('month', d.india_time)::date, d.store_id, d.status, d.is_cod, pg_backend_pid() % 16,
         sum(d.delta), sum(d.delta * d.value_paise)
  FROM (
    SELECT OLD.account_id, (OLD.created_at + interval '330 minutes') AT TIME ZONE 'UTC', coalesce(OLD.store_id::text, ''),
           OLD.status, OLD.is_cod, OLD.total_price_paise, -1
     WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT NEW.account_id, (NEW.created_at + interval '330 minutes') AT TIME ZONE 'UTC', coalesce(NEW.store_id::text, ''),
           NEW.status, NEW.is_cod, NEW.total_price_paise, 1
     WHERE TG_OP <> 'DELETE'
  ) AS d (account_id, india_time, store_id, status, is_cod, value_paise, delta)
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(d.delta) <> 0 OR sum(d.delta * d.value_paise) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, month, store_id, status, is_cod, shard)
  DO UPDATE SET shipments = c.shipments + excluded.shipments, value_paise = c.value_paise + excluded.value_paise;
  INSERT INTO shipment_daily_totals AS c (account_id, day, store_id, status, is_cod, shard, shipments, value_paise)
  SELECT d.account_id, d.india_time::date, d.store_id, d.status, d.is_cod, pg_backend_pid() % 16,
         sum(d.delta), sum(d.delta * d.value_paise)
  FROM (
    SELECT OLD.account_id, (OLD.created_at + interval '330 minutes') AT TIME ZONE 'UTC', coalesce(OLD.store_id::text, ''),
           OLD.status, OLD.is_cod, OLD.total_price_paise, -1
     WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT NEW.account_id, (NEW.created_at + interval '330 minutes') AT TIME ZONE 'UTC', coalesce(NEW.store_id::text, ''),
           NEW.status, NEW.is_cod, NEW.total_price_paise, 1
     WHERE TG_OP <> 'DELETE'
  ) AS d (account_id, india_time, store_id, status, is_cod, value_paise, delta)
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(d.delta) <> 0 OR sum(d.delta * d.value_paise) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, day, store_id, status, is_cod, shard)
  DO UPDATE SET shipments = c.shipments + excluded.shipments, value_paise = c.value_paise + excluded.value_paise;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The counters' rebuild (a bulk load with triggers off, bench/lib/year-traffic.ts): the months are
-- the days just rebuilt, summed (each statement of a SQL function sees the ones before it).
CREATE OR REPLACE FUNCTION dakiya_rebuild_shipment_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM shipment_counts;
  DELETE FROM shipment_facet_counts;
  DELETE FROM shipment_daily_totals;
  DELETE FROM shipment_monthly_totals;
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
  INSERT INTO shipment_monthly_totals (account_id, month, store_id, status, is_cod, shipments, value_paise)
  SELECT account_id, date_trunc('month', day::timestamp)::date, store_id, status, is_cod, sum(shipments), sum(value_paise)
    FROM shipment_daily_totals
   GROUP BY 1, 2, 3, 4, 5;
$$;
--> statement-breakpoint
-- An install's existing shipments, once; the trigger keeps them from here (a migration runs before
-- any process writes).
INSERT INTO shipment_monthly_totals (account_id, month, store_id, status, is_cod, shipments, value_paise)
SELECT account_id, date_trunc('month', (created_at + interval '330 minutes') AT TIME ZONE 'UTC')::date, coalesce(store_id::text, ''),
       status, is_cod, count(*), sum(total_price_paise)
  FROM shipments
 GROUP BY 1, 2, 3, 4, 5;
