import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type ChannelAdapter,
  ChannelCallError,
  type ChannelCredentials,
  type ChannelOrder,
  type ChannelWebhook,
  lacksCategories,
  readOrder,
  type UnreadableOrder,
  type WebhookMeaning,
  withCategories,
} from './channel-adapter.js';

type Json = Record<string, unknown>;
import { type ChannelAnswer, type ChannelHttp, jsonOf } from './channel-http.js';
import { createWooCommerceWriteBack, type WooRequest } from './woocommerce-fulfilment.js';
import { createWooCommerceWebhooks } from './woocommerce-webhooks.js';
import { decodeEntities, mapWooCommerceOrder } from './woocommerce-orders.js';

// WooCommerce's REST API v3 (woocommerce-rest-api-docs, wp-api-v3) as a sales channel: the key pair
// in Basic auth, the orders waiting to ship (`processing`) a page at a time, and the order.*
// webhooks signed with the secret Dakiya gave the site. Sources: fixtures/woocommerce/SOURCES.md.

type WooCredentials = Extract<ChannelCredentials, { channel: 'woocommerce' }>;

/** The most WooCommerce answers a page (`per_page` 1–100): fewest calls for a store with a backlog. */
const PER_PAGE = 100;
/** Tries of one call against a 429 before the caller is told the store is throttling us. */
const THROTTLED_TRIES = 4;
/** A wait longer than this is the caller's to schedule (the periodic pull), not a request's to sit through. */
const MAX_WAIT_MS = 60_000;
/** A 429 without Retry-After (a host's limiter, not WooCommerce core, sends them). */
const DEFAULT_WAIT_MS = 2_000;

/** How the site routes its REST API: `/wp-json/` needs pretty permalinks; `?rest_route=` always works. */
type Routing = 'pretty' | 'plain';

const siteOf = (credentials: ChannelCredentials): WooCredentials => {
  if (credentials.channel !== 'woocommerce')
    throw new TypeError(`WooCommerce adapter given ${credentials.channel} credentials`);
  return credentials;
};

/** The site URL without its trailing slash, so both routings append to it alike. */
const siteRoot = (siteUrl: string) => siteUrl.trim().replace(/\/+$/, '');

function urlOf(site: string, routing: Routing, route: string, query: Record<string, string>): string {
  const params = new URLSearchParams(query).toString();
  if (routing === 'pretty') return `${site}/wp-json${route}${params ? `?${params}` : ''}`;
  return `${site}/?rest_route=${encodeURIComponent(route).replace(/%2F/g, '/')}${params ? `&${params}` : ''}`;
}

/** WordPress's error envelope `{code, message, data: {status}}`, when the answer is one. */
function wpError(answer: ChannelAnswer): { code: string; message: string } | undefined {
  try {
    const body = JSON.parse(answer.body) as { code?: unknown; message?: unknown } | null;
    if (body && typeof body.code === 'string')
      return { code: body.code, message: typeof body.message === 'string' ? body.message : '' };
  } catch {}
  return undefined;
}

/**
 * A 404 that says the route is not there (WordPress's `rest_no_route`, or a theme's HTML page when
 * `/wp-json/` is not rewritten), as opposed to a resource the route does not hold.
 */
function isMissingRoute(answer: ChannelAnswer): boolean {
  if (answer.status !== 404) return false;
  const error = wpError(answer);
  return error === undefined || error.code === 'rest_no_route';
}

/** Retry-After in milliseconds: seconds, or an HTTP date. */
function retryAfterMs(answer: ChannelAnswer, now: number): number {
  const header = answer.headers['retry-after'];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return DEFAULT_WAIT_MS;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_WAIT_MS : Math.max(0, at - now);
}

function headerNumber(answer: ChannelAnswer, name: string): number | undefined {
  const header = answer.headers[name];
  const value = Number(Array.isArray(header) ? header[0] : header);
  return header === undefined || !Number.isInteger(value) || value < 0 ? undefined : value;
}

