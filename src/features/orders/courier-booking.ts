import type { Executor, Tx } from '../../base/db/client.js';
import type { Allocation } from '../../domain/allocation/allocation.js';
import { formatDay } from '../../domain/calendar.js';
import type { CourierQuote } from '../../domain/rates/engine.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { WarehouseRow } from '../../tenancy/warehouses/warehouses.service.js';
import { BookedMeanwhile, bookingRequest } from './booking-request.js';
import type { OrderInput } from './order-input.js';
import type { Booking } from './order-rows.js';

// A forward shipment's booking with its courier: the waybill asked for, kept only once our
// record of it is written, and then the pickup requested.

export type ForwardBooking = ReturnType<typeof createCourierBooking>;

export function createCourierBooking({ couriers }: { couriers: Couriers }) {
  /** The courier's waybill for the shipment, booked with the shipment's id as the courier's reference. */
  async function book(
    ex: Executor,
    accountId: string,
    chosen: { courier: CourierQuote; allocation: Allocation | null },
    shipmentId: string,
    input: OrderInput,
    warehouse: WarehouseRow,
  ): Promise<Booking> {
    const parcel = await couriers.book(
      ex,
      accountId,
      chosen.courier.service,
      bookingRequest(shipmentId, input, warehouse),
    );
    return { courier: chosen.courier, allocation: chosen.allocation, ...parcel };
  }

  /**
   * Writes what the courier booked (`write`, which also queues the shipment for the tracking poller
   * where its courier is asked for scans), or calls the parcel off when the write fails
   * (Couriers.keepBooked), unless another request stored that very parcel (BookedMeanwhile).
   * `outer`: an idempotent request's transaction, which the failure rolls back. Then the pickup.
   */
  async function keepBooking<T>(
    accountId: string,
    booking: Booking,
    warehouse: WarehouseRow,
    write: () => Promise<T>,
    outer?: Tx,
  ) {
    const { service } = booking.courier;
    // A multi-piece booking's boxes are each called off with it.
    const parcel = {
      service,
      awb: booking.awb,
      journey: 'forward' as const,
      ...(booking.boxes && { boxes: booking.boxes }),
    };
    const result = await couriers.keepBooked(accountId, parcel, write, {
      inTransaction: outer !== undefined,
      storedElsewhere: (error) => error instanceof BookedMeanwhile && error.sameParcel,
    });
    await couriers.requestPickup(accountId, service, {
      locationName: warehouse.name,
      date: formatDay(booking.courier.pickupDay),
    });
    return result;
  }

  return { book, keepBooking };
}
