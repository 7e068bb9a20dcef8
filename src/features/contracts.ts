import type { Executor } from '../base/db/client.js';
import type { returnEvents, trackingEvents } from '../base/db/schema.js';
import type { ReturnStatus } from '../domain/shipment/return-status-machine.js';
import type { ShipmentStatus } from '../domain/shipment/status-machine.js';

/*
 * What one feature hands another through the composition root (app.ts), so that no feature imports
 * another. The tracking intake owns the status histories of shipments and returns: orders (cancel),
 * NDR (initiate-rto) and returns (cancel) record their merchant events through it, under the same
 * row lock and status machine as couriers' scans.
 */

/** A status event on a shipment, as the tracking history stores it. */
export type NewShipmentEvent = Omit<typeof trackingEvents.$inferInsert, 'accountId' | 'shipmentId'>;
/** A status event on a return, as the return's history stores it. */
export type NewReturnEvent = Omit<typeof returnEvents.$inferInsert, 'accountId' | 'returnId'>;

/**
 * Records events on one shipment in the caller's transaction and recomputes its state; per event,
 * whether it was new, and the resulting status when anything new was recorded.
 */
export type ApplyShipmentEvents = (
  tx: Executor,
  accountId: string,
  shipmentId: string,
  events: NewShipmentEvent[],
  now: Date,
) => Promise<{ fresh: boolean[]; status: ShipmentStatus | null }>;

/** The same for a booked return. */
export type ApplyReturnEvents = (
  tx: Executor,
  accountId: string,
  returnId: string,
  events: NewReturnEvent[],
  now: Date,
) => Promise<{ fresh: boolean[]; status: ReturnStatus | null }>;

/**
 * Told, in the tracking intake's transaction, that a shipment's status just changed: the COD ledger
 * opens a receivable when a COD shipment is delivered, committed with the delivery or not at all.
 */
export type ShipmentStatusListener = (tx: Executor, accountId: string, shipmentId: string, status: ShipmentStatus, now: Date) => Promise<void>;
