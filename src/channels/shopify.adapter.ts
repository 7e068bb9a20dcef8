import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  type ChannelAdapter,
  ChannelCallError,
  type ChannelCredentials,
  type ChannelOrder,
  lacksCategories,
  readOrder,
  withCategories,
  type UnreadableOrder,
  type WebhookMeaning,
} from './channel-adapter.js';
import { type ChannelHttp, jsonOf } from './channel-http.js';
import { createShopifyWriteBack } from './shopify-fulfilment.js';
import { createShopifyWebhooks } from './shopify-webhooks.js';
import { orderFromGraphql, orderFromWebhook, parseWebhookBody } from './shopify-orders.js';

// Shopify's GraphQL Admin API, as docs/channels-sources.md S1–S6 shows it: one endpoint per
// shop and version, the custom app's token in X-Shopify-Access-Token, cost-based throttling told in
// extensions.cost, webhooks signed with the app's secret over the raw body. The write-back (S5) is
// in shopify-fulfilment.ts.

export interface ShopifyAdapterSettings {
  http: ChannelHttp;
  /** A pinned Admin API version ("2025-01"): Shopify keeps each one a year, so it is never "latest". */
  apiVersion: string;
  /** The operator's SHOPIFY_BASE_URL: replaces https://{shop_domain} (tests, simulators). */
  baseUrl?: string;
  /** How a throttled pull waits; tests pass one that records the wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Throttled answers waited out for one call before it is given up as throttled. */
  maxThrottleWaits?: number;
}

type ShopifyCredentials = Extract<ChannelCredentials, { channel: 'shopify' }>;
type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

// A query's requested cost multiplies down nested connections and one query may cost at most 1000
// points (shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits): 50 orders of 50 lines each
// would be refused as MAX_COST_EXCEEDED. Small pages, and an order with more lines fetches the rest.
const ORDERS_PER_PAGE = 10;
const LINES_PER_ORDER = 10;
const MORE_LINES = 50;
/** What Dakiya waits to ship; cancelled and closed orders are not open, and the rest is judged per order. */
const WAITING_TO_SHIP = 'status:open fulfillment_status:unfulfilled';

const MONEY = 'shopMoney{amount currencyCode}';
const ADDRESS = 'firstName lastName address1 address2 city province provinceCode zip phone countryCodeV2';
// product{productType}: the merchant's own category of the product, as production clients read it
// off the line (search index ids 71490649385, 63214734260, 58425493432); null for a custom line
// or a deleted product, "" when never set.
const LINE = `title sku quantity originalUnitPriceSet{${MONEY}} discountedUnitPriceSet{${MONEY}}
  product{productType} variant{inventoryItem{measurement{weight{value unit}}}}`;

const SHOP_QUERY = 'query{shop{name myshopifyDomain}}';
const ORDER_FIELDS = `id legacyResourceId name createdAt updatedAt cancelledAt closedAt displayFinancialStatus
  displayFulfillmentStatus paymentGatewayNames email
  totalPriceSet{${MONEY}} subtotalPriceSet{${MONEY}} totalDiscountsSet{${MONEY}} totalTaxSet{${MONEY}}
  totalShippingPriceSet{${MONEY}} totalOutstandingSet{${MONEY}}
  shippingAddress{${ADDRESS}} billingAddress{${ADDRESS}}
  lineItems(first:${LINES_PER_ORDER}){edges{node{${LINE}}} pageInfo{hasNextPage endCursor}}`;
const ORDERS_QUERY = `query($first:Int!,$after:String,$q:String){
  orders(first:$first, after:$after, query:$q, sortKey:CREATED_AT){
    edges{cursor node{${ORDER_FIELDS}}}
    pageInfo{hasNextPage endCursor}
  }}`;
/** One order as the pull reads it (S3's QueryRoot.order): what a webhook's REST payload leaves out. */
const ORDER_QUERY = `query($id:ID!){order(id:$id){${ORDER_FIELDS}}}`;
const LINES_QUERY = `query($id:ID!,$after:String){
  order(id:$id){lineItems(first:${MORE_LINES}, after:$after){edges{node{${LINE}}} pageInfo{hasNextPage endCursor}}}}`;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The shop's host as the merchant may paste it ("https://acme.myshopify.com/"), or null when it is no host. */
function shopHost(domain: string): string | null {
  const host = domain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/+$/, '');
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host) ? host : null;
}

const refusedDomain = (message: string) => new ChannelCallError('refused_credentials', message, ['shop_domain']);

/**
 * The wait a THROTTLED answer asks for: the points the query wants that the bucket lacks, at the
 * bucket's restore rate. Read each time, never assumed: plans' buckets differ and have changed.
 */
