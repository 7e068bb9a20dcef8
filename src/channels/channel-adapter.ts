// What a sales channel (a Shopify shop, a WooCommerce site) is to Dakiya: one small interface per
// platform, beside the couriers' connectors (issue 49). An adapter speaks its platform's API and
// words; it knows nothing of accounts, stores or the database. Money in paise, weight in grams.

export type ChannelName = 'shopify' | 'woocommerce';

/** A shop's credentials as the merchant gave them; kept sealed, never answered back. */
export type ChannelCredentials =
  | { channel: 'shopify'; shopDomain: string; accessToken: string; webhookSecret: string }
  | { channel: 'woocommerce'; siteUrl: string; consumerKey: string; consumerSecret: string; webhookSecret: string };

/** An address as the store sent it: lines kept apart, nothing invented. */
export interface ChannelAddress {
  firstName: string | null;
  lastName: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  /** The state's name or code, as the store holds it ("Karnataka", "KA"). */
  state: string | null;
  pincode: string | null;
  phone: string | null;
  countryCode: string | null;
}

export interface ChannelLine {
  name: string;
  sku: string | null;
  units: number;
  /** What one unit sold for, after its own discounts, in paise. */
  unitPricePaise: number;
  /** One unit's weight when the store knows it, in grams. */
  unitWeightGrams: number | null;
  /** The merchant's category of the product (Shopify's product type), when the order says it: a return policy may refuse categories. */
  category: string | null;
  /**
   * The store's id of the product, on a line that names its product but not its category (a
   * Shopify webhook's line, every WooCommerce line): completeOrders asks the store for the rest.
   */
  productId?: string;
}

/** One store order, in the platform's terms mapped to ours; what intake turns into a Dakiya order. */
export interface ChannelOrder {
  /** The platform's own id of the order (Shopify's numeric id, WooCommerce's id), as text. */
  channelOrderId: string;
  /** What the merchant and buyer call it: Shopify's "#1001", WooCommerce's number. */
  channelOrderName: string;
  createdAt: Date;
  /**
   * When the store last changed it (Shopify updated_at, WooCommerce date_modified_gmt), or null when
   * it did not say: of two copies the older one, arriving later, is not taken over the newer.
   */
  updatedAt: Date | null;
  /** The store cancelled it (Shopify cancelled_at, WooCommerce cancelled/refunded/trash/deleted). */
  cancelled: boolean;
  /** Waiting to ship: open and unfulfilled (Shopify), processing (WooCommerce). */
  awaitingShipment: boolean;
  /**
   * The order's currency as the store sent it (ISO 4217, "INR"); every amount below is in its
   * hundredths. Null when the store named none. Intake refuses an order not in rupees.
   */
  currency: string | null;
  paymentMethod: 'cod' | 'prepaid';
  /** What the buyer still owes at the door, for a COD order; 0 for a prepaid one. */
  codPaise: number;
  totalPaise: number;
  subTotalPaise: number;
  discountPaise: number;
  taxPaise: number;
  shippingPaise: number;
  email: string | null;
  shipping: ChannelAddress | null;
  billing: ChannelAddress | null;
  lines: ChannelLine[];
}

/** Whether the order has lines whose category only the store's API can tell. */
export const lacksCategories = (order: ChannelOrder): boolean =>
  order.lines.some((line) => line.category === null && line.productId !== undefined);

/** The order with each line that lacks its category given the one `categoryOf` finds, if any. */
export const withCategories = (
  order: ChannelOrder,
  categoryOf: (line: ChannelLine, index: number) => string | null,
): ChannelOrder => ({
  ...order,
  lines: order.lines.map((line, index) =>
    line.category === null && line.productId !== undefined ? { ...line, category: categoryOf(line, index) } : line,
  ),
});

/**
 * A store order the platform sent that cannot be read as one (a missing id, an unreadable amount):
 * kept by intake with why, never dropped, and never holding up the orders beside it.
 */
export interface UnreadableOrder {
  /** The platform's id of it, when even that could be read. */
  channelOrderId: string | null;
  channelOrderName: string | null;
  reason: string;
}

/** One page of a pull, and where the next starts (null: the last page). */
export interface OrdersPage {
  orders: ChannelOrder[];
  unreadable: UnreadableOrder[];
  next: string | null;
}

/** A webhook as it arrived: its raw body (the signature is over the bytes) and its headers, lower-cased. */
export interface ChannelWebhook {
  rawBody: string;
  headers: Record<string, string | undefined>;
}

/** What a verified webhook means. `deliveryId`: the platform's id of this delivery, the same on a retry. */
export type WebhookMeaning =
  | { kind: 'order'; deliveryId: string | null; order: ChannelOrder }
  | { kind: 'order_deleted'; deliveryId: string | null; channelOrderId: string }
  /** Signed by the store, but its order cannot be read: kept with why rather than refused as forged. */
  | { kind: 'unreadable'; deliveryId: string | null; order: UnreadableOrder }
  /** A platform's handshake (WooCommerce's ping on creation): answered 200, nothing to do. */
  | { kind: 'ping' }
  /** A topic intake does not act on. */
  | { kind: 'ignored'; topic: string };

