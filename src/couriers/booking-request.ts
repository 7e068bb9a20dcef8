import type { ReturnAddress } from '../base/db/schema.js';
import type { OrderInput } from '../features/orders/order-input.js';
import type { WarehouseRow } from '../tenancy/warehouses/warehouses.service.js';
import type { BookingRequest } from './connector.js';

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
    productsDescription: input.items.map((item) => item.name).join(', ').slice(0, 200),
    quantity: input.items.reduce((sum, item) => sum + item.units, 0),
    consignee: {
      name: fullName(s.name, s.lastName),
      address: [s.address, s.address2].filter(Boolean).join(', '),
      city: s.city,
      state: s.state,
      pincode: s.pincode,
      phone: s.phone,
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

/** A return as a courier booking: collected from the customer, carried to the destination (a warehouse, whose name is the pickup location). */
export function returnBookingRequest(
  reference: string,
  parcel: { merchantOrderId: string; orderDate: Date; subTotalPaise: number; weightGrams: number; lengthCm: number; breadthCm: number; heightCm: number },
  items: { name: string; units: number }[],
  from: ReturnAddress,
  to: ReturnAddress & { locationName: string },
): BookingRequest {
  const address = (a: ReturnAddress) => ({
    name: fullName(a.name, a.last_name),
    address: [a.address, a.address_2].filter(Boolean).join(', '),
    city: a.city,
    state: a.state,
    pincode: a.pincode,
    phone: a.phone,
  });
  return {
    reference,
    journey: 'return',
    merchantOrderId: parcel.merchantOrderId,
    tags: [],
    paymentMethod: 'prepaid',
    codPaise: 0,
    totalPaise: parcel.subTotalPaise,
    weightGrams: parcel.weightGrams,
    lengthCm: parcel.lengthCm,
    breadthCm: parcel.breadthCm,
    heightCm: parcel.heightCm,
    productsDescription: items.map((item) => item.name).join(', ').slice(0, 200),
    quantity: items.reduce((sum, item) => sum + item.units, 0),
    // Delhivery's reverse pickup: the customer is the consignee it collects from, the warehouse its "return" address.
    consignee: address(from),
    pickup: { ...address(to), locationName: to.locationName },
    orderDate: parcel.orderDate,
  };
}
