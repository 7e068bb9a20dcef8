import { formatDay, type IndiaDay, indiaDayOf } from '../calendar.js';
import type { RefundToCode } from './refund-payee.js';
import type { ShipmentStatus } from '../shipment/status-machine.js';

// What a buyer may ask to send back from a delivered order, by the rules brands run their returns
// with (issue 50): only once delivered, within the store's window, never more than was delivered
// nor an item already under review, never what the store marked non-returnable. Pure: the request
// page and the API both ask it, and the buyer's words for each refusal are in buyer-copy.

/** Photos a buyer may attach to one request. */
export const MAX_RETURN_PHOTOS = 5;
/** A photo as the buyer's phone takes it: most are 2-5 MB, so 6 MiB each. */
export const RETURN_PHOTO_MAX_MEGABYTES = 6;
export const RETURN_PHOTO_MAX_BYTES = RETURN_PHOTO_MAX_MEGABYTES * 1024 * 1024;
/** 50 megapixels: the largest phone cameras; a picture declaring more is refused before it is decoded. */
export const RETURN_PHOTO_MAX_PIXELS = 50_000_000;

export interface ReturnPolicy {
  /** Days after delivery (India time, the day of delivery not counted) the buyer may ask; 0 turns requests off. */
  windowDays: number;
  /** The store's reasons, as the buyer picks one. */
  reasons: readonly string[];
  nonReturnableSkus: readonly string[];
  /** Compared without regard to case or surrounding spaces, as merchants type them. */
  nonReturnableCategories: readonly string[];
}

export interface DeliveredItem {
  sku: string;
  name: string;
  units: number;
  category: string | null;
}

export interface ReturnRequestFacts {
  status: ShipmentStatus;
  deliveredAt: Date | null;
  items: readonly DeliveredItem[];
  /** Per SKU, the units asked for by the order's requests that were neither rejected nor withdrawn. */
  unitsAsked: ReadonlyMap<string, number>;
  /** SKUs of the order's requests still waiting for the merchant's decision. */
  openSkus: ReadonlySet<string>;
  /**
   * Whether the shipment has a return under way (booked by an approval or by the merchant, not
   * cancelled): a delivered shipment takes one return, so there is nothing more to ask for.
   */
  returnUnderWay: boolean;
  policy: ReturnPolicy;
  now: Date;
}

export interface ReturnRequestAsk {
  items: readonly { sku: string; quantity: number }[];
  reason: string;
  photos: number;
  /** A pickup address the buyer gave: whether its pincode exists, and whether a courier collects from it for the warehouse. */
  pickup?: { pincodeKnown: boolean; reverseServiceable: boolean } | undefined;
}

/** Refusals of the whole request: the buyer cannot ask at all (yet, or any more). */
export type GateCode = 'requests_off' | 'not_delivered' | 'already_returned' | 'window_closed';
/** Refusals of one item the buyer chose. */
export type ItemCode =
  | 'item_not_in_order'
  | 'item_repeated'
  | 'quantity_invalid'
  | 'non_returnable_sku'
  | 'non_returnable_category'
  | 'request_open'
  | 'quantity_over';
/** Refusals of the pickup address the buyer gave. */
export type PickupCode = 'pickup_pincode_unknown' | 'pickup_unserviceable';
export type RefusalCode =
  | GateCode
  | ItemCode
  | PickupCode
  | RefundToCode
  | 'no_items'
  | 'reason_unknown'
  | 'too_many_photos';

export interface Refusal {
  code: RefusalCode;
  /** The input at fault: `items[1].quantity`, `reason`; the whole request's gate names `order`. */
  field: string;
  sku?: string;
  /** quantity_over: the units that may still be asked for (0 when all were). */
  unitsLeft?: number;
  /** window_closed: the window's last day, YYYY-MM-DD (India). */
  lastDay?: string;
}

/** The last day (India) requests are taken; undefined when the store takes none or the order is not delivered. */
/** What decides whether an order takes requests at all (requestGate): no items, no requests. */
export type GateFacts = Pick<ReturnRequestFacts, 'status' | 'deliveredAt' | 'returnUnderWay' | 'now'> & {
  policy: Pick<ReturnPolicy, 'windowDays'>;
};

export function lastReturnDay(facts: Pick<GateFacts, 'deliveredAt' | 'policy'>): IndiaDay | undefined {
  if (facts.policy.windowDays <= 0 || facts.deliveredAt === null) return undefined;
  return indiaDayOf(facts.deliveredAt) + facts.policy.windowDays;
}