/** What a refusal of the key pair names, read from core's WC_REST_Authentication and the controllers. */
function refusal(answer: ChannelAnswer, site: URL): ChannelCallError | undefined {
  if (answer.status !== 401 && answer.status !== 403) return undefined;
  const error = wpError(answer);
  const said = error?.message ? `${site.host} answered "${error.message}"` : `${site.host} answered ${answer.status}`;
  // Core checks the secret against the key it found: only this message is the secret's fault.
  if (error?.code === 'woocommerce_rest_authentication_error' && /secret/i.test(error.message))
    return new ChannelCallError('refused_credentials', `${said}: the consumer secret is not this key's`, [
      'consumer_secret',
    ]);
  if (answer.status === 403)
    return new ChannelCallError('refused_credentials', `${said}: the key's user may not read orders`, ['consumer_key']);
  // An unknown key leaves the request anonymous, which the orders controller refuses as
  // cannot_view; so does a key sent over plain HTTP, where core reads no Basic auth at all.
  const overHttp =
    site.protocol === 'http:'
      ? ' (WooCommerce reads a key pair in Basic auth only over HTTPS: use the https address)'
      : '';
  const why =
    error?.code === 'woocommerce_rest_authentication_error'
      ? /write permissions/i.test(error.message)
        ? `${said}: the key cannot write to orders (give it Read/Write permissions)`
        : `${said}: the key cannot read orders (give it Read or Read/Write permissions)`
      : `${said}: no such consumer key on this site${overHttp}`;
  return new ChannelCallError('refused_credentials', why, ['consumer_key']);
}

function failure(answer: ChannelAnswer, site: URL, what: string): ChannelCallError {
  const error = wpError(answer);
  const said = `${site.host} answered ${answer.status}${error?.message ? ` "${error.message}"` : ''} to ${what}`;
  if (answer.status >= 500) return new ChannelCallError('unavailable', said);
  if (isMissingRoute(answer))
    return new ChannelCallError('rejected', `${said}: no WooCommerce REST API at this site URL`, ['site_url']);
  return new ChannelCallError('rejected', said);
}

/** `expected` and `given` as bytes, compared in constant time (a length mismatch is simply false). */
function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The signature WooCommerce's WC_Webhook::generate_signature() sends: base64 of the raw HMAC-SHA256 of the body. */
export function wooCommerceSignature(rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody, 'utf8').digest('base64');
}

/** WC_Webhook::deliver_ping() posts `webhook_id=N` with no X-WC-* headers and expects a 200. */
const PING = /^webhook_id=\d+$/;

