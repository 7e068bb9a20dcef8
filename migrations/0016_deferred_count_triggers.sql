-- The listing's counters (migration 0005) move at commit instead of at the row change. A counter
-- row is shared by every shipment of an account with the same status, courier and zone, and its
-- lock is held from the moment it is written until the transaction ends. Since bookings also write
-- their events (a snapshot read and the event rows, migration 0011) after the shipment, an
-- immediate trigger held that lock across four more round trips, and concurrent bookings of one
-- account queued on it (130 bookings/s at 20 clients). Deferred to commit, the lock is held only
-- while the transaction commits, as when a booking was one statement. The counts stay exact: each
-- row change still applies its own delta, in the same transaction. Constraint triggers cannot be
-- replaced in place, so each is dropped and created again.
DROP TRIGGER IF EXISTS shipments_counts ON shipments;
--> statement-breakpoint
DROP TRIGGER IF EXISTS shipments_counts_update ON shipments;
--> statement-breakpoint
DROP TRIGGER IF EXISTS shipments_facet_counts ON shipments;
--> statement-breakpoint
DROP TRIGGER IF EXISTS shipments_facet_counts_update ON shipments;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shipments_counts AFTER INSERT OR DELETE ON shipments
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION dakiya_shipment_counts();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shipments_counts_update
  AFTER UPDATE OF account_id, status, sub_status, channel, zone, is_cod, carrier_id, attempt_count, ndr_reason, rto_reason ON shipments
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.status, OLD.sub_status, OLD.channel, OLD.zone, OLD.is_cod, OLD.carrier_id, OLD.attempt_count, OLD.ndr_reason, OLD.rto_reason)
        IS DISTINCT FROM
        (NEW.account_id, NEW.status, NEW.sub_status, NEW.channel, NEW.zone, NEW.is_cod, NEW.carrier_id, NEW.attempt_count, NEW.ndr_reason, NEW.rto_reason))
  EXECUTE FUNCTION dakiya_shipment_counts();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shipments_facet_counts AFTER INSERT OR DELETE ON shipments
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION dakiya_shipment_facet_counts();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shipments_facet_counts_update
  AFTER UPDATE OF account_id, warehouse_id, store_id, skus, tags ON shipments
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.warehouse_id, OLD.store_id, OLD.skus, OLD.tags) IS DISTINCT FROM (NEW.account_id, NEW.warehouse_id, NEW.store_id, NEW.skus, NEW.tags))
  EXECUTE FUNCTION dakiya_shipment_facet_counts();
