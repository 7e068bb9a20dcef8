import { decimalTextToPaise } from '../domain/money.js';
import { type ChannelAddress, ChannelCallError, type ChannelLine, type ChannelOrder } from './channel-adapter.js';

// Shopify sends one order in two shapes: the GraphQL Admin API's node (camelCase, money in
// `*Set.shopMoney.amount`, gid ids) when Dakiya pulls, and the REST-shaped JSON (snake_case,
// numeric ids) its webhooks deliver. Both map here, to the same ChannelOrder, so that a pulled
// order and the same order's webhook can never disagree (docs: docs/channels-sources.md S3, S6).

type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** Shopify writes "" for an e-mail or SKU the buyer or merchant left out: that is no value either. */
const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' ? String(value) : null;

const malformed = (what: string) => new ChannelCallError('malformed', `Shopify sent an order without ${what}`);

/** Money as Shopify serialises it (a Decimal as text, "1299.0"); a number is accepted as its text. */
function paise(value: unknown, what: string): number {
  if (value === null || value === undefined) return 0;
  const amount = decimalTextToPaise(String(value));
  if (amount === undefined) throw malformed(`a readable ${what} (${JSON.stringify(value)})`);
  return amount;
}
const shopMoney = (set: unknown): unknown => record(record(set)?.shopMoney)?.amount;
const restShopMoney = (set: unknown): unknown => record(record(set)?.shop_money)?.amount;

/** The numeric id at the end of a gid ("gid://shopify/Order/5847392847" → "5847392847"). */
export function gidTail(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1);
}

/**
 * COD when any gateway says so: Shopify's own manual method is "Cash on Delivery (COD)", merchants
 * rename it ("Cash on Delivery"), checkout apps add their own ("Gokwik COD", "gokwik_cod"). `cod` must
 * stand as a word so that a name merely containing the letters (a "Codex Pay") is not taken for it.
 */
export function isCodGateway(names: readonly string[]): boolean {
  return names.some((name) => {
    const lower = name.toLowerCase();
    return lower.includes('cash on delivery') || /(^|[^a-z])cod([^a-z]|$)/.test(lower);
  });
}

const GRAMS_PER: Record<string, number> = { GRAMS: 1, KILOGRAMS: 1000, OUNCES: 28.349523125, POUNDS: 453.59237 };

/**
 * A weight as GraphQL's Weight {value, unit} gives it, in grams. Shopify stores 0 for a product
 * whose weight the merchant never entered: that is an unknown weight, not a parcel of nothing.
 */
export function weightToGrams(weight: unknown): number | null {
  const w = record(weight);
  const factor = GRAMS_PER[String(w?.unit)];
  if (!w || factor === undefined || typeof w.value !== 'number' || !(w.value > 0)) return null;
  return Math.round(w.value * factor);
}

const PAID = new Set(['paid', 'partially_paid', 'authorized']);

/**
 * Waiting to ship, as Shiprocket pulls: not cancelled or closed, nothing fulfilled yet, and either
 * paid or a COD order whose payment is pending until the courier collects it. A prepaid order still
 * pending has not been paid for and must not ship.
 */
function awaiting(o: { cancelled: boolean; closed: boolean; fulfillment: unknown; financial: unknown; cod: boolean }) {
  const fulfillment = o.fulfillment === null || o.fulfillment === undefined ? 'unfulfilled' : String(o.fulfillment);
  const financial = String(o.financial ?? '').toLowerCase();
  return (
    !o.cancelled &&
    !o.closed &&
    fulfillment.toLowerCase() === 'unfulfilled' &&
    (PAID.has(financial) || (o.cod && financial === 'pending'))
  );
}

function graphqlAddress(value: unknown): ChannelAddress | null {
  const a = record(value);
  if (!a) return null;
  return {
    firstName: text(a.firstName),
    lastName: text(a.lastName),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    state: text(a.province) ?? text(a.provinceCode),
    pincode: text(a.zip),
    phone: text(a.phone),
    countryCode: text(a.countryCodeV2) ?? text(a.countryCode),
  };
}