export function throttleWaitMs(extensions: unknown): number {
  const cost = record(record(extensions)?.cost);
  const status = record(cost?.throttleStatus);
  const requested = Number(cost?.requestedQueryCost);
  const available = Number(status?.currentlyAvailable);
  const rate = Number(status?.restoreRate);
  if (!(rate > 0) || !Number.isFinite(requested) || !Number.isFinite(available)) return 1000;
  return Math.max(0, Math.ceil(((requested - available) / rate) * 1000));
}

export function createShopifyAdapter(settings: ShopifyAdapterSettings): ChannelAdapter {
  const sleep = settings.sleep ?? realSleep;
  const maxWaits = settings.maxThrottleWaits ?? 5;

  function shopify(credentials: ChannelCredentials): ShopifyCredentials {
    if (credentials.channel !== 'shopify') throw new Error(`the Shopify adapter was given ${credentials.channel}`);
    return credentials;
  }

  /** One GraphQL call's `data`, throttling waited out; each failure in ChannelCallError's words. */
  async function graphql(credentials: ShopifyCredentials, query: string, variables: Json = {}): Promise<Json> {
    const host = shopHost(credentials.shopDomain);
    if (!host) throw refusedDomain(`${credentials.shopDomain} is not a shop domain such as acme.myshopify.com`);
    const origin = settings.baseUrl ? settings.baseUrl.replace(/\/+$/, '') : `https://${host}`;
    const url = `${origin}/admin/api/${settings.apiVersion}/graphql.json`;
    for (let waits = 0; ; waits++) {
      const answer = await settings.http({
        method: 'POST',
        url,
        headers: { 'x-shopify-access-token': credentials.accessToken },
        json: { query, variables },
      });
      // A bad token is answered before GraphQL runs, with `errors` as a plain string (S1).
      if (answer.status === 401 || answer.status === 403) {
        const body = record(safeJson(answer.body));
        const why = typeof body?.errors === 'string' ? body.errors : `HTTP ${answer.status}`;
        throw new ChannelCallError('refused_credentials', `Shopify refused the access token: ${why}`, ['access_token']);
      }
      // myshopify.com resolves every name; a shop that does not exist is Shopify's 404.
      if (answer.status === 404) throw refusedDomain(`Shopify has no shop at ${host}`);
      if (answer.status >= 500) throw new ChannelCallError('unavailable', `Shopify answered ${answer.status}`);
      const body = record(jsonOf(answer, 'Shopify'));
      if (!body) throw new ChannelCallError('malformed', 'Shopify answered with JSON that is not an object');
      const errors = list(body.errors).map(record);
      const codes = errors.map((e) => String(record(e?.extensions)?.code ?? ''));
      if (codes.includes('THROTTLED') || answer.status === 429) {
        const waitMs = throttleWaitMs(body.extensions);
        if (waits >= maxWaits)
          throw new ChannelCallError('throttled', `Shopify kept throttling after ${waits} waits`, [], waitMs);
        await sleep(waitMs);
        continue;
      }
      if (codes.includes('ACCESS_DENIED'))
        throw new ChannelCallError(
          'refused_credentials',
          `Shopify refused the token access: ${errors.map((e) => e?.message).join('; ')}`,
          ['access_token'],
        );
      if (errors.length > 0 || typeof body.errors === 'string')
        throw new ChannelCallError(
          'rejected',
          `Shopify refused the query: ${typeof body.errors === 'string' ? body.errors : errors.map((e) => `${e?.message} (${codes[errors.indexOf(e)] || 'no code'})`).join('; ')}`,
        );
      if (answer.status !== 200) throw new ChannelCallError('malformed', `Shopify answered ${answer.status}`);
      const data = record(body.data);
      if (!data) throw new ChannelCallError('malformed', 'Shopify answered without data');
      return data;
    }
  }

  /** The lines past the first page of an order's, so that no order is imported short of an item. */
  async function restOfLines(credentials: ShopifyCredentials, node: Json): Promise<Json> {
    const lineItems = record(node.lineItems);
    let pageInfo = record(lineItems?.pageInfo);
    const edges = [...list(lineItems?.edges)];
    while (pageInfo?.hasNextPage === true) {
      const data = await graphql(credentials, LINES_QUERY, { id: node.id, after: pageInfo.endCursor });
      const more = record(record(data.order)?.lineItems);
      if (!more) throw new ChannelCallError('malformed', `Shopify answered no lines for order ${String(node.id)}`);
      edges.push(...list(more.edges));
      pageInfo = record(more.pageInfo);
    }
    return { ...node, lineItems: { edges } };
  }

  return {
    name: 'shopify',

    async checkCredentials(credentials) {
      const creds = shopify(credentials);
      let data: Json;
      try {
        data = await graphql(creds, SHOP_QUERY);
      } catch (error) {
        // The outbound guard's refusal, or a custom domain that does not resolve, is the domain's fault.
        if (error instanceof ChannelCallError && (error.kind === 'rejected' || error.kind === 'unresolved'))
          throw refusedDomain(`${creds.shopDomain}: ${error.message}`);
        throw error;
      }
      const name = record(data.shop)?.name;
      if (typeof name !== 'string') throw new ChannelCallError('malformed', 'Shopify answered no shop name');
      return { shopName: name };
    },

    async pullOrders(credentials, cursor) {
      const creds = shopify(credentials);
      const data = await graphql(creds, ORDERS_QUERY, { first: ORDERS_PER_PAGE, after: cursor, q: WAITING_TO_SHIP });
      const connection = record(data.orders);
      if (!connection) throw new ChannelCallError('malformed', 'Shopify answered no orders connection');
      const orders: ChannelOrder[] = [];
      const unreadable: UnreadableOrder[] = [];
      for (const edge of list(connection.edges)) {
        const node = record(record(edge)?.node);
        if (!node) throw new ChannelCallError('malformed', 'Shopify answered an order edge without a node');
        const full = await restOfLines(creds, node);
        const read = readOrder(
          () => orderFromGraphql(full),
          () => ({ id: node.legacyResourceId, name: node.name }),
        );
        if (!read.ok) unreadable.push(read.unreadable);
        // The search cannot say "paid, or pending and COD": a prepaid order not yet paid stays behind.
        else if (read.value.awaitingShipment) orders.push(read.value);
      }
      const pageInfo = record(connection.pageInfo);
      const next = pageInfo?.hasNextPage === true && typeof pageInfo.endCursor === 'string' ? pageInfo.endCursor : null;
      return { orders, unreadable, next };
    },

    readWebhook(credentials, webhook): WebhookMeaning | null {
      const creds = shopify(credentials);
      const signature = webhook.headers['x-shopify-hmac-sha256'];
      if (!signature || !signedBy(webhook.rawBody, signature, creds.webhookSecret)) return null;
      const topic = webhook.headers['x-shopify-topic'] ?? '';
      const deliveryId = webhook.headers['x-shopify-webhook-id'] ?? webhook.headers['x-shopify-event-id'] ?? null;
      if (topic !== 'orders/create' && topic !== 'orders/updated' && topic !== 'orders/cancelled')
        return { kind: 'ignored', topic };
      let body: Json | undefined;
      const read = readOrder(
        () => {
          const parsed = parseWebhookBody(webhook.rawBody);
          body = record(parsed);
          return orderFromWebhook(parsed);
        },
        () => ({ id: body?.id, name: body?.name }),
      );
      if (!read.ok) return { kind: 'unreadable', deliveryId, order: read.unreadable };
      const order = read.value;
      // orders/cancelled is the cancellation itself, whatever the payload's cancelled_at says.
      return topic === 'orders/cancelled'
        ? { kind: 'order', deliveryId, order: { ...order, cancelled: true, awaitingShipment: false } }
        : { kind: 'order', deliveryId, order };
    },

    /**
     * A webhook's order (REST) names each line's product but not its type: the order is read again
     * as the pull reads it, and each line lacking a category takes its twin's (same SKU, else the
     * same place). An order Shopify no longer has is answered as it came.
     */
    async completeOrders(credentials, orders) {
      const creds = shopify(credentials);
      const completed: ChannelOrder[] = [];
      for (const order of orders) {
        if (!lacksCategories(order)) {
          completed.push(order);
          continue;
        }
        const data = await graphql(creds, ORDER_QUERY, { id: `gid://shopify/Order/${order.channelOrderId}` });
        const node = record(data.order);
        if (!node) {
          completed.push(order);
          continue;
        }
        const full = await restOfLines(creds, node);
        const read = readOrder(
          () => orderFromGraphql(full),
          () => ({ id: node.legacyResourceId, name: node.name }),
        );
        if (!read.ok) {
          completed.push(order);
          continue;
        }
        const lines = read.value.lines;
        completed.push(
          withCategories(order, (line, index) => {
            const twin = (line.sku !== null && lines.find((other) => other.sku === line.sku)) || lines[index];
            return twin?.category ?? null;
          }),
        );
      }
      return completed;
    },

    ...createShopifyWriteBack(shopify, graphql),
    ...createShopifyWebhooks(shopify, graphql),
  };
}

/** Shopify's signature: base64 HMAC-SHA256 of the raw body with the app's secret, compared in constant time. */
function signedBy(rawBody: string, signature: string, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function safeJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
