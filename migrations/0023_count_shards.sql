-- Bookings of one account all bump the same counter rows (migration 0005), and a row's lock is held
-- until its transaction has committed, WAL flush included: on PostgreSQL every booking of an
-- account waited for the previous one's flush, one commit per fsync (about 300 bookings/s where an
-- fsync takes 3 ms, whatever the cores). Each key now has up to COUNT_SHARDS = 16 rows, chosen by
-- the writing backend (pg_backend_pid() % 16): concurrent transactions on different connections
-- write different rows and their commits are flushed together. A count is the sum over a key's
-- rows, as the listing already reads it; a shard may go negative when a shipment leaves a key from
-- another connection than it entered by, and the sum stays exact.
ALTER TABLE "shipment_counts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_facet_counts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipment_counts" DROP CONSTRAINT "shipment_counts_pkey";
--> statement-breakpoint
ALTER TABLE "shipment_counts" ADD CONSTRAINT "shipment_counts_pkey" PRIMARY KEY("account_id","status","sub_status","channel","zone","is_cod","carrier_id","attempt_count","ndr_reason","rto_reason","shard");--> statement-breakpoint
ALTER TABLE "shipment_facet_counts" DROP CONSTRAINT "shipment_facet_counts_pkey";
--> statement-breakpoint
ALTER TABLE "shipment_facet_counts" ADD CONSTRAINT "shipment_facet_counts_pkey" PRIMARY KEY("account_id","facet","value","shard");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dakiya_shipment_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO shipment_counts AS c
      (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shard, shipments)
    VALUES (NEW.account_id, NEW.status, coalesce(NEW.sub_status, ''), NEW.channel, NEW.zone, NEW.is_cod, coalesce(NEW.carrier_id, ''),
            NEW.attempt_count, coalesce(NEW.ndr_reason, ''), coalesce(NEW.rto_reason, ''), pg_backend_pid() % 16, 1)
    ON CONFLICT (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shard)
    DO UPDATE SET shipments = c.shipments + 1;
    RETURN NULL;
  END IF;
  INSERT INTO shipment_counts AS c
    (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shard, shipments)
  SELECT d.account_id, d.status, d.sub_status, d.channel, d.zone, d.is_cod, d.carrier_id, d.attempt_count, d.ndr_reason, d.rto_reason,
         pg_backend_pid() % 16, sum(d.delta)
  FROM (
    SELECT OLD.account_id, OLD.status, coalesce(OLD.sub_status, ''), OLD.channel, OLD.zone, OLD.is_cod, coalesce(OLD.carrier_id, ''),
           OLD.attempt_count, coalesce(OLD.ndr_reason, ''), coalesce(OLD.rto_reason, ''), -1
     WHERE TG_OP <> 'INSERT'
    UNION ALL
    SELECT NEW.account_id, NEW.status, coalesce(NEW.sub_status, ''), NEW.channel, NEW.zone, NEW.is_cod, coalesce(NEW.carrier_id, ''),
           NEW.attempt_count, coalesce(NEW.ndr_reason, ''), coalesce(NEW.rto_reason, ''), 1
     WHERE TG_OP <> 'DELETE'
  ) AS d (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, delta)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  HAVING sum(d.delta) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
  ON CONFLICT (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shard)
  DO UPDATE SET shipments = c.shipments + excluded.shipments;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dakiya_shipment_facet_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO shipment_facet_counts AS c (account_id, facet, value, shard, shipments)
    SELECT NEW.account_id, f.facet, f.value, pg_backend_pid() % 16, 1
      FROM (
        SELECT 'warehouse', NEW.warehouse_id::text
        UNION ALL SELECT 'store', coalesce(NEW.store_id::text, '')
        UNION ALL SELECT DISTINCT 'sku', unnest(NEW.skus)
        UNION ALL SELECT DISTINCT 'tag', unnest(NEW.tags)
      ) AS f (facet, value)
     ORDER BY f.facet, f.value
    ON CONFLICT (account_id, facet, value, shard) DO UPDATE SET shipments = c.shipments + 1;
    RETURN NULL;
  END IF;
  INSERT INTO shipment_facet_counts AS c (account_id, facet, value, shard, shipments)
  SELECT d.account_id, d.facet, d.value, pg_backend_pid() % 16, sum(d.delta)
  FROM (
    SELECT OLD.account_id, 'warehouse', OLD.warehouse_id::text, -1 WHERE TG_OP <> 'INSERT'
    UNION ALL SELECT OLD.account_id, 'store', coalesce(OLD.store_id::text, ''), -1 WHERE TG_OP <> 'INSERT'
    UNION ALL SELECT OLD.account_id, 'sku', v, -1 FROM (SELECT DISTINCT unnest(OLD.skus)) AS u (v) WHERE TG_OP <> 'INSERT'
    UNION ALL SELECT OLD.account_id, 'tag', v, -1 FROM (SELECT DISTINCT unnest(OLD.tags)) AS u (v) WHERE TG_OP <> 'INSERT'
    UNION ALL SELECT NEW.account_id, 'warehouse', NEW.warehouse_id::text, 1 WHERE TG_OP <> 'DELETE'
    UNION ALL SELECT NEW.account_id, 'store', coalesce(NEW.store_id::text, ''), 1 WHERE TG_OP <> 'DELETE'
    UNION ALL SELECT NEW.account_id, 'sku', v, 1 FROM (SELECT DISTINCT unnest(NEW.skus)) AS u (v) WHERE TG_OP <> 'DELETE'
    UNION ALL SELECT NEW.account_id, 'tag', v, 1 FROM (SELECT DISTINCT unnest(NEW.tags)) AS u (v) WHERE TG_OP <> 'DELETE'
  ) AS d (account_id, facet, value, delta)
  GROUP BY 1, 2, 3
  HAVING sum(d.delta) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (account_id, facet, value, shard) DO UPDATE SET shipments = c.shipments + excluded.shipments;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The next number of an AWB counter, committed at once without waiting for its WAL flush, so the
-- counter row (one per series, shared by every booking on it) is locked for microseconds rather
-- than for an fsync. Safe because nothing durable can use the number before the flush: the parcel
-- and the booking that carry it commit later, synchronously, and flushing their WAL flushes this
-- earlier commit with it; a crash before that loses only numbers no committed row holds (a gap).
-- Transaction control needs a CALL outside a transaction block: a booking inside one (an
-- Idempotency-Key's) draws with the plain statement instead.
CREATE OR REPLACE PROCEDURE dakiya_draw_awb(counter text, INOUT drawn bigint) LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL synchronous_commit = off;
  INSERT INTO awb_counters AS c (carrier_id, last_value) VALUES (counter, 1)
  ON CONFLICT (carrier_id) DO UPDATE SET last_value = c.last_value + 1
  RETURNING c.last_value INTO drawn;
  COMMIT;
END
$$;