function restAddress(value: unknown): ChannelAddress | null {
  const a = record(value);
  if (!a) return null;
  return {
    firstName: text(a.first_name),
    lastName: text(a.last_name),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    state: text(a.province) ?? text(a.province_code),
    pincode: text(a.zip),
    phone: text(a.phone),
    countryCode: text(a.country_code),
  };
}

const units = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);

/** A GraphQL LineItem node: the discounted unit price includes the discounts allocated to the line. */
export function graphqlLine(value: unknown): ChannelLine {
  const line = record(value) ?? {};
  const price = shopMoney(line.discountedUnitPriceSet) ?? shopMoney(line.originalUnitPriceSet);
  const weight = record(record(record(line.variant)?.inventoryItem)?.measurement)?.weight;
  return {
    name: text(line.title) ?? text(line.name) ?? '',
    sku: text(line.sku),
    units: units(line.quantity),
    unitPricePaise: paise(price, 'line price'),
    unitWeightGrams: weightToGrams(weight),
    category: text(record(line.product)?.productType)?.trim().slice(0, 100) || null,
  };
}

/**
 * A REST line: `price` is before discounts, which come as `discount_allocations` (the line's own and
 * its share of the order's); the older `total_discount` where those are absent. A REST line names
 * its product (`product_id`) but not its type: the adapter's completeOrders asks the GraphQL API.
 */
function restLine(value: unknown): ChannelLine {
  const line = record(value) ?? {};
  const count = units(line.quantity);
  const allocations = list(line.discount_allocations);
  const discount =
    allocations.length > 0
      ? allocations.reduce<number>((sum, a) => sum + paise(record(a)?.amount, 'line discount'), 0)
      : paise(line.total_discount, 'line discount');
  const grams = typeof line.grams === 'number' && line.grams > 0 ? Math.round(line.grams) : null;
  const productId = text(line.product_id);
  return {
    name: text(line.title) ?? text(line.name) ?? '',
    sku: text(line.sku),
    units: count,
    unitPricePaise: paise(line.price, 'line price') - (count > 0 ? Math.round(discount / count) : 0),
    unitWeightGrams: grams,
    category: null,
    ...(productId !== null && { productId }),
  };
}

const lineNodes = (connection: unknown) => list(record(connection)?.edges).map((edge) => record(edge)?.node);

/** An Order node of the GraphQL Admin API (the fields pullOrders asks for). */
export function orderFromGraphql(value: unknown): ChannelOrder {
  const o = record(value);
  if (!o) throw malformed('a body');
  const id = text(o.legacyResourceId) ?? (typeof o.id === 'string' ? gidTail(o.id) : null);
  if (!id) throw malformed('an id');
  const gateways = list(o.paymentGatewayNames).filter((g): g is string => typeof g === 'string');
  const cod = isCodGateway(gateways);
  const cancelled = o.cancelledAt !== null && o.cancelledAt !== undefined;
  return {
    channelOrderId: id,
    channelOrderName: text(o.name) ?? id,
    createdAt: dateOf(o.createdAt),
    updatedAt: dateOrNull(o.updatedAt),
    cancelled,
    awaitingShipment: awaiting({
      cancelled,
      closed: o.closed === true || (o.closedAt !== null && o.closedAt !== undefined),
      fulfillment: o.displayFulfillmentStatus,
      financial: o.displayFinancialStatus,
      cod,
    }),
    currency: text(record(record(o.totalPriceSet)?.shopMoney)?.currencyCode),
    paymentMethod: cod ? 'cod' : 'prepaid',
    codPaise: cod ? paise(shopMoney(o.totalOutstandingSet) ?? shopMoney(o.totalPriceSet), 'outstanding amount') : 0,
    totalPaise: paise(shopMoney(o.totalPriceSet), 'total'),
    subTotalPaise: paise(shopMoney(o.subtotalPriceSet), 'subtotal'),
    discountPaise: paise(shopMoney(o.totalDiscountsSet), 'discount'),
    taxPaise: paise(shopMoney(o.totalTaxSet), 'tax'),
    shippingPaise: paise(shopMoney(o.totalShippingPriceSet), 'shipping'),
    email: text(o.email),
    shipping: graphqlAddress(o.shippingAddress),
    billing: graphqlAddress(o.billingAddress),
    lines: lineNodes(o.lineItems).map(graphqlLine),
  };
}

