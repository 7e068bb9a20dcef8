import { type ChannelAdapter, ChannelCallError, type ChannelCredentials, type Fulfilment } from './channel-adapter.js';
import type { ChannelAnswer } from './channel-http.js';

// What a booked shipment tells a WooCommerce store (docs/channels-sources.md W9). Core has no
// shipments, so the tracking goes where the store's own e-mails and My Account page show it: a
// tracking item of the Shipment Tracking extension (`wc-shipment-tracking/v3`) or of its zorem fork
// Advanced Shipment Tracking (`wc-ast/v3`, common in India, same body), else an order note. Which
// one a site has is found by asking for the order's tracking items: a route a site lacks is
// WordPress's `rest_no_route` 404.

export interface WooRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  route: string;
  query?: Record<string, string>;
  json?: unknown;
}

interface WriteBackDeps {
  /** One authenticated call, 429s waited out, through the site's routing (pretty or plain). */
  call(
    credentials: ChannelCredentials,
    request: WooRequest,
    what: string,
  ): Promise<{ answer: ChannelAnswer; site: URL }>;
  /** The answer's JSON when its status is one of `ok`, else the ChannelCallError it means. */
  expect(answer: ChannelAnswer, site: URL, what: string, ok: readonly number[]): unknown;
  isMissingRoute(answer: ChannelAnswer): boolean;
}

/** Official first: where both are installed, the official one is what WooCommerce's own e-mails read. */
const TRACKING_NAMESPACES = ['wc-shipment-tracking/v3', 'wc-ast/v3'] as const;
type TrackingNamespace = (typeof TRACKING_NAMESPACES)[number];

interface TrackingItem {
  tracking_id: string;
  tracking_number: string;
}
interface OrderNote {
  id: number;
  note: string;
}

/** IST has no daylight saving: a fixed +05:30 gives the day an Indian merchant shipped on. */
const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;
export const indiaDay = (at: Date) => new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);

function orderRoute(channelOrderId: string): string {
  if (!/^[1-9]\d*$/.test(channelOrderId)) throw new RangeError(`not a WooCommerce order id: ${channelOrderId}`);
  return `orders/${channelOrderId}`;
}

