import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { otherPincodeIn } from '../../domain/shipment/ndr-rules.js';
import type { FieldError } from '../../domain/errors.js';
import type { DeliveryCorrection } from '../contracts.js';
import type { OrderInput } from './order-input.js';
import { orderInputOf } from './order-input.js';
import type { PreparedOrder } from './order-rows.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';
import type { CreateOrderInput } from './orders.schemas.js';
import { samePackages } from './order-packages.js';

/*
 * PUT /order on a shipment whose delivery failed (ndr_raised): a merchant corrects the address the
 * courier could not deliver to (issue 46: Velocity clients do so). The parcel is with the courier,
 * booked, priced and sealed, so what fixed the booking and the parcel cannot change; the street
 * address, landmark and phone can, and go to the courier as an address correction (features/ndr).
 */

/** The order fields that say where the parcel goes: the billing ones when it ships to the billing address. */
function deliveryFields(input: OrderInput) {
  const kind = input.shippingIsBilling ? 'billing' : 'shipping';
  const field = (name: string) => `${kind}_${name}`;
  return {
    pincode: field('pincode'),
    city: field('city'),
    state: field('state'),
    address: field('address'),
    address2: field('address_2'),
    phone: field('phone'),
  };
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function sameItems(stored: OrderItemRow[], sent: OrderInput['items']): boolean {
  return (
    stored.length === sent.length &&
    stored.every((row, i) => {
      const item = sent[i]!;
      return (
        row.name === item.name &&
        row.sku === item.sku &&
        row.units === item.units &&
        row.sellingPricePaise === item.sellingPricePaise &&
        row.discountPaise === item.discountPaise &&
        row.taxPercent === item.taxPercent &&
        row.hsn === item.hsn &&
        row.category === item.category
      );
    })
  );
}

/**
 * What an update of a shipment in a failed delivery may not change, each named: where the parcel
 * goes (pincode, city, state: the lane it was booked and routed on), and what the courier booked,
 * priced and picked up (warehouse, weight, dimensions, payment, COD amount, items, declared value).
 * And what a changed address or phone must be for the courier: the same pincode, a mobile number.
 */
export function afterPickupProblems(
  order: OrderRow,
  items: OrderItemRow[],
  { input, warehouse }: PreparedOrder,
  body: CreateOrderInput,
): FieldError[] {
  const f = deliveryFields(input);
  const area: [string, boolean][] = [
    [f.pincode, input.shipping.pincode !== order.shippingPincode],
    [f.city, !sameText(input.shipping.city, order.shippingCity)],
    [f.state, !sameText(input.shipping.state, order.shippingState)],
  ];
  const parcel: [string, boolean][] = [
    [body.warehouse_id ? 'warehouse_id' : 'pickup_location', warehouse.id !== order.warehouseId],
    ['weight', Math.abs(input.weightGrams - order.weightGrams) >= 0.001],
    ['length', input.lengthCm !== order.lengthCm],
    ['breadth', input.breadthCm !== order.breadthCm],
    ['height', input.heightCm !== order.heightCm],
    ['packages', !samePackages(order.packages, input.packages)],
    ['payment_method', input.paymentMethod !== order.paymentMethod],
    ['cod_collectible', input.codPaise !== order.codCollectiblePaise],
    ['order_items', !sameItems(items, input.items)],
    ['sub_total', input.subTotalPaise !== order.subTotalPaise],
  ];
  const problems: FieldError[] = [
    ...area
      .filter(([, changed]) => changed)
      .map(([field]) => ({
        field,
        message: `${field} cannot change after pickup: the parcel goes to the area it was booked for; initiate an RTO and book a new shipment to the new address`,
      })),
    ...parcel
      .filter(([, changed]) => changed)
      .map(([field]) => ({
        field,
        message: `${field} cannot change after pickup: the courier carries the parcel as it was booked and picked up`,
      })),
  ];
  const correction = deliveryCorrection(order, input);
  const lines = correction?.updated_address;
  const named = lines && otherPincodeIn(`${lines.address_line} ${lines.landmark ?? ''}`, order.shippingPincode);
  if (named !== undefined)
    problems.push({
      field: f.address,
      message: `${f.address} names pincode ${named} but the parcel goes to ${order.shippingPincode}: the delivery pincode cannot change after pickup`,
    });
  if (correction?.updated_phone_number !== undefined && !canonicalIndianMobile(correction.updated_phone_number))
    problems.push({
      field: f.phone,
      message: `${f.phone} must be a 10-digit Indian mobile number after a failed delivery: the courier calls it`,
    });
  return problems;
}

/** What the courier must be told of the update: the delivery address lines and phone that changed; undefined when none did. */
export function deliveryCorrection(order: OrderRow, input: OrderInput): DeliveryCorrection | undefined {
  const before = orderInputOf(order, []).shipping;
  const after = input.shipping;
  const moved = before.address !== after.address || before.address2 !== after.address2;
  const phone = before.phone !== after.phone;
  if (!moved && !phone) return undefined;
  return {
    ...(moved && {
      updated_address: { address_line: after.address, ...(after.address2 && { landmark: after.address2 }) },
    }),
    ...(phone && { updated_phone_number: after.phone }),
  };
}