/** Why the buyer cannot ask at all, or undefined when the order takes requests now. */
export function requestGate(facts: GateFacts): Refusal | undefined {
  if (facts.policy.windowDays <= 0) return { code: 'requests_off', field: 'order' };
  // Still moving (or back with the seller, or lost): there is nothing in the buyer's hands to return.
  if (facts.status !== 'delivered' || facts.deliveredAt === null) return { code: 'not_delivered', field: 'order' };
  if (facts.returnUnderWay) return { code: 'already_returned', field: 'order' };
  const lastDay = lastReturnDay(facts)!;
  if (indiaDayOf(facts.now) > lastDay) return { code: 'window_closed', field: 'order', lastDay: formatDay(lastDay) };
  return undefined;
}

interface OrderLine {
  name: string;
  units: number;
  category: string | null;
}

/** The order's items by SKU: an order may list one SKU on two lines. */
function linesBySku(items: readonly DeliveredItem[]): Map<string, OrderLine> {
  const lines = new Map<string, OrderLine>();
  for (const item of items) {
    const line = lines.get(item.sku);
    if (line) line.units += item.units;
    else lines.set(item.sku, { name: item.name, units: item.units, category: item.category });
  }
  return lines;
}

const sameCategory = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Why this SKU of the order cannot be asked for now, whatever the quantity; undefined when it can. */
function skuRefusal(facts: ReturnRequestFacts, sku: string, line: OrderLine, field: string): Refusal | undefined {
  if (facts.policy.nonReturnableSkus.includes(sku)) return { code: 'non_returnable_sku', field, sku };
  const { category } = line;
  if (category !== null && facts.policy.nonReturnableCategories.some((c) => sameCategory(c, category)))
    return { code: 'non_returnable_category', field, sku };
  if (facts.openSkus.has(sku)) return { code: 'request_open', field, sku };
  return undefined;
}

const unitsLeft = (facts: ReturnRequestFacts, sku: string, line: OrderLine) =>
  Math.max(0, line.units - (facts.unitsAsked.get(sku) ?? 0));

/** The order's items as the request form offers them: what may still be asked for, or why not. */
export function returnableItems(facts: ReturnRequestFacts) {
  return [...linesBySku(facts.items)].map(([sku, line]) => {
    const left = unitsLeft(facts, sku, line);
    const refusal =
      skuRefusal(facts, sku, line, 'items') ??
      (left === 0 ? { code: 'quantity_over' as const, field: 'items', sku, unitsLeft: 0 } : undefined);
    return { sku, name: line.name, units: line.units, unitsLeft: left, ...(refusal && { refusal }) };
  });
}

/** Why one item of the request cannot be asked for, or undefined when it can. */
function itemRefusal(
  facts: ReturnRequestFacts,
  lines: ReadonlyMap<string, OrderLine>,
  chosen: ReadonlySet<string>,
  { sku, quantity }: ReturnRequestAsk['items'][number],
  field: string,
): Refusal | undefined {
  const line = lines.get(sku);
  if (!line) return { code: 'item_not_in_order', field: `${field}.sku`, sku };
  if (chosen.has(sku)) return { code: 'item_repeated', field: `${field}.sku`, sku };
  const refused = skuRefusal(facts, sku, line, `${field}.sku`);
  if (refused) return refused;
  if (!Number.isInteger(quantity) || quantity < 1) return { code: 'quantity_invalid', field: `${field}.quantity`, sku };
  const left = unitsLeft(facts, sku, line);
  if (quantity > left) return { code: 'quantity_over', field: `${field}.quantity`, sku, unitsLeft: left };
  return undefined;
}

/** Every reason to refuse this request, the gate's alone when the order takes none now; [] when it may be made. */
export function returnRequestRefusals(facts: ReturnRequestFacts, ask: ReturnRequestAsk): Refusal[] {
  const gate = requestGate(facts);
  if (gate) return [gate];
  const refusals: Refusal[] = [];
  if (ask.items.length === 0) refusals.push({ code: 'no_items', field: 'items' });
  const lines = linesBySku(facts.items);
  const chosen = new Set<string>();
  for (const [i, item] of ask.items.entries()) {
    const refused = itemRefusal(facts, lines, chosen, item, `items[${i}]`);
    if (refused) refusals.push(refused);
    chosen.add(item.sku);
  }
  if (!facts.policy.reasons.includes(ask.reason)) refusals.push({ code: 'reason_unknown', field: 'reason' });
  if (ask.photos > MAX_RETURN_PHOTOS) refusals.push({ code: 'too_many_photos', field: 'photos' });
  if (ask.pickup && !ask.pickup.pincodeKnown)
    refusals.push({ code: 'pickup_pincode_unknown', field: 'pickup.pincode' });
  else if (ask.pickup && !ask.pickup.reverseServiceable)
    refusals.push({ code: 'pickup_unserviceable', field: 'pickup.pincode' });
  return refusals;
}