/** What a booked shipment tells the store: the parcel's AWB, who carries it, where the buyer follows it. */
export interface Fulfilment {
  channelOrderId: string;
  awb: string;
  courierName: string;
  /** The shipment's tracking page (Dakiya's, under the store's brand). */
  trackingUrl: string;
  /** Whether the store e-mails the buyer itself (off when Dakiya messages the buyer). */
  notifyCustomer: boolean;
  shippedAt: Date;
}

/** What a scan tells the store, in the words stores keep (Shopify's FulfillmentEventStatus). */
export interface TrackingUpdate {
  status: 'in_transit' | 'out_for_delivery' | 'attempted_delivery' | 'delivered' | 'failure';
  /** The courier's words for it ("Consignee unavailable"), as the buyer may read them. */
  message: string;
  happenedAt: Date;
  city: string | null;
}

/**
 * Reads one store order, or says why it cannot be read: the one place the adapters turn a
 * malformed order into an UnreadableOrder instead of failing the page or the webhook it came in.
 */
export function readOrder<T>(
  read: () => T,
  /** The order's id and name as the platform sent them, asked only when it cannot be read. */
  identify: () => { id: unknown; name: unknown },
): { ok: true; value: T } | { ok: false; unreadable: UnreadableOrder } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (!(error instanceof ChannelCallError) || error.kind !== 'malformed') throw error;
    const { id, name } = identify();
    const text = (value: unknown) =>
      typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
    return { ok: false, unreadable: { channelOrderId: text(id), channelOrderName: text(name), reason: error.message } };
  }
}

/** Why a store call failed, in our words: credentials refused, the store limiting us, or it being down. */
export class ChannelCallError extends Error {
  constructor(
    /**
     * `unresolved`: the store's host name has no address (a typo, or DNS not set up yet), which the
     * merchant fixes, unlike `unavailable` (no answer, a 5xx), which passes.
     */
    readonly kind: 'refused_credentials' | 'throttled' | 'unavailable' | 'unresolved' | 'malformed' | 'rejected',
    message: string,
    /** The credential field the store refused (access_token, consumer_key, consumer_secret). */
    readonly fields: readonly string[] = [],
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ChannelCallError';
  }
}

export interface ChannelAdapter {
  readonly name: ChannelName;
  /** Asks the store who it is with these credentials: its name, or a ChannelCallError('refused_credentials'). */
  checkCredentials(credentials: ChannelCredentials): Promise<{ shopName: string }>;
  /** One page of the orders waiting to ship, from `cursor` (null: the first page); waits out throttling itself. */
  pullOrders(credentials: ChannelCredentials, cursor: string | null): Promise<OrdersPage>;
  /** Whether the webhook was signed with the channel's secret (constant-time), and what it means; null when forged or unsigned. */
  readWebhook(credentials: ChannelCredentials, webhook: ChannelWebhook): WebhookMeaning | null;
  /**
   * The orders with what their payloads lack asked of the store's API: the categories of lines
   * that name only their product (lacksCategories), which a store's return policy may refuse.
   * Answers the others as they came, each line the store does not know as it was.
   */
  completeOrders(credentials: ChannelCredentials, orders: readonly ChannelOrder[]): Promise<ChannelOrder[]>;
  /**
   * Tells the store the order shipped. Answers the store's reference for it (Shopify's fulfillment
   * id; WooCommerce's tracking item id, or its note's), which the later calls name. Safe to repeat:
   * a fulfilment the store already has for this AWB is answered, not made twice.
   */
  writeFulfilment(credentials: ChannelCredentials, fulfilment: Fulfilment): Promise<{ reference: string }>;
  /**
   * A re-booked or re-labelled parcel: the fulfilment's AWB, courier and link replaced. Answers the
   * reference the later calls name, which changes where the store cannot edit in place (WooCommerce's
   * tracking items are deleted and added again).
   */
  updateFulfilment(
    credentials: ChannelCredentials,
    reference: string,
    fulfilment: Fulfilment,
  ): Promise<{ reference: string }>;
  /** A scan, told where the store keeps them (Shopify's fulfilment events); WooCommerce completes the order on delivery. */
  writeTrackingUpdate(
    credentials: ChannelCredentials,
    reference: string,
    channelOrderId: string,
    update: TrackingUpdate,
  ): Promise<void>;
  /**
   * Subscribes the channel's webhook URL to the order topics intake reads, signed with the
   * channel's secret; answers the store's ids of the subscriptions it made (one already there is
   * kept, not made twice). A ChannelCallError when the store refuses (Shopify takes https only).
   */
  registerWebhooks(credentials: ChannelCredentials, callbackUrl: string): Promise<{ ids: string[] }>;
  /** Removes the subscriptions registerWebhooks made; one already gone is no error. */
  removeWebhooks(credentials: ChannelCredentials, ids: readonly string[]): Promise<void>;
  /** The shipment was cancelled: the fulfilment called off, so the store may ship the order again. */
  cancelFulfilment(credentials: ChannelCredentials, reference: string, channelOrderId: string): Promise<void>;
}
