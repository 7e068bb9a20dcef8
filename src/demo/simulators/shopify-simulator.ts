import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for one shop's GraphQL Admin API, in the shapes these sources show:
 * - docs/channels-sources.md S1 (endpoint, X-Shopify-Access-Token, the 401 string body:
 *   Shopify/shopify-cli#263, gatsbyjs/gatsby-starter-shopify#65, Shopify/cli#3261), S2 (`shop`),
 *   S3 (the `orders` connection: shopify.dev/docs/api/admin-graphql/2024-10/objects/Order),
 *   S4 (THROTTLED with top-level extensions.cost: community.shopify.com t/8456,
 *   shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits), S6 (webhook HMAC:
 *   Shopify/shopify-api-js lib/webhooks/__tests__/utils.ts), S5 (fulfillment orders and the
 *   fulfillmentCreate, fulfillmentTrackingInfoUpdate, fulfillmentEventCreate and fulfillmentCancel
 *   mutations: shopify.dev input-objects/FulfillmentInput, payloads/FulfillmentCreatePayload,
 *   enums/FulfillmentEventStatus 2024-04; userErrors as `{field: [..] | null, message}`).
 * It does not parse GraphQL: it recognises an operation by its root field (`shop`, `orders`, `order`,
 * `fulfillment` and the four mutations) and reads that field's arguments, literal or `$variable`.
 * The userErrors' wording for a closed fulfillment order and a second cancellation is inferred,
 * not captured from a shop.
 */
export const SIM_SHOPIFY_TOKEN = 'shpat_sim_5c2f0e6b9a7d4e1f8a3b';

export interface SimShopifyRequest {
  version: string;
  token: string | undefined;
  rootField: string | null;
  variables: Record<string, unknown>;
}

/** An order as the simulator keeps it: a GraphQL Order node, its line items as a plain array. */
export type SimShopifyOrder = Record<string, unknown> & { id: string; lineItems: unknown[] };

/** A fulfillment order as S5 reads it; one per order here, as for a shop with a single location. */
export interface SimFulfillmentOrder {
  id: string;
  status: 'OPEN' | 'IN_PROGRESS' | 'CLOSED' | 'CANCELLED' | 'ON_HOLD';
  lineItems: { id: string; totalQuantity: number; remainingQuantity: number }[];
}
export interface SimFulfillment {
  id: string;
  orderId: string;
  status: 'SUCCESS' | 'CANCELLED';
  /** A list, as Fulfillment.trackingInfo is, though the input gives one (S5). */
  trackingInfo: { company: string | null; number: string | null; url: string | null }[];
  notifyCustomer: boolean;
  fulfillmentOrderIds: string[];
}
export type SimFulfillmentEvent = Record<string, unknown> & { id: string; fulfillmentId: string; status: string };
type UserError = { field: string[] | null; message: string };

const EVENT_STATUSES = new Set([
  'ATTEMPTED_DELIVERY',
  'CONFIRMED',
  'DELIVERED',
  'FAILURE',
  'IN_TRANSIT',
  'LABEL_PRINTED',
  'LABEL_PURCHASED',
  'OUT_FOR_DELIVERY',
  'READY_FOR_PICKUP',
]);

const INVALID_TOKEN = '[API] Invalid API key or access token (unrecognized login or wrong password)';
const BUCKET = { maximumAvailable: 1000.0, restoreRate: 50.0 };

const cursorOf = (index: number) => Buffer.from(JSON.stringify({ last_index: index })).toString('base64');
const indexOf = (cursor: unknown) =>
  typeof cursor === 'string' ? Number(JSON.parse(Buffer.from(cursor, 'base64').toString()).last_index) : -1;

/** The arguments of `field(...)` in a query: `name: $var` resolved from the variables, or a literal. */
export function argumentsOf(query: string, field: string, variables: Record<string, unknown>) {
  const match = new RegExp(`\\b${field}\\s*\\(([^)]*)\\)`).exec(query);
  const args: Record<string, unknown> = {};
  for (const [, name = '', value = ''] of (match?.[1] ?? '').matchAll(
    /(\w+)\s*:\s*(\$\w+|"(?:[^"\\]|\\.)*"|-?\d+|\w+)/g,
  )) {
    if (value.startsWith('$')) args[name] = variables[value.slice(1)];
    else if (value.startsWith('"')) args[name] = JSON.parse(value);
    else args[name] = /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return args;
}

/** The terms of Shopify's search syntax this simulator applies; others are ignored. */
function matchesSearch(order: SimShopifyOrder, search: unknown): boolean {
  for (const [, key, value = ''] of String(search ?? '').matchAll(/(\w+):(\S+)/g)) {
    const v = value.toLowerCase();
    if (key === 'status' && v === 'open' && (order.cancelledAt != null || order.closedAt != null)) return false;
    if (key === 'status' && v === 'cancelled' && order.cancelledAt == null) return false;
    if (key === 'fulfillment_status' && v === 'unfulfilled' && order.displayFulfillmentStatus !== 'UNFULFILLED')
      return false;
  }
  return true;
}

/** A connection's page of `items` from `after`, `first` long, in Shopify's edges/pageInfo shape. */
function page<T>(items: T[], args: Record<string, unknown>, node: (item: T) => unknown) {
  const start = indexOf(args.after) + 1;
  const first = typeof args.first === 'number' ? args.first : 50;
  const slice = items.slice(start, start + first);
  const last = start + slice.length - 1;
  return {
    edges: slice.map((item, i) => ({ cursor: cursorOf(start + i), node: node(item) })),
    pageInfo: { hasNextPage: last + 1 < items.length, endCursor: slice.length > 0 ? cursorOf(last) : null },
  };
}

export async function startShopifySimulator(options: { shopName?: string; domain?: string } = {}) {
  const shop = {
    name: options.shopName ?? 'Dakiya Test Store',
    myshopifyDomain: options.domain ?? 'dakiya-test.myshopify.com',
  };
  let token = SIM_SHOPIFY_TOKEN;
  const orders: SimShopifyOrder[] = [];
  const requests: SimShopifyRequest[] = [];
  let throttled: { count: number; currentlyAvailable: number } = { count: 0, currentlyAvailable: 0 };
  const fulfillmentOrders = new Map<string, SimFulfillmentOrder[]>();
  const fulfillments: SimFulfillment[] = [];
  const events: SimFulfillmentEvent[] = [];
  const subscriptions: { id: string; topic: string; callbackUrl: string; format: unknown }[] = [];
  let nextId = 1046000000;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  /** A rough requested cost: Shopify multiplies down connections (rate-limits page); enough to wait on. */
  const costOf = (args: Record<string, unknown>) => 2 + (typeof args.first === 'number' ? args.first : 1) * 6;
  const extensions = (requested: number, actual: number | null, available: number) => ({
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: { ...BUCKET, currentlyAvailable: available },
    },
  });
  const lineConnection = (order: SimShopifyOrder, args: Record<string, unknown>) =>
    page(order.lineItems, args, (line) => line);
  const fulfillmentNode = ({ id, status, trackingInfo }: SimFulfillment) => ({ id, status, trackingInfo });
  const orderNode = (order: SimShopifyOrder, lineArgs: Record<string, unknown>) => ({
    ...order,
    lineItems: lineConnection(order, lineArgs),
    fulfillmentOrders: page(fulfillmentOrders.get(order.id) ?? [], { first: 10 }, (fo) => fo),
    fulfillments: fulfillments.filter((f) => f.orderId === order.id).map(fulfillmentNode),
  });
  const tracking = (input: unknown) => {
    const t = (input ?? {}) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return [{ company: text(t.company), number: text(t.number), url: text(t.url) }];
  };
  const refused = (field: string, payload: string, userErrors: UserError[]) => ({
    [field]: { [payload]: null, userErrors },
  });
  const noFulfillment: UserError[] = [{ field: ['id'], message: 'Fulfillment does not exist.' }];

  /** The mutations of S5, each answering its payload: the object made or changed, or userErrors. */
  function mutation(field: string, args: Record<string, unknown>): Record<string, unknown> | null {
    if (field === 'fulfillmentCreate') {
      const input = (args.fulfillment ?? {}) as Record<string, unknown>;
      const wanted = (Array.isArray(input.lineItemsByFulfillmentOrder) ? input.lineItemsByFulfillmentOrder : []).map(
        (item) => String((item as Record<string, unknown>).fulfillmentOrderId),
      );
      const found = wanted.map((id) => [...fulfillmentOrders.values()].flat().find((fo) => fo.id === id));
      if (wanted.length === 0 || found.some((fo) => !fo))
        return refused(field, 'fulfillment', [
          { field: ['fulfillment', 'lineItemsByFulfillmentOrder'], message: 'Fulfillment order does not exist.' },
        ]);
      const orderId = [...fulfillmentOrders].find(([, fos]) => fos.includes(found[0] as SimFulfillmentOrder))?.[0];
      if (found.some((fo) => fo?.status !== 'OPEN' && fo?.status !== 'IN_PROGRESS'))
        return refused(field, 'fulfillment', [
          {
            field: ['fulfillment', 'lineItemsByFulfillmentOrder'],
            message: 'Fulfillment order is not in a fulfillable state.',
          },
        ]);
      for (const fo of found as SimFulfillmentOrder[]) {
        fo.status = 'CLOSED';
        for (const line of fo.lineItems) line.remainingQuantity = 0;
      }
      const made: SimFulfillment = {
        id: `gid://shopify/Fulfillment/${nextId++}`,
        orderId: orderId ?? '',
        status: 'SUCCESS',
        trackingInfo: tracking(input.trackingInfo),
        notifyCustomer: input.notifyCustomer === true,
        fulfillmentOrderIds: wanted,
      };
      fulfillments.push(made);
      return { [field]: { fulfillment: fulfillmentNode(made), userErrors: [] } };
    }
    if (field === 'fulfillmentTrackingInfoUpdate') {
      const f = fulfillments.find((x) => x.id === args.fulfillmentId);
      if (!f)
        return refused(field, 'fulfillment', [{ field: ['fulfillmentId'], message: 'Fulfillment does not exist.' }]);
      f.trackingInfo = tracking(args.trackingInfoInput);
      if (args.notifyCustomer === true) f.notifyCustomer = true;
      return { [field]: { fulfillment: fulfillmentNode(f), userErrors: [] } };
    }
    if (field === 'fulfillmentEventCreate') {
      const input = (args.fulfillmentEvent ?? {}) as Record<string, unknown>;
      if (!fulfillments.some((x) => x.id === input.fulfillmentId))
        return refused(field, 'fulfillmentEvent', [
          { field: ['fulfillmentEvent', 'fulfillmentId'], message: 'Fulfillment does not exist.' },
        ]);
      if (!EVENT_STATUSES.has(String(input.status)))
        return refused(field, 'fulfillmentEvent', [
          { field: ['fulfillmentEvent', 'status'], message: `Status is not a FulfillmentEventStatus: ${input.status}` },
        ]);
      const event = { ...input, id: `gid://shopify/FulfillmentEvent/${nextId++}` } as SimFulfillmentEvent;
      events.push(event);
      const { id, status, message, happenedAt } = event;
      return { [field]: { fulfillmentEvent: { id, status, message, happenedAt }, userErrors: [] } };
    }
    if (field === 'webhookSubscriptionCreate') {
      const input = (args.webhookSubscription ?? {}) as Record<string, unknown>;
      const callbackUrl = String(input.callbackUrl ?? '');
      const topic = String(args.topic);
      // Shopify sends webhooks over https only (S7).
      if (!/^https:\/\/[^/]+/.test(callbackUrl))
        return refused(field, 'webhookSubscription', [
          { field: ['webhookSubscription', 'callbackUrl'], message: 'Address is invalid' },
        ]);
      if (subscriptions.some((x) => x.topic === topic && x.callbackUrl === callbackUrl))
        return refused(field, 'webhookSubscription', [
          { field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' },
        ]);
      const made = { id: `gid://shopify/WebhookSubscription/${nextId++}`, topic, callbackUrl, format: input.format };
      subscriptions.push(made);
      return { [field]: { webhookSubscription: { id: made.id, topic }, userErrors: [] } };
    }
    if (field === 'webhookSubscriptionDelete') {
      const at = subscriptions.findIndex((x) => x.id === args.id);
      if (at < 0)
        return {
          [field]: {
            deletedWebhookSubscriptionId: null,
            userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
          },
        };
      subscriptions.splice(at, 1);
      return { [field]: { deletedWebhookSubscriptionId: args.id, userErrors: [] } };
    }
    if (field === 'fulfillmentCancel') {
      const f = fulfillments.find((x) => x.id === args.id);
      if (!f) return refused(field, 'fulfillment', noFulfillment);
      if (f.status === 'CANCELLED')
        return refused(field, 'fulfillment', [{ field: ['id'], message: 'Fulfillment has already been cancelled.' }]);
      f.status = 'CANCELLED';
      // Cancelling gives the lines back to their fulfillment orders, so the order can be shipped again.
      for (const fo of [...fulfillmentOrders.values()].flat().filter((x) => f.fulfillmentOrderIds.includes(x.id))) {
        fo.status = 'OPEN';
        for (const line of fo.lineItems) line.remainingQuantity = line.totalQuantity;
      }
      return { [field]: { fulfillment: { id: f.id, status: f.status }, userErrors: [] } };
    }
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = /^\/admin\/api\/([\w-]+)\/graphql\.json$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !path) return send(res, 404, { errors: 'Not Found' });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const given = req.headers['x-shopify-access-token'];
    const headerToken = Array.isArray(given) ? given[0] : given;
    let body: { query?: unknown; variables?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { errors: 'Bad Request' });
    }
    const query = typeof body.query === 'string' ? body.query : '';
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    const rootField = /^\s*(?:(?:query|mutation)\b[^{]*)?\{\s*(\w+)/.exec(query)?.[1] ?? null;
    requests.push({ version: path[1] ?? '', token: headerToken, rootField, variables });
    if (headerToken !== token) return send(res, 401, { errors: INVALID_TOKEN });

    const args = rootField ? argumentsOf(query, rootField, variables) : {};
    const requested = costOf(args);
    if (throttled.count > 0) {
      throttled.count--;
      return send(res, 200, {
        errors: [
          {
            message: 'Throttled',
            extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
          },
        ],
        extensions: extensions(requested, null, throttled.currentlyAvailable),
      });
    }
    const done = (data: unknown) =>
      send(res, 200, { data, extensions: extensions(requested, requested, 1000 - requested) });
    const lineArgs = argumentsOf(query, 'lineItems', variables);
    if (rootField === 'shop') return done({ shop });
    if (rootField === 'orders') {
      const matching = orders.filter((order) => matchesSearch(order, args.query));
      return done({ orders: page(matching, args, (order) => orderNode(order, lineArgs)) });
    }
    if (rootField === 'order') {
      const order = orders.find((o) => o.id === args.id);
      return done({ order: order ? orderNode(order, lineArgs) : null });
    }
    if (rootField === 'fulfillment') {
      const f = fulfillments.find((x) => x.id === args.id);
      return done({ fulfillment: f ? fulfillmentNode(f) : null });
    }
    const answer = rootField ? mutation(rootField, args) : null;
    if (answer) return done(answer);
    return send(res, 200, {
      errors: [
        {
          message: `Field '${rootField}' doesn't exist on type 'QueryRoot'`,
          extensions: { code: 'undefinedField', typeName: 'QueryRoot', fieldName: rootField },
        },
      ],
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { errors: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    shop,
    requests,
    orders,
    /** Keeps an order (a GraphQL Order node whose lineItems is an array of LineItem nodes), in creation order. */
    addOrder(order: SimShopifyOrder) {
      orders.push(order);
      // One fulfillment order per order, holding every line, as a single-location shop makes it.
      fulfillmentOrders.set(order.id, [
        {
          id: `gid://shopify/FulfillmentOrder/${nextId++}`,
          status: 'OPEN',
          lineItems: order.lineItems.map((line) => {
            const quantity = Number((line as Record<string, unknown>).quantity ?? 1);
            const id = `gid://shopify/FulfillmentOrderLineItem/${nextId++}`;
            return { id, totalQuantity: quantity, remainingQuantity: quantity };
          }),
        },
      ]);
    },
    /** The order's fulfillment orders, live: a test may put one on hold or close it. */
    fulfillmentOrdersOf: (orderId: string) => fulfillmentOrders.get(orderId) ?? [],
    fulfillmentsOf: (orderId: string) => fulfillments.filter((f) => f.orderId === orderId),
    eventsOf: (fulfillmentId: string) => events.filter((e) => e.fulfillmentId === fulfillmentId),
    /** The shop's webhook subscriptions (webhookSubscriptionCreate), live. */
    subscriptions,
    /** The token the custom app now has (a merchant rotating it revokes the old one). */
    setToken(next: string) {
      token = next;
    },
    /** The next `count` calls answer THROTTLED with the bucket holding `currentlyAvailable` points. */
    throttleNext(count: number, currentlyAvailable = 0) {
      throttled = { count, currentlyAvailable };
    },
    /** The signature Shopify puts in X-Shopify-Hmac-Sha256 (S6). */
    signWebhook(body: string, secret: string) {
      return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export type ShopifySimulator = Awaited<ReturnType<typeof startShopifySimulator>>;
