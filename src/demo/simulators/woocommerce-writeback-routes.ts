import { randomBytes } from 'node:crypto';

/**
 * The WooCommerce simulator's write-back routes (docs/channels-sources.md W9), with their state:
 * - order notes: `POST|GET /wc/v3/orders/{id}/notes`, 201 with `{id, author, date_created, note,
 *   customer_note}`, newest first in a list (woocommerce-rest-api-docs 13d6196 _order-notes.md);
 * - `PUT /wc/v3/orders/{id}` answering the whole order (_orders.md "Update an Order");
 * - an unknown order: 404 `woocommerce_rest_shop_order_invalid_id` "Invalid ID." (core's
 *   WC_REST_Posts_Controller names the code after the post type);
 * - the Shipment Tracking extension (`wc-shipment-tracking/v3`, woocommerce.com "Shipment Tracking
 *   REST API" pages: 201 `{tracking_id (32 hex), tracking_provider, tracking_link, tracking_number,
 *   date_shipped}` with a Location header, `%1$s` in a custom link replaced by the number) and
 *   zorem's Advanced Shipment Tracking (`wc-ast/v3`, the same body, `tracking_number` required,
 *   `date_shipped` answered in the site's date_format, an unknown order 404
 *   `woocommerce_rest_order_invalid_id` "Invalid order ID."), each only when installed, else the
 *   caller's `rest_no_route`. Neither documents its answer to deleting an unknown tracking id: the
 *   404 `woocommerce_rest_shipment_tracking_invalid_id` here is [inferred].
 */

export interface SimNote {
  id: number;
  author: string;
  date_created: string;
  date_created_gmt: string;
  note: string;
  customer_note: boolean;
}

export interface SimTrackingItem {
  tracking_id: string;
  tracking_provider: string;
  tracking_link: string;
  tracking_number: string;
  date_shipped: string;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const NAMESPACES = { official: 'wc-shipment-tracking/v3', ast: 'wc-ast/v3' } as const;
const ORDER = /^\/wc\/v3\/orders\/(\d+)(\/notes)?$/;
const TRACKING = /^\/(wc-shipment-tracking\/v3|wc-ast\/v3)\/orders\/(\d+)\/shipment-trackings(?:\/([0-9a-f]+))?$/;

const missing = (param: string): Reply => ({
  status: 400,
  body: { code: 'rest_missing_callback_param', message: `Missing parameter(s): ${param}`, data: { status: 400 } },
});

export function createWriteBackRoutes(
  orders: Map<number, Record<string, unknown>>,
  installed: 'official' | 'ast' | false,
) {
  const namespace = installed ? NAMESPACES[installed] : null;
  const notes = new Map<number, SimNote[]>();
  const trackings = new Map<number, SimTrackingItem[]>();
  let nextNoteId = 281;

  function orderRoutes(method: string, id: number, notesRoute: boolean, input: Record<string, unknown>) {
    const order = orders.get(id);
    if (!order)
      return {
        status: 404,
        body: { code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status: 404 } },
      };
    const list = notes.get(id) ?? [];
    if (!notesRoute && method === 'PUT') {
      if (typeof input.status === 'string') order.status = input.status;
      return { status: 200, body: order };
    }
    if (notesRoute && method === 'GET') return { status: 200, body: [...list].reverse() };
    if (notesRoute && method === 'POST') {
      if (typeof input.note !== 'string' || input.note === '') return missing('note');
      const at = new Date().toISOString().slice(0, 19);
      const note = {
        id: nextNoteId++,
        author: 'system',
        date_created: at,
        date_created_gmt: at,
        note: input.note,
        customer_note: input.customer_note === true,
      };
      notes.set(id, [...list, note]);
      return { status: 201, body: note };
    }
    return undefined;
  }

  function trackingRoutes(method: string, id: number, trackingId: string | undefined, input: Record<string, unknown>) {
    if (!orders.has(id))
      return {
        status: 404,
        body: { code: 'woocommerce_rest_order_invalid_id', message: 'Invalid order ID.', data: { status: 404 } },
      };
    const items = trackings.get(id) ?? [];
    if (!trackingId && method === 'GET') return { status: 200, body: items };
    if (!trackingId && method === 'POST') {
      if (typeof input.tracking_number !== 'string' || input.tracking_number === '') return missing('tracking_number');
      const day = typeof input.date_shipped === 'string' ? input.date_shipped : new Date().toISOString().slice(0, 10);
      const item = {
        tracking_id: randomBytes(16).toString('hex'),
        tracking_provider: String(input.custom_tracking_provider ?? input.tracking_provider ?? ''),
        tracking_link: String(input.custom_tracking_link ?? '').replace('%1$s', input.tracking_number),
        tracking_number: input.tracking_number,
        date_shipped:
          installed === 'ast'
            ? new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })
            : day,
      };
      trackings.set(id, [...items, item]);
      const location = `/wp-json/${namespace}/orders/${id}/shipment-trackings/${item.tracking_id}`;
      return { status: 201, body: item, headers: { location } };
    }
    if (trackingId && method === 'DELETE') {
      const item = items.find((candidate) => candidate.tracking_id === trackingId);
      if (!item)
        return {
          status: 404,
          body: {
            code: 'woocommerce_rest_shipment_tracking_invalid_id',
            message: 'Invalid tracking ID.',
            data: { status: 404 },
          },
        };
      trackings.set(
        id,
        items.filter((candidate) => candidate !== item),
      );
      return { status: 200, body: item };
    }
    return undefined;
  }

  return {
    /** Whether `route` is one of these (so the key pair is checked before the answer). */
    serves(route: string): boolean {
      const tracking = TRACKING.exec(route);
      return ORDER.test(route) || (tracking !== null && tracking[1] === namespace);
    },
    /** The answer to a route `serves`, or undefined for a method it does not take (rest_no_route). */
    answer(method: string, route: string, body: unknown): Reply | undefined {
      const input = (body ?? {}) as Record<string, unknown>;
      const order = ORDER.exec(route);
      if (order) return orderRoutes(method, Number(order[1]), order[2] !== undefined, input);
      const tracking = TRACKING.exec(route);
      return tracking ? trackingRoutes(method, Number(tracking[2]), tracking[3], input) : undefined;
    },
    notesOf: (orderId: number): SimNote[] => structuredClone(notes.get(orderId) ?? []),
    trackingsOf: (orderId: number): SimTrackingItem[] => structuredClone(trackings.get(orderId) ?? []),
  };
}