export function createWooCommerceAdapter({
  http,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now = Date.now,
}: {
  http: ChannelHttp;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}): ChannelAdapter {
  /** Which routing answered each site last; a site's permalinks rarely change, so one probe each. */
  const routings = new Map<string, Routing>();

  /** One call with the key pair, waiting out 429s, through whichever routing the site answers. */
  async function call(credentials: WooCredentials, request: WooRequest, what: string) {
    const site = siteRoot(credentials.siteUrl);
    const authorization = `Basic ${Buffer.from(`${credentials.consumerKey}:${credentials.consumerSecret}`).toString('base64')}`;
    const first = routings.get(site) ?? 'pretty';
    let answer = await throttled(site, first, request, authorization, what);
    let routing = first;
    // Safe for a write too: a route that is not there created nothing.
    if (isMissingRoute(answer)) {
      const other: Routing = first === 'pretty' ? 'plain' : 'pretty';
      const retried = await throttled(site, other, request, authorization, what);
      if (!isMissingRoute(retried)) [answer, routing] = [retried, other];
    }
    if (!isMissingRoute(answer)) routings.set(site, routing);
    return { answer, site: new URL(site) };
  }

  const get = (credentials: WooCredentials, route: string, query: Record<string, string>, what: string) =>
    call(credentials, { method: 'GET', route, query }, what);

  async function throttled(
    site: string,
    routing: Routing,
    { method, route, query = {}, json }: WooRequest,
    authorization: string,
    what: string,
  ): Promise<ChannelAnswer> {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await http({
        method,
        url: urlOf(site, routing, route, query),
        headers: { authorization },
        ...(json !== undefined && { json }),
      });
      // A 429 is answered before the site does anything, so a write is as safe to repeat as a read.
      if (answer.status !== 429) return answer;
      const waitMs = retryAfterMs(answer, now());
      if (attempt >= THROTTLED_TRIES || waitMs > MAX_WAIT_MS)
        throw new ChannelCallError(
          'throttled',
          `${new URL(site).host} is limiting requests (${what}): retry in ${Math.ceil(waitMs / 1000)} s`,
          [],
          waitMs,
        );
      await sleep(waitMs);
    }
  }

  /** The site's title from the WordPress REST index (public, no key), else its host. */
  async function siteName(credentials: WooCredentials, site: URL): Promise<string> {
    const fallback = site.host;
    try {
      const routing = routings.get(siteRoot(credentials.siteUrl)) ?? 'pretty';
      const answer = await http({
        method: 'GET',
        url: urlOf(siteRoot(credentials.siteUrl), routing, '/', {}),
        headers: {},
      });
      if (answer.status !== 200) return fallback;
      const name = (jsonOf(answer, site.host) as { name?: unknown } | null)?.name;
      return typeof name === 'string' && name.trim() !== '' ? decodeEntities(name.trim()) : fallback;
    } catch (error) {
      // The key pair already worked; a site that hides its index still connects, under its host.
      if (error instanceof ChannelCallError) return fallback;
      throw error;
    }
  }

  const siteCalls = {
    call: (credentials: ChannelCredentials, request: WooRequest, what: string) =>
      call(siteOf(credentials), request, what),
    expect(answer: ChannelAnswer, site: URL, what: string, ok: readonly number[]) {
      const refused = refusal(answer, site);
      if (refused) throw refused;
      if (!ok.includes(answer.status)) throw failure(answer, site, what);
      return answer.body.trim() === '' ? null : jsonOf(answer, site.host);
    },
  };

  return {
    name: 'woocommerce',
    ...createWooCommerceWriteBack({ ...siteCalls, isMissingRoute }),
    ...createWooCommerceWebhooks(siteCalls),

    async checkCredentials(credentials) {
      const woo = siteOf(credentials);
      let asked: Awaited<ReturnType<typeof get>>;
      try {
        asked = await get(woo, '/wc/v3/orders', { per_page: '1' }, 'a list of orders');
      } catch (error) {
        // The outbound guard's refusal, or a host that does not resolve, is the site URL's fault.
        if (error instanceof ChannelCallError && (error.kind === 'rejected' || error.kind === 'unresolved'))
          throw new ChannelCallError('rejected', error.message, ['site_url']);
        throw error;
      }
      const { answer, site } = asked;
      const refused = refusal(answer, site);
      if (refused) throw refused;
      if (answer.status !== 200) throw failure(answer, site, 'a list of orders');
      if (!Array.isArray(jsonOf(answer, site.host)))
        throw new ChannelCallError('malformed', `${site.host} answered its orders with something other than a list`);
      return { shopName: await siteName(woo, site) };
    },

    async pullOrders(credentials, cursor) {
      const woo = siteOf(credentials);
      const page = cursor === null ? 1 : Number(cursor);
      if (!Number.isInteger(page) || page < 1) throw new RangeError(`not a WooCommerce page cursor: ${cursor}`);
      // Oldest first: an order placed during the pull lands on a later page instead of pushing one
      // already read onto the next (an offset page of a newest-first list shifts under us).
      const query = {
        status: 'processing',
        per_page: String(PER_PAGE),
        page: String(page),
        orderby: 'date',
        order: 'asc',
      };
      const { answer, site } = await get(woo, '/wc/v3/orders', query, `page ${page} of the orders`);
      const refused = refusal(answer, site);
      if (refused) throw refused;
      if (answer.status !== 200) throw failure(answer, site, `page ${page} of the orders`);
      const body = jsonOf(answer, site.host);
      if (!Array.isArray(body))
        throw new ChannelCallError(
          'malformed',
          `${site.host} answered page ${page} of its orders with something other than a list`,
        );
      const orders: ChannelOrder[] = [];
      const unreadable: UnreadableOrder[] = [];
      for (const item of body) {
        const read = readOrder(
          () => mapWooCommerceOrder(item),
          () => ({ id: (item as Json | null)?.id, name: (item as Json | null)?.number }),
        );
        if (read.ok) orders.push(read.value);
        else unreadable.push(read.unreadable);
      }
      const totalPages = headerNumber(answer, 'x-wp-totalpages');
      // Without the header (a proxy that strips it) a full page is the only sign of another.
      const more = totalPages === undefined ? body.length === PER_PAGE : page < totalPages;
      return { orders, unreadable, next: more ? String(page + 1) : null };
    },

    /**
     * The lines' categories, which the order JSON leaves out: the products named, a hundred at a
     * time (GET /products?include=…), each line given its product's first category (WooCommerce
     * keeps no primary one). A product the site no longer has leaves its line without one.
     */
    async completeOrders(credentials, orders) {
      const woo = siteOf(credentials);
      const wanted = [
        ...new Set(
          orders
            .filter(lacksCategories)
            .flatMap((order) => order.lines.flatMap((line) => (line.category === null && line.productId) || [])),
        ),
      ];
      const categories = new Map<string, string>();
      for (let from = 0; from < wanted.length; from += PER_PAGE) {
        const ids = wanted.slice(from, from + PER_PAGE);
        const query = { include: ids.join(','), per_page: String(PER_PAGE) };
        const { answer, site } = await get(woo, '/wc/v3/products', query, 'the ordered products');
        const refused = refusal(answer, site);
        if (refused) throw refused;
        if (answer.status !== 200) throw failure(answer, site, 'the ordered products');
        const body = jsonOf(answer, site.host);
        if (!Array.isArray(body))
          throw new ChannelCallError(
            'malformed',
            `${site.host} answered its products with something other than a list`,
          );
        for (const product of body) {
          const item = product as Json | null;
          const first = Array.isArray(item?.categories) ? (item.categories[0] as Json | undefined) : undefined;
          const name = typeof first?.name === 'string' ? decodeEntities(first.name).trim().slice(0, 100) : '';
          if (item && (typeof item.id === 'number' || typeof item.id === 'string') && name !== '')
            categories.set(String(item.id), name);
        }
      }
      return orders.map((order) => withCategories(order, (line) => categories.get(line.productId ?? '') ?? null));
    },

    readWebhook(credentials, webhook: ChannelWebhook): WebhookMeaning | null {
      const woo = siteOf(credentials);
      const signature = webhook.headers['x-wc-webhook-signature'];
      if (signature === undefined || signature === '') {
        // Answering the creation ping 200 is what turns the webhook active; it carries nothing to act on.
        return PING.test(webhook.rawBody.trim()) ? { kind: 'ping' } : null;
      }
      if (!sameText(wooCommerceSignature(webhook.rawBody, woo.webhookSecret), signature.trim())) return null;

      const topic = webhook.headers['x-wc-webhook-topic'] ?? '';
      const deliveryId = webhook.headers['x-wc-webhook-delivery-id'] || null;
      if (topic !== 'order.created' && topic !== 'order.updated' && topic !== 'order.deleted')
        return { kind: 'ignored', topic };
      let body: unknown;
      try {
        body = JSON.parse(webhook.rawBody);
      } catch {
        throw new ChannelCallError('malformed', `a signed ${topic} webhook whose body is not JSON`);
      }
      if (topic !== 'order.deleted') {
        const read = readOrder(
          () => mapWooCommerceOrder(body),
          () => ({ id: (body as Json | null)?.id, name: (body as Json | null)?.number }),
        );
        return read.ok
          ? { kind: 'order', deliveryId, order: read.value }
          : { kind: 'unreadable', deliveryId, order: read.unreadable };
      }
      // A deletion's payload is only `{"id": N}` (WC_Webhook::build_payload).
      const id = (body as { id?: unknown } | null)?.id;
      if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0)
        throw new ChannelCallError('malformed', `a signed order.deleted webhook without an order id`);
      return { kind: 'order_deleted', deliveryId, channelOrderId: String(id) };
    },
  };
}
