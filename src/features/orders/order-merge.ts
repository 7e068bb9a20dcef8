import { paiseToRupees } from '../../domain/money.js';
import type { OrderItemRow, OrderRow } from './orders.repository.js';
import { CreateOrderBody, type CreateOrderInput, type UpdateOrderInput } from './orders.schemas.js';

// PUT /order takes Velocity's whole forward-order body (which replaces the order, as before) or,
// as integrations also send it, only the fields that change: those are merged into the order as
// stored, re-read as a body, so the merged order goes through exactly the checks and pricing of a
// whole one.

const REQUIRED = (CreateOrderBody as { required?: string[] }).required ?? [];

/** A body with every field forward-order requires replaces the order; anything less is a change to merge. */
export function isWholeOrder(body: UpdateOrderInput): body is CreateOrderInput {
  return REQUIRED.every((field) => (body as Record<string, unknown>)[field] !== undefined);
}

const SHIPPING_FIELDS = [
  'shipping_customer_name',
  'shipping_last_name',
  'shipping_address',
  'shipping_address_2',
  'shipping_city',
  'shipping_pincode',
  'shipping_state',
  'shipping_country',
  'shipping_email',
  'shipping_phone',
] as const;

/** The order as stored, written back as the forward-order body that would store it. */
export function storedOrderBody(order: OrderRow, items: OrderItemRow[], storeName: string | null): CreateOrderInput {
  const present = <T>(value: T | null) => value ?? undefined;
  return {
    order_id: order.merchantOrderId,
    order_date: order.orderDate.toISOString(),
    store_name: present(storeName),
    channel_id: present(order.channelRef),
    company_name: present(order.companyName),
    billing_gstin: present(order.buyerGstin),
    language: present(order.language),
    billing_customer_name: order.billingName,
    billing_last_name: present(order.billingLastName),
    billing_address: order.billingAddress,
    billing_address_2: present(order.billingAddress2),
    billing_city: order.billingCity,
    billing_pincode: order.billingPincode,
    billing_state: order.billingState,
    billing_country: order.billingCountry,
    billing_email: present(order.billingEmail),
    billing_phone: order.billingPhone,
    shipping_is_billing: order.shippingIsBilling,
    // Written even when shipping is billing (they hold the same address then): a change that sends
    // shipping_* alone to such an order starts from it.
    shipping_customer_name: order.shippingName,
    shipping_last_name: present(order.shippingLastName),
    shipping_address: order.shippingAddress,
    shipping_address_2: present(order.shippingAddress2),
    shipping_city: order.shippingCity,
    shipping_pincode: order.shippingPincode,
    shipping_state: order.shippingState,
    shipping_country: order.shippingCountry,
    shipping_email: present(order.shippingEmail),
    shipping_phone: order.shippingPhone,
    print_label: order.printLabel,
    order_items: items.map((item) => ({
      name: item.name,
      sku: item.sku,
      units: item.units,
      selling_price: paiseToRupees(item.sellingPricePaise),
      discount: paiseToRupees(item.discountPaise),
      tax: present(item.taxPercent),
      hsn: present(item.hsn),
      category: present(item.category),
    })),
    payment_method: order.paymentMethod,
    sub_total: paiseToRupees(order.subTotalPaise),
    total_discount: paiseToRupees(order.totalDiscountPaise),
    cod_collectible: paiseToRupees(order.codCollectiblePaise),
    length: order.lengthCm,
    breadth: order.breadthCm,
    height: order.heightCm,
    weight: order.weightGrams / 1000,
    ...(order.packages && {
      packages: order.packages.map((box) => ({
        weight: box.weightGrams / 1000,
        length: box.lengthCm,
        breadth: box.breadthCm,
        height: box.heightCm,
        ...(box.items.length > 0 && { items: box.items }),
      })),
    }),
    warehouse_id: order.warehouseId,
    vendor_details: present(order.vendorDetails),
    ewaybill_no: present(order.ewaybillNo),
    ewaybill_date: present(order.ewaybillDate),
    tags: order.tags,
  };
}

/**
 * The stored order with the sent fields over it. Arrays and objects (order_items, vendor_details,
 * tags, packages) are replaced whole. shipping_* sent to an order shipped to its billing address ships it
 * there no longer, unless shipping_is_billing is sent too; pickup_location sent without
 * warehouse_id chooses the warehouse by name, as on a new order.
 */
export function mergeOrderUpdate(stored: CreateOrderInput, sent: UpdateOrderInput): CreateOrderInput {
  const changes = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined));
  const merged = { ...stored, ...changes } as CreateOrderInput;
  if (sent.shipping_is_billing === undefined && SHIPPING_FIELDS.some((field) => sent[field] !== undefined))
    merged.shipping_is_billing = false;
  if (sent.pickup_location !== undefined && sent.warehouse_id === undefined) delete merged.warehouse_id;
  // New boxes without a weight: the order weighs what they weigh together (a total sent is checked against them).
  if (sent.packages !== undefined && sent.packages.length > 0 && sent.weight === undefined)
    merged.weight = sent.packages.reduce((sum, box) => sum + box.weight * 1000, 0) / 1000;
  return merged;
}
