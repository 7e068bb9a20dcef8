import type { Executor, Tx } from '../../base/db/client.js';
import type { ReturnAddress } from '../../base/db/schema.js';
import { formatDay } from '../../domain/calendar.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import { returnBookingRequest, type ReturnItem } from './return-booking-request.js';
import type { Choice } from './return-courier-choice.js';

// A return's booking with its courier, and what the booking writes onto the return.

/** What a return.booked event adds to the return: the courier and AWB just assigned. */
export const bookedChange = (choice: Choice, awb: string) => ({
  awb,
  carrier_id: choice.courier.service.id,
  courier_name: choice.courier.service.name,
  qc_enabled: choice.qcApplied,
});

/** The booking frozen onto the return: courier, AWB, the quote's charges and its promised dates. */
export function bookedColumns(choice: Choice, awb: string, at: Date) {
  return {
    carrierId: choice.courier.service.id,
    awb,
    freightPaise: choice.courier.freightPaise,
    qcPaise: choice.courier.qcPaise,
    platformFeePaise: choice.courier.service.platformFeePaise,
    qcApplied: choice.qcApplied,
    assignedAt: at,
    expectedPickupDate: formatDay(choice.courier.pickupDay),
    expectedDeliveryDate: formatDay(choice.courier.deliveryDay),
    status: 'return_pickup_scheduled',
    updatedAt: at,
  };
}

export type ReturnBooking = ReturnType<typeof createReturnCourierBooking>;

export function createReturnCourierBooking({
  warehouses,
  couriers,
}: {
  warehouses: WarehousesService;
  couriers: Couriers;
}) {
  /** The courier's waybill for a return, booked with the return's shipment id as the courier's reference. */
  async function book(
    ex: Executor,
    accountId: string,
    choice: Choice,
    shipmentId: string,
    parcel: Parameters<typeof returnBookingRequest>[1],
    items: ReturnItem[],
    pickup: ReturnAddress,
    shipping: ReturnAddress,
    warehouseId: string | null,
  ) {
    const locationName = warehouseId
      ? (await warehouses.requireForOrder(accountId, warehouseId, ex)).name
      : shipping.name;
    const request = returnBookingRequest(
      shipmentId,
      parcel,
      items,
      pickup,
      { ...shipping, locationName },
      choice.qcApplied,
    );
    const { awb } = await couriers.book(ex, accountId, choice.courier.service, request);
    return awb;
  }

  /**
   * Writes what the courier booked, or calls the parcel off when the write fails (a return of that
   * order id already exists, another request assigned a courier meanwhile: Couriers.keepBooked).
   * `outer`: an idempotent request's transaction, which the failure rolls back. A reverse booking is
   * itself the pickup request at the customer's door: there is no warehouse pickup to ask for,
   * unlike a forward booking.
   */
  const keep = <T>(accountId: string, choice: Choice, awb: string, write: () => Promise<T>, outer?: Tx) =>
    couriers.keepBooked(accountId, { service: choice.courier.service, awb, journey: 'return' }, write, {
      inTransaction: outer !== undefined,
    });

  /** In the booking's transaction: a return booked on a courier that is asked for scans joins the poller's queue. */
  const enrol = (tx: Tx, accountId: string, returnId: string, choice: Choice, awb: string, at: Date) =>
    couriers.enrol(tx, accountId, { id: returnId, journey: 'return', service: choice.courier.service, awb, at });

  return { book, keep, enrol };
}
