import type { ChannelAddress, ChannelOrder } from '../../channels/channel-adapter.js';
import type { FieldError } from '../../domain/errors.js';

// A store's order as forward-order's body (Velocity's order model), or the reasons it cannot be
// one. The order's own checks (phone, pincode, serviceability) run when it is made; this file
// refuses only what a store order may lack that a Velocity order must have, and never invents a
// value the merchant would have to correct (a weight, a name).

/** The package a channel's orders ship in, and the weight used when the items carry none. */
export interface ChannelPackage {
  defaultWeightGrams: number | null;
  lengthCm: number;
  breadthCm: number;
  heightCm: number;
}

export interface BodyContext {
  storeName: string;
  warehouseId: string;
  package: ChannelPackage;
}

const MAX_ITEMS = 100;

/** The order_id a channel's order gets: the store's name and the store's number of it ("acme-1001"), unique per account. */
export function merchantOrderIdOf(storeName: string, channelOrderName: string): string {
  const store =
    storeName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'store';
  const number = channelOrderName
    .replace(/^#/, '')
    .replace(/[^\x21-\x7E]+/g, '-')
    .slice(0, 50);
  return `${store}-${number}`;
}

const rupees = (paise: number) => Math.round(paise) / 100;
const cut = (value: string | null, max: number) => (value === null ? null : value.trim().slice(0, max) || null);

function countryOf(code: string | null): string {
  return code === null || code.toUpperCase() === 'IN' ? 'India' : code.toUpperCase();
}

/** One address's fields under forward-order's prefix; a field the store left empty stays absent, for the order's checks to name. */
function addressFields(prefix: 'billing' | 'shipping', address: ChannelAddress, email: string | null) {
  const first = cut(address.firstName, 200);
  const last = cut(address.lastName, 200);
  const fields: Record<string, string> = {};
  const put = (name: string, value: string | null) => {
    if (value !== null) fields[`${prefix}_${name}`] = value;
  };
  put('customer_name', first ?? last);
  put('last_name', first ? last : null);
  put('address', cut(address.address1, 500));
  put('address_2', cut(address.address2, 500));
  put('city', cut(address.city, 100));
  put('pincode', cut(address.pincode, 20)?.replace(/\s+/g, '') ?? null);
  put('state', cut(address.state, 100));
  put('country', countryOf(address.countryCode));
  put('email', cut(email, 254));
  put('phone', cut(address.phone, 20));
  return fields;
}

/** The order's dead weight in kilograms: the items' weights when every item has one, else the channel's default, else null. */
export function weightKgOf(order: ChannelOrder, pkg: ChannelPackage): number | null {
  const known = order.lines.every((line) => line.unitWeightGrams !== null && line.unitWeightGrams > 0);
  const grams = known
    ? order.lines.reduce((sum, line) => sum + line.unitWeightGrams! * line.units, 0)
    : pkg.defaultWeightGrams;
  return grams === null || grams <= 0 ? null : Math.round(grams) / 1000;
}

/** What stops the order before forward-order sees it; empty when nothing does. */
export function channelOrderProblems(order: ChannelOrder, pkg: ChannelPackage): FieldError[] {
  const problems: FieldError[] = [];
  if (order.currency !== null && order.currency.toUpperCase() !== 'INR')
    problems.push({ field: 'currency', message: `currency is ${order.currency}: Dakiya ships orders in rupees (INR)` });
  if (order.shipping === null && order.billing === null)
    problems.push({
      field: 'shipping_address',
      message: 'shipping_address is missing: the store sent no address to ship to',
    });
  if (order.lines.length === 0)
    problems.push({ field: 'order_items', message: 'order_items is empty: the order has no items to ship' });
  if (order.lines.length > MAX_ITEMS)
    problems.push({
      field: 'order_items',
      message: `order_items has ${order.lines.length} lines; at most ${MAX_ITEMS} ship as one order`,
    });
  if (weightKgOf(order, pkg) === null)
    problems.push({
      field: 'weight',
      message: 'weight is unknown: an item has no weight in the store, and the channel has no default package weight',
    });
  return problems;
}

/** forward-order's body for a store order that channelOrderProblems passed. */
export function forwardOrderBody(
  order: ChannelOrder,
  channelOrderName: string,
  context: BodyContext,
): Record<string, unknown> {
  const shipping = order.shipping ?? order.billing!;
  const billing = order.billing ?? shipping;
  const cod = order.paymentMethod === 'cod' && order.codPaise > 0;
  return {
    order_id: merchantOrderIdOf(context.storeName, channelOrderName),
    order_date: order.createdAt.toISOString(),
    store_name: context.storeName,
    ...addressFields('billing', billing, order.email),
    shipping_is_billing: false,
    ...addressFields('shipping', shipping, order.email),
    order_items: order.lines.map((line) => ({
      name: line.name.slice(0, 300) || 'Item',
      sku: (line.sku?.trim() || line.name).slice(0, 100) || 'item',
      units: line.units,
      selling_price: rupees(line.unitPricePaise),
      ...(line.category !== null && { category: line.category }),
    })),
    payment_method: cod ? 'COD' : 'PREPAID',
    sub_total: rupees(order.totalPaise),
    total_discount: Math.min(rupees(order.discountPaise), rupees(order.totalPaise)),
    cod_collectible: cod ? rupees(Math.min(order.codPaise, order.totalPaise)) : 0,
    length: context.package.lengthCm,
    breadth: context.package.breadthCm,
    height: context.package.heightCm,
    weight: weightKgOf(order, context.package),
    warehouse_id: context.warehouseId,
  };
}

/** A ledger row's payload back as the adapter mapped it (its one date is kept as ISO text). */
export function orderOfPayload(payload: Record<string, unknown>): ChannelOrder {
  return {
    ...(payload as unknown as ChannelOrder),
    createdAt: new Date(payload.createdAt as string),
    updatedAt: typeof payload.updatedAt === 'string' ? new Date(payload.updatedAt) : null,
  };
}

export const payloadOf = (order: ChannelOrder): Record<string, unknown> =>
  JSON.parse(JSON.stringify(order)) as Record<string, unknown>;