function referenceOf(reference: string): { kind: 'tracking' | 'note'; id: string } {
  const match = /^(tracking|note):([A-Za-z0-9]+)$/.exec(reference);
  if (!match) throw new RangeError(`not a WooCommerce fulfilment reference: ${reference}`);
  return { kind: match[1] as 'tracking' | 'note', id: match[2] as string };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether a note tells of this AWB: the whole number, not one it is the start of. */
const namesAwb = (note: string, awb: string) => new RegExp(`\\bAWB ${escaped(awb)}(?![A-Za-z0-9])`).test(note);

const shippedNote = (f: Fulfilment) => `Shipped with ${f.courierName}, AWB ${f.awb}: ${f.trackingUrl}`;
const changedNote = (f: Fulfilment) => `AWB changed: now shipped with ${f.courierName}, AWB ${f.awb}: ${f.trackingUrl}`;

export function createWooCommerceWriteBack({
  call,
  expect,
  isMissingRoute,
}: WriteBackDeps): Pick<
  ChannelAdapter,
  'writeFulfilment' | 'updateFulfilment' | 'writeTrackingUpdate' | 'cancelFulfilment'
> {
  /** The extension each site answered from last, asked first next time; a site may still remove it. */
  const extensions = new Map<string, TrackingNamespace>();

  /** The order's tracking items and the extension holding them; null when the site has neither. */
  async function trackings(credentials: ChannelCredentials, channelOrderId: string) {
    const siteKey = credentials.channel === 'woocommerce' ? credentials.siteUrl : '';
    const known = extensions.get(siteKey);
    const order = known ? [known, ...TRACKING_NAMESPACES.filter((n) => n !== known)] : TRACKING_NAMESPACES;
    const what = `the tracking items of order ${channelOrderId}`;
    for (const namespace of order) {
      const route = `/${namespace}/${orderRoute(channelOrderId)}/shipment-trackings`;
      const { answer, site } = await call(credentials, { method: 'GET', route }, what);
      if (isMissingRoute(answer)) continue;
      const items = expect(answer, site, what, [200]);
      if (!Array.isArray(items))
        throw new ChannelCallError('malformed', `${site.host} answered ${what} with something other than a list`);
      extensions.set(siteKey, namespace);
      return { namespace, route, items: items as TrackingItem[] };
    }
    extensions.delete(siteKey);
    return null;
  }

  async function addTracking(credentials: ChannelCredentials, route: string, f: Fulfilment): Promise<string> {
    const what = `a tracking item for order ${f.channelOrderId}`;
    const json = {
      custom_tracking_provider: f.courierName,
      custom_tracking_link: f.trackingUrl,
      tracking_number: f.awb,
      date_shipped: indiaDay(f.shippedAt),
    };
    const { answer, site } = await call(credentials, { method: 'POST', route, json }, what);
    const id = (expect(answer, site, what, [200, 201]) as { tracking_id?: unknown } | null)?.tracking_id;
    if (typeof id !== 'string' || id === '')
      throw new ChannelCallError('malformed', `${site.host} answered ${what} without a tracking_id`);
    return id;
  }

  async function notes(credentials: ChannelCredentials, channelOrderId: string): Promise<OrderNote[]> {
    const what = `the notes of order ${channelOrderId}`;
    const route = `/wc/v3/${orderRoute(channelOrderId)}/notes`;
    const { answer, site } = await call(credentials, { method: 'GET', route }, what);
    const body = expect(answer, site, what, [200]);
    if (!Array.isArray(body))
      throw new ChannelCallError('malformed', `${site.host} answered ${what} with something other than a list`);
    return body as OrderNote[];
  }

  /** `toBuyer`: WooCommerce e-mails a customer note to the buyer; a private one only the shop sees. */
  async function addNote(credentials: ChannelCredentials, channelOrderId: string, note: string, toBuyer: boolean) {
    const what = `a note on order ${channelOrderId}`;
    const route = `/wc/v3/${orderRoute(channelOrderId)}/notes`;
    const json = { note, customer_note: toBuyer };
    const { answer, site } = await call(credentials, { method: 'POST', route, json }, what);
    const id = (expect(answer, site, what, [200, 201]) as { id?: unknown } | null)?.id;
    if (typeof id !== 'number') throw new ChannelCallError('malformed', `${site.host} answered ${what} without its id`);
    return id;
  }

  async function removeTracking(credentials: ChannelCredentials, route: string, id: string, orderId: string) {
    const what = `removing tracking item ${id} of order ${orderId}`;
    const { answer, site } = await call(credentials, { method: 'DELETE', route: `${route}/${id}` }, what);
    expect(answer, site, what, [200]);
  }

  return {
    async writeFulfilment(credentials, f) {
      const found = await trackings(credentials, f.channelOrderId);
      if (found) {
        const existing = found.items.find((item) => item.tracking_number === f.awb);
        return { reference: `tracking:${existing?.tracking_id ?? (await addTracking(credentials, found.route, f))}` };
      }
      const existing = (await notes(credentials, f.channelOrderId)).find((n) => namesAwb(n.note, f.awb));
      const id = existing?.id ?? (await addNote(credentials, f.channelOrderId, shippedNote(f), f.notifyCustomer));
      return { reference: `note:${id}` };
    },

    async updateFulfilment(credentials, reference, f) {
      const { kind, id } = referenceOf(reference);
      const found = kind === 'tracking' ? await trackings(credentials, f.channelOrderId) : null;
      if (found) {
        // Neither extension edits an item in place: the old one goes, a new one takes its place,
        // and its tracking_id is the reference from now on. A repeat finds the new item by its AWB.
        const current = found.items.find((item) => item.tracking_number === f.awb);
        if (current && current.tracking_id !== id) return { reference: `tracking:${current.tracking_id}` };
        if (current) return { reference };
        if (found.items.some((item) => item.tracking_id === id))
          await removeTracking(credentials, found.route, id, f.channelOrderId);
        return { reference: `tracking:${await addTracking(credentials, found.route, f)}` };
      }
      // A note cannot be edited through REST v3 either; a new one says what changed. Also where the
      // extension was removed since the tracking item was written: the buyer still learns the AWB.
      const told = (await notes(credentials, f.channelOrderId)).some((n) => namesAwb(n.note, f.awb));
      if (!told) await addNote(credentials, f.channelOrderId, changedNote(f), f.notifyCustomer);
      return { reference };
    },

    async writeTrackingUpdate(credentials, reference, channelOrderId, update) {
      referenceOf(reference);
      const route = `/wc/v3/${orderRoute(channelOrderId)}`;
      if (update.status === 'delivered') {
        // Completing sends WooCommerce's "Completed order" e-mail, with the tracking item in it.
        const what = `completing order ${channelOrderId}`;
        const { answer, site } = await call(credentials, { method: 'PUT', route, json: { status: 'completed' } }, what);
        expect(answer, site, what, [200]);
      } else if (update.status === 'failure') {
        const where = update.city ? ` (${update.city})` : '';
        await addNote(credentials, channelOrderId, `Delivery failed${where}: ${update.message}`, false);
      }
      // In transit, out for delivery, an attempt: WooCommerce keeps no scan history to add them to,
      // and a note per scan would bury the merchant's own; the buyer follows them on the tracking page.
    },

    async cancelFulfilment(credentials, reference, channelOrderId) {
      const { kind, id } = referenceOf(reference);
      let awb: string | undefined;
      const found = kind === 'tracking' ? await trackings(credentials, channelOrderId) : null;
      const item = found?.items.find((candidate) => candidate.tracking_id === id);
      if (found && item) {
        awb = item.tracking_number;
        await removeTracking(credentials, found.route, id, channelOrderId);
      }
      await addNote(credentials, channelOrderId, `Shipment cancelled${awb ? ` (AWB ${awb})` : ''}`, false);
    },
  };
}
