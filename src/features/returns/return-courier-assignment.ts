import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import { type Db, inTransaction, type Tx } from '../../base/db/client.js';
import type { EventLog } from '../../events/event-log.js';
import { RETURN_ERRORS } from './returns.errors.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import { warehouseAddress } from './return-booking-request.js';
import { type ReturnBooking, bookedChange, bookedColumns } from './return-courier-booking.js';
import type { Parcel, ReturnCourierChoice } from './return-courier-choice.js';
import type { ReturnPayload } from './return-payload.js';
import * as repo from './returns.repository.js';
import type { ReturnPayloadView } from './returns.schemas.js';

interface Deps {
  db: Db;
  clock: Clock;
  warehouses: WarehousesService;
  events: EventLog;
  choice: ReturnCourierChoice;
  booking: ReturnBooking;
  payload: ReturnPayload;
}

/**
 * `reverse-order-shipment`: books a courier onto a return that has none. `outer`: the transaction
 * of an idempotent request, with which its writes commit.
 */
export function createReturnCourierAssignment({ db, clock, warehouses, events, choice, booking, payload }: Deps) {
  const record = auditRecorder(clock);
  return async function assignCourier(
    actor: Actor,
    body: { return_id: string; warehouse_id?: string; carrier_id?: string },
    outer?: Tx,
  ): Promise<ReturnPayloadView> {
    const { accountId } = actor;
    const ex = outer ?? db;
    const found = await repo.findReturn(ex, accountId, body.return_id);
    if (!found) throw RETURN_ERRORS.return_not_found.error(`Return '${body.return_id}' not found`, 'return_id');
    if (found.awb !== null)
      throw RETURN_ERRORS.return_courier_already_assigned.error(
        'A courier is already assigned to this return',
        'return_id',
      );
    // Cancelled before a courier was booked: booking one now would send a courier for a return nobody wants.
    if (found.status === repo.CANCELLED)
      throw RETURN_ERRORS.return_cancelled.error(
        'The return is cancelled: no courier can be booked for it',
        'return_id',
      );
    let { warehouseId, shipping } = found;
    const named = body.warehouse_id?.trim();
    if (named) {
      if (warehouseId !== null && named !== warehouseId) {
        throw RETURN_ERRORS.return_warehouse_mismatch.error(
          `warehouse_id is not this return's destination warehouse (${warehouseId})`,
          'warehouse_id',
        );
      }
      const warehouse = await warehouses.requireForOrder(accountId, named, ex);
      if (warehouseId === null) shipping = warehouseAddress(warehouse);
      warehouseId = warehouse.id;
    }
    const parcel: Parcel = {
      pickupPincode: found.pickup.pincode,
      destinationPincode: shipping.pincode,
      weightGrams: found.weightGrams,
      lengthCm: found.lengthCm,
      breadthCm: found.breadthCm,
      heightCm: found.heightCm,
    };
    // Velocity: a blank carrier_id means "assign automatically".
    const chosen = choice.chooseCourier(parcel, found.qcRequested, body.carrier_id || undefined);
    const zone = choice.quote(parcel, false).zone;
    const items = await repo.findItems(ex, accountId, found.id);
    const awb = await booking.book(
      ex,
      accountId,
      chosen,
      found.shipmentId,
      found,
      items,
      found.pickup,
      shipping,
      warehouseId,
    );
    const now = clock.now();
    const write = () =>
      inTransaction(db, outer, async (tx) => {
        const updated = await repo.assignCourier(tx, accountId, found.id, {
          ...bookedColumns(chosen, awb, now),
          qcNote: found.qcNote ?? chosen.qcNote,
          warehouseId,
          shipping,
          zone,
        });
        // Another request booked (or cancelled) it between our read and this write: exactly one booking wins.
        if (!updated)
          throw RETURN_ERRORS.return_courier_already_assigned.error(
            'A courier is already assigned to this return',
            'return_id',
          );
        await booking.enrol(tx, accountId, found.id, chosen, awb, now);
        await events.return(
          tx,
          accountId,
          found.id,
          [{ type: 'return.booked', change: bookedChange(chosen, awb) }],
          now,
        );
        await record(tx, actor, {
          action: 'return.booked',
          objectType: 'return',
          objectId: found.id,
          changes: { carrier_id: chosen.courier.service.id, awb },
        });
        return payload(tx, accountId, updated);
      });
    return booking.keep(accountId, chosen, awb, write, outer);
  };
}
