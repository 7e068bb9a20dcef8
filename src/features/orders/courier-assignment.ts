import type { Clock } from '../../base/clock.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { EventLog } from '../../events/event-log.js';
import { ORDER_ERRORS } from './orders.errors.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import { BookedMeanwhile } from './booking-request.js';
import type { ForwardBooking } from './courier-booking.js';
import type { AllocateCourier } from './courier-choice.js';
import { orderInputOf } from './order-input.js';
import type { OrderPayload } from './order-payload.js';
import type { EwayBillCheck } from './eway-bill-check.js';
import type { OrderPreparation } from './order-preparation.js';
import { bookedChange, bookedColumns, bookingMilestones, searchText } from './order-rows.js';
import * as repo from './orders.repository.js';
import { insertBoxes, newBoxRows } from './shipment-boxes.js';
import type { OrderPayloadView } from './order-answers.schemas.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { invoiceIssueFor, issueInvoiceNumber } from '../../tenancy/stores/invoice-series.js';

interface Deps {
  db: Db;
  clock: Clock;
  warehouses: WarehousesService;
  events: EventLog;
  /** Queues the booked shipment for its courier's tracking poller. */
  couriers: Couriers;
  preparation: Pick<OrderPreparation, 'priceShipment'>;
  allocateCourier: AllocateCourier;
  booking: ForwardBooking;
  payload: OrderPayload;
  ewayBill: EwayBillCheck;
}

/**
 * `forward-order-shipment`: books a courier onto a pending shipment that has none. `outer`: the
 * transaction of an idempotent request, with which the booking's writes then commit.
 */
export function createCourierAssignment(deps: Deps) {
  const { db, clock, warehouses, events, couriers, preparation, allocateCourier, booking, payload, ewayBill } = deps;
  const record = auditRecorder(clock);
  return async function assignCourier(
    actor: Actor,
    shipmentId: string,
    carrierId: string | undefined,
    outer?: Tx,
  ): Promise<OrderPayloadView> {
    const ex = outer ?? db;
    const { accountId } = actor;
    const found = await repo.findShipmentWithOrder(ex, accountId, shipmentId);
    if (!found)
      throw ORDER_ERRORS.shipment_to_book_not_found.error(`Shipment '${shipmentId}' not found`, 'shipment_id');
    const { order } = found;
    if (found.shipment.awb !== null)
      throw ORDER_ERRORS.courier_already_assigned.error(
        'A courier is already assigned to this shipment',
        'shipment_id',
      );
    if (found.shipment.status !== 'pending') {
      throw ORDER_ERRORS.shipment_not_pending.error(
        `The shipment is ${found.shipment.status}; only a pending shipment can be booked`,
        'shipment_id',
      );
    }
    const warehouse = await warehouses.requireForOrder(accountId, order.warehouseId, ex);
    const items = await repo.findItems(ex, accountId, order.id);
    const input = orderInputOf(order, items);
    const store = await repo.findStoreName(ex, accountId, order.storeId);
    const storeName = store?.storeName ?? null;
    // Velocity: a blank carrier_id means "assign automatically".
    const chosen = await allocateCourier(
      ex,
      accountId,
      { input, warehouse, quote: preparation.priceShipment(input, warehouse), storeName },
      carrierId || undefined,
    );
    const warnings = await ewayBill.atBooking(ex, accountId, input, warehouse, chosen.courier.deliveryDay);
    const booked = await booking.book(ex, accountId, chosen, shipmentId, input, warehouse);
    const now = clock.now();
    const shipment = await booking.keepBooking(
      accountId,
      booked,
      warehouse,
      () =>
        inTransaction(db, outer, async (tx) => {
          const updated = await repo.assignCourier(tx, accountId, shipmentId, {
            ...bookedColumns(booked, now),
            updatedAt: now,
            searchText: searchText(input, order.id, booked.awb, order.channelOrderName),
          });
          // Another request booked it since our read: one booking wins; its parcel may be this one.
          if (!updated)
            throw new BookedMeanwhile((await repo.findShipmentById(tx, accountId, shipmentId))?.awb === booked.awb);
          await repo.addMilestones(tx, accountId, shipmentId, bookingMilestones(booked, now));
          // A multi-piece booking's boxes, each with the AWB its courier gave it.
          const boxes = input.packages
            ? newBoxRows(
                { accountId, shipmentId, awb: booked.awb, status: updated.status, at: now },
                input.packages,
                booked.boxes,
              )
            : [];
          await insertBoxes(tx, boxes);
          // The store's next invoice number, in the booking's transaction: no gap if it rolls back.
          const invoice = invoiceIssueFor(accountId, store, shipmentId, now);
          if (invoice) await issueInvoiceNumber(tx, invoice);
          await events.shipment(
            tx,
            accountId,
            shipmentId,
            [{ type: 'shipment.booked', change: bookedChange(booked) }],
            now,
          );
          await couriers.enrol(tx, accountId, {
            id: shipmentId,
            journey: 'forward',
            service: booked.courier.service,
            awb: booked.awb,
            at: now,
          });
          await record(tx, actor, {
            action: 'shipment.booked',
            objectType: 'shipment',
            objectId: shipmentId,
            changes: { carrier_id: booked.courier.service.id, awb: booked.awb },
          });
          return { updated, boxes };
        }),
      outer,
    );
    return payload(order, shipment.updated, storeName, warnings, shipment.boxes);
  };
}
