import { decimalTextToPaise, rupeesToPaise } from '../domain/money.js';
import { type ChannelAddress, ChannelCallError, type ChannelLine, type ChannelOrder } from './channel-adapter.js';

// A WooCommerce REST v3 order (GET /wc/v3/orders/{id}, and the body of its order.* webhooks) in
// Dakiya's terms. The shapes are the ones woocommerce-rest-api-docs shows (fixtures/woocommerce/SOURCES.md):
// money totals are decimal text, a line's `price` is a JSON number, dates without `_gmt` are the
// site's local time with no offset, and an order carries no weights (those are the products').

/** Statuses in which the store no longer wants the order shipped. */
const CANCELLED = new Set(['cancelled', 'refunded', 'failed', 'trash']);
/** WooCommerce's own COD gateway id is `cod`; other plugins' ids differ but their titles say it. */
const COD_TITLE = /cash on delivery|\bcod\b/i;

type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

/** Text the store left blank is absent, not an empty value: nothing invented, nothing kept empty. */
const text = (value: unknown): string | null => {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

// WordPress stores product and site names HTML-escaped ("Ship Your Idea &ndash; Color: Black" in
// the docs' own order 727), so a label would print the entity unless it is read back.
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '\u2013',
  mdash: '\u2014',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
};

export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

function malformed(orderId: string, why: string): never {
  throw new ChannelCallError('malformed', `WooCommerce order ${orderId}: ${why}`);
}

/** Decimal text in paise; a number where a plugin sent one (read as rupees, rounded half up). */
function paiseOf(value: unknown, orderId: string, field: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return rupeesToPaise(value);
  const paise = typeof value === 'string' ? decimalTextToPaise(value) : undefined;
  if (paise === undefined) malformed(orderId, `${field} is ${JSON.stringify(value)}, not an amount`);
  return paise;
}

/** Zero when the field is absent: older WooCommerce versions leave some totals out. */
const optionalPaise = (value: unknown, orderId: string, field: string) =>
  value === undefined || value === null || value === '' ? 0 : paiseOf(value, orderId, field);

function addressOf(value: unknown, phone: string | null): ChannelAddress | null {
  const a = record(value);
  if (!a) return null;
  const address: ChannelAddress = {
    firstName: text(a.first_name),
    lastName: text(a.last_name),
    address1: text(a.address_1),
    address2: text(a.address_2),
    city: text(a.city),
    state: text(a.state),
    pincode: text(a.postcode),
    phone,
    countryCode: text(a.country),
  };
  // A virtual order's shipping block is all blanks: there is no address to ship to, not an empty one.
  const { phone: _, ...place } = address;
  return Object.values(place).every((field) => field === null) ? null : address;
}

/**
 * A line's unit price after its own discounts: WooCommerce's `price` (total ÷ quantity, excluding
 * tax, a JSON number), or the line total divided out when a version leaves `price` out.
 */
function lineOf(value: unknown, orderId: string, index: number): ChannelLine {
  const line = record(value) ?? malformed(orderId, `line_items[${index}] is not an object`);
  const units = line.quantity;
  if (typeof units !== 'number' || !Number.isInteger(units) || units <= 0)
    malformed(orderId, `line_items[${index}].quantity is ${JSON.stringify(units)}`);
  const unitPricePaise =
    line.price === undefined || line.price === null
      ? Math.round(paiseOf(line.total, orderId, `line_items[${index}].total`) / units)
      : paiseOf(line.price, orderId, `line_items[${index}].price`);
  const name = text(line.name);
  const productId = text(line.product_id);
  return {
    name: name === null ? `Product ${productId ?? index + 1}` : decodeEntities(name),
    sku: text(line.sku),
    units,
    unitPricePaise,
    // The order JSON has no weights or categories: the categories are the products' (the adapter's
    // completeOrders asks GET /products), the weight in the store's unit is not read, and intake
    // falls back on the store's default package.
    unitWeightGrams: null,
    category: null,
    // 0 when the product was deleted since.
    ...(productId !== null && productId !== '0' && { productId }),
  };
}