/**
 * An order as Shopify's webhooks send it. The id is read from `admin_graphql_api_id` first: ids
 * past 2^53 (the documented sample's 820982911946154508) lose digits in JSON.parse, the gid's text
 * does not. The top-level `gateway` went away in recent versions; `payment_gateway_names` replaced it.
 */
export function orderFromWebhook(value: unknown): ChannelOrder {
  const o = record(value);
  if (!o) throw malformed('a body');
  const id =
    (typeof o.admin_graphql_api_id === 'string' ? gidTail(o.admin_graphql_api_id) : null) ??
    (typeof o.id === 'number' || typeof o.id === 'string' ? String(o.id) : null);
  if (!id) throw malformed('an id');
  const names = list(o.payment_gateway_names).filter((g): g is string => typeof g === 'string');
  const gateways = names.length > 0 ? names : typeof o.gateway === 'string' ? [o.gateway] : [];
  const cod = isCodGateway(gateways);
  const cancelled = o.cancelled_at !== null && o.cancelled_at !== undefined;
  const shipping =
    restShopMoney(o.total_shipping_price_set) ??
    rupeesOf(list(o.shipping_lines).reduce<number>((sum, l) => sum + paise(record(l)?.price, 'shipping'), 0));
  return {
    channelOrderId: id,
    channelOrderName: text(o.name) ?? id,
    createdAt: dateOf(o.created_at),
    updatedAt: dateOrNull(o.updated_at),
    cancelled,
    awaitingShipment: awaiting({
      cancelled,
      closed: o.closed_at !== null && o.closed_at !== undefined,
      fulfillment: o.fulfillment_status,
      financial: o.financial_status,
      cod,
    }),
    currency: text(o.currency),
    paymentMethod: cod ? 'cod' : 'prepaid',
    codPaise: cod ? paise(o.total_outstanding ?? o.total_price, 'outstanding amount') : 0,
    totalPaise: paise(o.total_price, 'total'),
    subTotalPaise: paise(o.subtotal_price, 'subtotal'),
    discountPaise: paise(o.total_discounts, 'discount'),
    taxPaise: paise(o.total_tax, 'tax'),
    shippingPaise: paise(shipping, 'shipping'),
    email: text(o.email) ?? text(o.contact_email),
    shipping: restAddress(o.shipping_address),
    billing: restAddress(o.billing_address),
    lines: list(o.line_items).map(restLine),
  };
}

/**
 * A webhook's body parsed with its big ids kept whole: Shopify's ids can pass 2^53 (its documented
 * sample order is 820982911946154508, without an admin_graphql_api_id), which JSON.parse would round.
 * Only an unescaped `"id":` key is touched, never the same letters inside a string value.
 */
export function parseWebhookBody(raw: string): unknown {
  try {
    return JSON.parse(raw.replace(/(?<!\\)"id"(\s*):(\s*)(\d{16,})/g, '"id"$1:$2"$3"'));
  } catch {
    throw new ChannelCallError('malformed', 'Shopify sent a webhook whose body is not JSON');
  }
}

const rupeesOf = (amount: number) => (amount / 100).toFixed(2);

function dateOrNull(value: unknown): Date | null {
  const at = typeof value === 'string' ? new Date(value) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

function dateOf(value: unknown): Date {
  const at = typeof value === 'string' ? new Date(value) : undefined;
  if (!at || Number.isNaN(at.getTime())) throw malformed('a readable creation time');
  return at;
}
