-- Keeps shipment_counts and shipment_facet_counts (migration 0004) exact: every insert, delete and
-- relevant update of a shipment moves one count from its old key to its new one, in the same
-- transaction. Each trigger writes its changes in one INSERT ... ON CONFLICT, sorted by key, so two
-- transactions touching the same counter rows always lock them in the same order (no deadlock),
-- and a change that nets to zero writes (and locks) nothing.
CREATE OR REPLACE FUNCTION dakiya_shipment_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- The booking path, kept short: one counter row, locked for the rest of the transaction.
    INSERT INTO shipment_counts AS c
      (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shipments)
    VALUES (NEW.account_id, NEW.status, coalesce(NEW.sub_status, ''), NEW.channel, NEW.zone, NEW.is_cod, coalesce(NEW.carrier_id, ''),
            NEW.attempt_count, coalesce(NEW.ndr_reason, ''), coalesce(NEW.rto_reason, ''), 1)
    ON CONFLICT (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason)
    DO UPDATE SET shipments = c.shipments + 1;
    RETURN NULL;
  END IF;
  INSERT INTO shipment_counts AS c
    (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason, shipments)
  SELECT d.account_id, d.status, d.sub_status, d.channel, d.zone, d.is_cod, d.carrier_id, d.attempt_count, d.ndr_reason, d.rto_reason, sum(d.delta)
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
  ON CONFLICT (account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason)
  DO UPDATE SET shipments = c.shipments + excluded.shipments;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dakiya_shipment_facet_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO shipment_facet_counts AS c (account_id, facet, value, shipments)
    SELECT NEW.account_id, f.facet, f.value, 1
      FROM (
        SELECT 'warehouse', NEW.warehouse_id::text
        UNION ALL SELECT 'store', coalesce(NEW.store_id::text, '')
        UNION ALL SELECT DISTINCT 'sku', unnest(NEW.skus)
        UNION ALL SELECT DISTINCT 'tag', unnest(NEW.tags)
      ) AS f (facet, value)
     ORDER BY f.facet, f.value
    ON CONFLICT (account_id, facet, value) DO UPDATE SET shipments = c.shipments + 1;
    RETURN NULL;
  END IF;
  INSERT INTO shipment_facet_counts AS c (account_id, facet, value, shipments)
  SELECT d.account_id, d.facet, d.value, sum(d.delta)
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
  ON CONFLICT (account_id, facet, value) DO UPDATE SET shipments = c.shipments + excluded.shipments;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER shipments_counts AFTER INSERT OR DELETE ON shipments
  FOR EACH ROW EXECUTE FUNCTION dakiya_shipment_counts();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER shipments_counts_update
  AFTER UPDATE OF account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason ON shipments
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.status, OLD.sub_status, OLD.channel, OLD.zone, OLD.is_cod, OLD.carrier_id, OLD.attempt_count, OLD.ndr_reason, OLD.rto_reason)
        IS DISTINCT FROM
        (NEW.account_id, NEW.status, NEW.sub_status, NEW.channel, NEW.zone, NEW.is_cod, NEW.carrier_id, NEW.attempt_count, NEW.ndr_reason, NEW.rto_reason))
  EXECUTE FUNCTION dakiya_shipment_counts();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER shipments_facet_counts AFTER INSERT OR DELETE ON shipments
  FOR EACH ROW EXECUTE FUNCTION dakiya_shipment_facet_counts();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER shipments_facet_counts_update
  AFTER UPDATE OF account_id, warehouse_id, store_id, skus, tags ON shipments
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.warehouse_id, OLD.store_id, OLD.skus, OLD.tags) IS DISTINCT FROM (NEW.account_id, NEW.warehouse_id, NEW.store_id, NEW.skus, NEW.tags))
  EXECUTE FUNCTION dakiya_shipment_facet_counts();
--> statement-breakpoint
-- Recounts everything from the shipments table: for existing rows here, and after a bulk load that
-- ran with triggers off (session_replication_role = replica), as the listing benchmark does.
CREATE OR REPLACE FUNCTION dakiya_rebuild_shipment_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM shipment_counts;
  DELETE FROM shipment_facet_counts;
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
$$;
--> statement-breakpoint
SELECT dakiya_rebuild_shipment_counts();