function createdAtOf(order: Json, orderId: string): Date {
  // `date_created` is the site's wall clock without an offset; only the `_gmt` twin is an instant.
  const gmt = text(order.date_created_gmt);
  if (gmt === null) malformed(orderId, 'date_created_gmt is missing');
  const instant = new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(gmt) ? gmt : `${gmt}Z`);
  if (Number.isNaN(instant.getTime())) malformed(orderId, `date_created_gmt ${JSON.stringify(gmt)} is not a date`);
  return instant;
}

/** date_modified_gmt as an instant, or null when the site sent none or nonsense. */
function modifiedAtOf(order: Json): Date | null {
  const gmt = text(order.date_modified_gmt);
  const instant = gmt === null ? null : new Date(/(Z|[+-]\d\d:?\d\d)$/i.test(gmt) ? gmt : `${gmt}Z`);
  return instant && !Number.isNaN(instant.getTime()) ? instant : null;
}

export function isWooCommerceCod(paymentMethod: unknown, paymentMethodTitle: unknown): boolean {
  return paymentMethod === 'cod' || (typeof paymentMethodTitle === 'string' && COD_TITLE.test(paymentMethodTitle));
}

/** One order as WooCommerce's REST v3 answers it; a ChannelCallError('malformed') naming the order when it is not one. */
export function mapWooCommerceOrder(json: unknown): ChannelOrder {
  const order = record(json) ?? malformed('?', 'the order is not a JSON object');
  const id = order.id;
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) malformed('?', `id is ${JSON.stringify(id)}`);
  const orderId = String(id);
  const status = text(order.status) ?? malformed(orderId, 'status is missing');
  const items = order.line_items;
  if (!Array.isArray(items)) malformed(orderId, 'line_items is not a list');
  const lines = items.map((item, index) => lineOf(item, orderId, index));

  const totalPaise = paiseOf(order.total, orderId, 'total');
  const cod = isWooCommerceCod(order.payment_method, order.payment_method_title);
  const billing = record(order.billing);
  const billingPhone = text(billing?.phone);
  // `shipping.phone` arrived in WooCommerce 5.6; before it, and when the buyer left it blank, the
  // only number on the order is the billing one, and a courier will not book without a phone.
  const shippingPhone = text(record(order.shipping)?.phone) ?? billingPhone;

  return {
    channelOrderId: orderId,
    // Sequential-number plugins change `number` ("WC-1001"); the id stays the platform's key.
    channelOrderName: text(order.number) ?? orderId,
    createdAt: createdAtOf(order, orderId),
    updatedAt: modifiedAtOf(order),
    cancelled: CANCELLED.has(status),
    awaitingShipment: status === 'processing',
    currency: text(order.currency),
    paymentMethod: cod ? 'cod' : 'prepaid',
    // COD is collected in full at the door: WooCommerce has no part-paid COD of its own.
    codPaise: cod ? totalPaise : 0,
    totalPaise,
    // WooCommerce answers no order subtotal: its admin's "Items Subtotal" is the lines' subtotals,
    // before coupons and excluding tax.
    subTotalPaise: items.reduce<number>(
      (sum, item, index) => sum + optionalPaise(record(item)?.subtotal, orderId, `line_items[${index}].subtotal`),
      0,
    ),
    discountPaise: optionalPaise(order.discount_total, orderId, 'discount_total'),
    taxPaise: optionalPaise(order.total_tax, orderId, 'total_tax'),
    shippingPaise: optionalPaise(order.shipping_total, orderId, 'shipping_total'),
    email: text(billing?.email),
    shipping: addressOf(order.shipping, shippingPhone),
    billing: addressOf(order.billing, billingPhone),
    lines,
  };
}
