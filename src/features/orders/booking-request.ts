import type { BookingRequest } from '../../couriers/connector.js';
import { DomainError } from '../../domain/errors.js';
import type { WarehouseRow } from '../../tenancy/warehouses/warehouses.service.js';
import type { OrderInput } from './order-input.js';
import { ORDER_ERRORS } from './orders.errors.js';

const fullName = (first: string, last: string | null) => [first, last].filter(Boolean).join(' ');

/** A forward order as a courier booking: from the warehouse (its name is the courier's pickup location) to the customer. */
export function bookingRequest(reference: string, input: OrderInput, warehouse: WarehouseRow): BookingRequest {
  const s = input.shipping;
  return {
    reference,
    journey: 'forward',
    merchantOrderId: input.merchantOrderId,
    tags: input.tags,
    paymentMethod: input.paymentMethod,
    codPaise: input.codPaise,
    totalPaise: input.subTotalPaise,
    weightGrams: input.weightGrams,
    lengthCm: input.lengthCm,
    breadthCm: input.breadthCm,
    heightCm: input.heightCm,
    // A multi-piece order's boxes, box 1 first; the courier answers an AWB per box (shipment-boxes.ts).
    ...(input.packages && {
      boxes: input.packages.map(({ weightGrams, lengthCm, breadthCm, heightCm }) => ({
        weightGrams,
        lengthCm,
        breadthCm,
        heightCm,
      })),
    }),
    productsDescription: input.items
      .map((item) => item.name)
      .join(', ')
      .slice(0, 200),
    quantity: input.items.reduce((sum, item) => sum + item.units, 0),
    ewayBillNumber: input.ewayBill?.number ?? null,
    consignee: {
      name: fullName(s.name, s.lastName),
      address: [s.address, s.address2].filter(Boolean).join(', '),
      city: s.city,
      state: s.state,
      pincode: s.pincode,
      phone: s.phone,
      alternatePhone: input.shippingAlternatePhone ?? null,
    },
    pickup: {
      locationName: warehouse.name,
      name: warehouse.contactPerson ?? warehouse.name,
      address: warehouse.streetAddress,
      city: warehouse.city,
      state: warehouse.state,
      pincode: warehouse.pincode,
      phone: warehouse.phone,
    },
    orderDate: input.orderDate,
  };
}

const ALREADY_ASSIGNED = 'A courier is already assigned to this shipment';

/**
 * A booking that lost the race for its shipment to another request. `sameParcel`: the courier
 * answered both with one parcel (a repeated reference finds the first), which the winner stored:
 * not the loser's to cancel.
 */
export class BookedMeanwhile extends DomainError {
  constructor(readonly sameParcel: boolean) {
    const { kind, code } = ORDER_ERRORS.courier_already_assigned;
    super(kind, [ALREADY_ASSIGNED], [{ field: 'shipment_id', message: ALREADY_ASSIGNED }], code);
  }
}
