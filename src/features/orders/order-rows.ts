import type { FieldError } from '../../domain/errors.js';
import type { CourierBooking } from '../../couriers/couriers.service.js';
import type { Allocation } from '../../domain/allocation/allocation.js';
import { formatDay } from '../../domain/calendar.js';
import type { CourierQuote, RateQuote } from '../../domain/rates/engine.js';
import type { StoreRow } from '../../tenancy/stores/stores.repository.js';
import type { WarehouseRow } from '../../tenancy/warehouses/warehouses.service.js';
import type { OrderInput } from './order-input.js';
// The rows an order writes: the order, its shipment, and what a booking adds to it.

/** Everything a booking needs, checked and priced before any row is written. */
export interface PreparedOrder {
  input: OrderInput;
  warehouse: WarehouseRow;
  store: StoreRow | null;
  quote: RateQuote;
  /** What the answer reports without refusing: a pickup_location that is not warehouse_id's name. */
  warnings: FieldError[];
}

export interface Booking extends CourierBooking {
  courier: CourierQuote;
  /** Which allocation rule chose the courier and why; null when the order named it. */
  allocation: Allocation | null;
}

/** What `search` matches: AWB, order ids (with the store's name of it, "#1001"), customer name, phone, email, city and pincode. */
export function searchText(
  input: OrderInput,
  orderId: string,
  awb: string | null,
  channelOrderName?: string | null,
): string {
  const s = input.shipping;
  return [
    awb,
    input.merchantOrderId,
    channelOrderName,
    orderId,
    s.name,
    s.lastName,
    s.phone,
    s.email,
    s.city,
    s.pincode,
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
}

/** The order's columns as the merchant's body sets them (forward-order, and an order update). */
export function orderColumns({ input, warehouse, store }: PreparedOrder) {
  const s = input.shipping;
  const b = input.billing;
  return {
    merchantOrderId: input.merchantOrderId,
    storeId: store?.id ?? null,
    warehouseId: warehouse.id,
    orderDate: input.orderDate,
    paymentMethod: input.paymentMethod,
    subTotalPaise: input.subTotalPaise,
    codCollectiblePaise: input.codPaise,
    billingName: b.name,
    billingLastName: b.lastName,
    billingAddress: b.address,
    billingAddress2: b.address2,
    billingCity: b.city,
    billingPincode: b.pincode,
    billingState: b.state,
    billingCountry: b.country,
    billingEmail: b.email,
    billingPhone: b.phone,
    shippingIsBilling: input.shippingIsBilling,
    shippingName: s.name,
    shippingLastName: s.lastName,
    shippingAddress: s.address,
    shippingAddress2: s.address2,
    shippingCity: s.city,
    shippingPincode: s.pincode,
    shippingState: s.state,
    shippingCountry: s.country,
    shippingEmail: s.email,
    shippingPhone: s.phone,
    lengthCm: input.lengthCm,
    breadthCm: input.breadthCm,
    heightCm: input.heightCm,
    weightGrams: input.weightGrams,
    packages: input.packages,
    tags: input.tags,
    printLabel: input.printLabel,
    channelRef: input.channelRef,
    companyName: input.companyName,
    buyerGstin: input.buyerGstin ?? null,
    language: input.language,
    totalDiscountPaise: input.totalDiscountPaise,
    vendorDetails: input.vendorDetails,
    ewaybillNo: input.ewayBill?.number ?? null,
    ewaybillDate: input.ewayBill?.date ?? null,
  };
}

/** The shipment's copies of the order (for the listing) and its pricing, as the body sets them. */
export function shipmentColumns({ input, warehouse, store, quote }: PreparedOrder) {
  return {
    warehouseId: warehouse.id,
    storeId: store?.id ?? null,
    orderDate: input.orderDate,
    zone: quote.zone,
    isCod: input.paymentMethod === 'cod',
    codAmountPaise: input.codPaise,
    totalPricePaise: input.subTotalPaise,
    appliedWeightGrams: quote.applicableWeight,
    skus: [...new Set(input.items.map((item) => item.sku))],
    tags: input.tags,
  };
}

/** The booking frozen onto the shipment: courier, AWB, the quote's charges and its promised dates. */
export function bookedColumns(booking: Booking, at: Date) {
  return {
    carrierId: booking.courier.service.id,
    awb: booking.awb,
    freightPaise: booking.courier.freightPaise,
    codChargesPaise: booking.courier.codPaise,
    rtoChargesPaise: booking.courier.rtoPaise,
    assignedAt: at,
    routingCode: booking.routingCode,
    courierBarcodes: booking.barcodes ?? null,
    testMode: booking.testMode,
    expectedPickupDate: formatDay(booking.courier.pickupDay),
    expectedDeliveryDate: formatDay(booking.courier.deliveryDay),
    allocation: booking.allocation,
  };
}

/**
 * Milestones of a booking. The promised delivery date is one too (as Velocity integrations read
 * it), at the start of that day in India; `original_` keeps the first promise if a later one moves it.
 */
export function bookingMilestones(booking: Booking, at: Date) {
  const promised = new Date(`${formatDay(booking.courier.deliveryDay)}T00:00:00+05:30`);
  return [
    { milestone: 'courier_assigned', at },
    { milestone: 'expected_delivery_date', at: promised },
    { milestone: 'original_expected_delivery_date', at: promised },
  ];
}

/** What a shipment.booked event adds to the shipment: the courier and AWB just assigned. */
export const bookedChange = (booking: Booking) => ({
  awb: booking.awb,
  carrier_id: booking.courier.service.id,
  courier_name: booking.courier.service.name,
});
