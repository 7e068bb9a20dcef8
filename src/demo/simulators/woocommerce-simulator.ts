import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProductCatalogue } from './woocommerce-products.js';
import { createWriteBackRoutes } from './woocommerce-writeback-routes.js';

/**
 * A local stand-in for a WordPress site running WooCommerce's REST API v3, answering what the
 * WooCommerce channel adapter asks today, in the shapes these sources show:
 * - routes and pagination: woocommerce-rest-api-docs (13d6196, 2024-03-15)
 *   source/includes/wp-api-v3/_introduction.md: `per_page` up to 100, 1-based `page`, the
 *   `X-WP-Total` and `X-WP-TotalPages` headers, the `rest_no_route` 404 envelope;
 *   _orders.md: the `status`, `orderby` and `order` parameters and the order JSON (fixtures/woocommerce);
 * - key pairs: woocommerce/woocommerce plugins/woocommerce/includes/class-wc-rest-authentication.php
 *   (170a893): a known key with the wrong secret is 401 `woocommerce_rest_authentication_error`
 *   "Consumer secret is invalid." with a `WWW-Authenticate: Basic` header; an unknown key leaves the
 *   request anonymous, refused by the orders controller as 401 `woocommerce_rest_cannot_view`
 *   "Sorry, you cannot list resources."; a write-only key is 401 "The API key provided does not
 *   have read permissions."; a user without the capability is 403 cannot_view
 *   (rest_authorization_required_code());
 * - plain permalinks: the same file's route_from_request_uri() reads `?rest_route=`, while
 *   `/wp-json/` is not rewritten on such a site and WordPress serves its HTML 404 page;
 * - the REST index (`GET /wp-json/`): WordPress's WP_REST_Server::get_index() `name`, `description`,
 *   `url`, `home`, `namespaces`, public without credentials;
 * - the 429: WooCommerce core sets no limit on REST v3; hosts and WAFs in front of a site do, with
 *   Retry-After (RFC 9110 §10.2.3), so its body here is plain text.
 * - products (what the order JSON leaves out of its lines: their categories): woocommerce-products.ts;
 * - write-back (notes, order status, the Shipment Tracking extensions): woocommerce-writeback-routes.ts;
 * One divergence: core reads Basic auth only when is_ssl(); this simulator is plain HTTP on
 * 127.0.0.1 and reads it anyway, as a site behind a TLS-terminating proxy with HTTPS set would.
 */

export interface SimKey {
  consumerKey: string;
  consumerSecret: string;
}

interface KeyRecord extends SimKey {
  permissions: 'read' | 'write' | 'read_write';
  /** Whether the key's WordPress user holds the capability to list orders. */
  userCanList: boolean;
}

export interface SimRequestSeen {
  path: string;
  route: string | null;
  query: Record<string, string>;
  method: string;
  /** The JSON body a write sent, parsed; undefined for none. */
  body?: unknown;
}

const NO_ROUTE = {
  code: 'rest_no_route',
  message: 'No route was found matching the URL and request method.',
  data: { status: 404 },
};
const CANNOT_LIST = {
  code: 'woocommerce_rest_cannot_view',
  message: 'Sorry, you cannot list resources.',
};
const WWW_AUTHENTICATE =
  'Basic realm="WooCommerce API. Use a consumer key in the username field and a consumer secret in the password field."';

const WEBHOOK_TOPICS = new Set(
  ['order', 'product', 'customer', 'coupon'].flatMap((resource) =>
    ['created', 'updated', 'deleted', 'restored'].map((event) => `${resource}.${event}`),
  ),
);

const newKey = (): SimKey => ({
  consumerKey: `ck_${randomBytes(20).toString('hex')}`,
  consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
});

export async function startWooCommerceSimulator(
  options: {
    plainPermalinks?: boolean;
    siteName?: string;
    indexNeedsLogin?: boolean;
    /** Which tracking extension the site runs: WooCommerce's own, zorem's AST, or none. */
    shipmentTracking?: 'official' | 'ast' | false;
  } = {},
) {
  const plain = options.plainPermalinks ?? false;
  const siteName = options.siteName ?? 'Acme Handlooms';
  const keys = new Map<string, KeyRecord>();
  const orders = new Map<number, Record<string, unknown>>();
  const products = createProductCatalogue();
  const requests: SimRequestSeen[] = [];
  let limited = 0;
  let limitedRetryAfter: string | null = '1';
  let crashing = 0;
  const webhooks: { id: number; name: string; status: string; topic: string; delivery_url: string; secret: string }[] =
    [];
  let nextWebhookId = 31;

  const writeBack = createWriteBackRoutes(orders, options.shipmentTracking ?? false);
  const main: SimKey = newKey();
  keys.set(main.consumerKey, { ...main, permissions: 'read_write', userCanList: true });

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };

  /** The key pair's verdict as WC_REST_Authentication and the orders controller give it, or undefined when let through. */
  function authFailure(req: IncomingMessage, query: URLSearchParams) {
    const refused = readFailure(req, query);
    if (refused || req.method === 'GET' || keys.get(keyOf(req, query))?.permissions !== 'read') return refused;
    return {
      status: 401,
      body: {
        code: 'woocommerce_rest_authentication_error',
        message: 'The API key provided does not have write permissions.',
        data: { status: 401 },
      },
    };
  }

  function keyOf(req: IncomingMessage, query: URLSearchParams): string {
    const header = req.headers.authorization ?? '';
    if (query.get('consumer_key') || !header.startsWith('Basic ')) return query.get('consumer_key') ?? '';
    return Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0] ?? '';
  }

  function readFailure(req: IncomingMessage, query: URLSearchParams) {
    let key = query.get('consumer_key') ?? '';
    let secret = query.get('consumer_secret') ?? '';
    const header = req.headers.authorization ?? '';
    if ((!key || !secret) && header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) [key, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
    }
    const found = key && secret ? keys.get(key) : undefined;
    if (!found) return { status: 401, body: { ...CANNOT_LIST, data: { status: 401 } } };
    if (found.consumerSecret !== secret)
      return {
        status: 401,
        body: {
          code: 'woocommerce_rest_authentication_error',
          message: 'Consumer secret is invalid.',
          data: { status: 401 },
        },
        headers: { 'www-authenticate': WWW_AUTHENTICATE },
      };
    if (found.permissions === 'write')
      return {
        status: 401,
        body: {
          code: 'woocommerce_rest_authentication_error',
          message: 'The API key provided does not have read permissions.',
          data: { status: 401 },
        },
      };
    if (!found.userCanList) return { status: 403, body: { ...CANNOT_LIST, data: { status: 403 } } };
    return undefined;
  }

  function listOrders(req: IncomingMessage, res: ServerResponse, query: URLSearchParams) {
    const refused = authFailure(req, query);
    if (refused) return json(res, refused.status, refused.body, refused.headers);
    const perPage = Number(query.get('per_page') ?? '10');
    const page = Number(query.get('page') ?? '1');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100)
      return json(res, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: { status: 400, params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } },
      });
    if (!Number.isInteger(page) || page < 1)
      return json(res, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): page',
        data: { status: 400 },
      });
    const statuses = (query.get('status') ?? 'any').split(',');
    const ascending = query.get('order') === 'asc';
    const byId = query.get('orderby') === 'id';
    const matching = [...orders.values()]
      .filter((order) =>
        statuses.includes('any') ? order.status !== 'trash' : statuses.includes(String(order.status)),
      )
      .sort((a, b) => {
        const key = (o: Record<string, unknown>) =>
          byId ? String(o.id).padStart(12, '0') : String(o.date_created_gmt);
        const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : Number(a.id) - Number(b.id);
        return ascending ? order : -order;
      });
    const totalPages = Math.ceil(matching.length / perPage);
    json(res, 200, matching.slice((page - 1) * perPage, page * perPage), {
      'x-wp-total': String(matching.length),
      'x-wp-totalpages': String(totalPages),
    });
  }

  /** WC_REST_Webhooks_Controller's create and delete (W10): a topic and an http(s) delivery URL, and no trashing. */
  function webhookRoute(method: string, route: string, query: URLSearchParams, body: unknown) {
    const input = (body ?? {}) as Record<string, unknown>;
    if (method === 'POST' && route === '/wc/v3/webhooks') {
      if (!WEBHOOK_TOPICS.has(String(input.topic)))
        return fail(400, 'woocommerce_rest_shop_webhook_invalid_topic', 'Webhook topic is required and must be valid.');
      if (!/^https?:\/\/[^/\s]+/.test(String(input.delivery_url ?? '')))
        return fail(
          400,
          'woocommerce_rest_shop_webhook_invalid_delivery_url',
          'Webhook delivery URL must be a valid URL starting with http:// or https://.',
        );
      const made = {
        id: nextWebhookId++,
        name: String(input.name ?? 'Webhook created on Nov 20, 2026 @ 11:00 AM'),
        status: String(input.status ?? 'active'),
        topic: String(input.topic),
        delivery_url: String(input.delivery_url),
        secret: String(input.secret ?? ''),
      };
      webhooks.push(made);
      const { secret: _secret, ...answered } = made;
      return { status: 201, body: answered };
    }
    const id = /^\/wc\/v3\/webhooks\/(\d+)$/.exec(route)?.[1];
    if (method === 'DELETE' && id) {
      if (query.get('force') !== 'true')
        return fail(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
      const at = webhooks.findIndex((w) => w.id === Number(id));
      if (at < 0) return fail(404, 'woocommerce_rest_shop_webhook_invalid_id', 'Invalid ID.');
      const [gone] = webhooks.splice(at, 1);
      const { secret: _secret, ...answered } = gone!;
      return { status: 200, body: answered };
    }
    return null;
  }
  const fail = (status: number, code: string, message: string) => ({
    status,
    body: { code, message, data: { status } },
  });

  function index(res: ServerResponse, baseUrl: string) {
    json(res, 200, {
      name: siteName,
      description: 'Handwoven in India',
      url: baseUrl,
      home: baseUrl,
      namespaces: ['oembed/1.0', 'wc/v1', 'wc/v2', 'wc/v3', 'wc/store/v1', 'wp/v2'],
    });
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      return json(res, 400, { code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400 } });
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const query = url.searchParams;
    let route: string | null = null;
    if (url.pathname === '/' && query.has('rest_route')) route = query.get('rest_route');
    else if (!plain && (url.pathname === '/wp-json' || url.pathname.startsWith('/wp-json/')))
      route = url.pathname.slice('/wp-json'.length) || '/';
    query.delete('rest_route');
    requests.push({
      path: url.pathname,
      route,
      query: Object.fromEntries(query),
      method: req.method ?? 'GET',
      ...(body !== undefined && { body }),
    });

    if (route === null) {
      res.writeHead(404, { 'content-type': 'text/html; charset=UTF-8' });
      res.end(
        `<!doctype html><html><head><title>Page not found – ${siteName}</title></head><body>Nothing here</body></html>`,
      );
      return;
    }
    if (limited > 0) {
      limited -= 1;
      res.writeHead(429, {
        'content-type': 'text/plain',
        ...(limitedRetryAfter && { 'retry-after': limitedRetryAfter }),
      });
      res.end('Too Many Requests');
      return;
    }
    if (crashing > 0) {
      crashing -= 1;
      // wp_die()'s page for a PHP fatal error (WordPress 5.2+ fatal error handler).
      res.writeHead(500, { 'content-type': 'text/html; charset=UTF-8' });
      res.end('<!DOCTYPE html><html><body><p>There has been a critical error on this website.</p></body></html>');
      return;
    }
    const normal = route.replace(/\/+$/, '') || '/';
    // Security plugins (Disable REST API, iThemes) close the index to visitors with WordPress's own refusal.
    if (req.method === 'GET' && normal === '/' && options.indexNeedsLogin)
      return json(res, 401, {
        code: 'rest_cannot_access',
        message: 'Only authenticated users can access the REST API.',
        data: { status: 401 },
      });
    if (req.method === 'GET' && normal === '/') return index(res, baseUrl);
    if (req.method === 'GET' && normal === '/wc/v3/orders') return listOrders(req, res, query);
    if (req.method === 'GET' && normal === '/wc/v3/products') {
      const refused = authFailure(req, query);
      if (refused) return json(res, refused.status, refused.body, refused.headers);
      const { body: listed, headers } = products.list(query);
      return json(res, 200, listed, headers);
    }
    if (normal === '/wc/v3/webhooks' || normal.startsWith('/wc/v3/webhooks/')) {
      const refused = authFailure(req, query);
      if (refused) return json(res, refused.status, refused.body, refused.headers);
      const reply = webhookRoute(req.method ?? 'GET', normal, query, body);
      if (reply) return json(res, reply.status, reply.body);
    }
    if (writeBack.serves(normal)) {
      const refused = authFailure(req, query);
      if (refused) return json(res, refused.status, refused.body, refused.headers);
      const reply = writeBack.answer(req.method ?? 'GET', normal, body);
      if (reply) return json(res, reply.status, reply.body, reply.headers);
    }
    json(res, 404, NO_ROUTE);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** The site URL a merchant would give: WordPress's home. */
    baseUrl,
    keys: main,
    requests,
    /** Adds a key pair (a new one, or the given one): `write` answers reads as core does; `userCanList: false` is a user without the capability. */
    addKey(permissions: KeyRecord['permissions'], userCanList = true, key: SimKey = newKey()): SimKey {
      keys.set(key.consumerKey, { ...key, permissions, userCanList });
      return key;
    },
    /** Stores an order as GET /orders/{id} would answer it (a fixture, or one built from it). */
    addOrder(order: Record<string, unknown>) {
      if (typeof order.id !== 'number') throw new TypeError('a WooCommerce order needs a numeric id');
      orders.set(order.id, structuredClone(order));
    },
    /** Stores a product as GET /products answers it (id, name, categories: [{id, name, slug}]). */
    addProduct: products.add,
    /** The site's webhooks (POST /wc/v3/webhooks), live, with the secret each signs with. */
    webhooks,
    /** Forgets every order (a test's fresh site). */
    clearOrders() {
      orders.clear();
    },
    /** The order's notes, oldest first. */
    notesOf: writeBack.notesOf,
    /** The order's tracking items in the installed extension. */
    trackingsOf: writeBack.trackingsOf,
    statusOf: (orderId: number) => orders.get(orderId)?.status,
    /** The next `n` REST calls are answered 429 with this Retry-After: seconds, an HTTP date, or none (null). */
    rateLimitNext(n: number, retryAfter: number | string | null = 1) {
      limited = n;
      limitedRetryAfter = retryAfter === null ? null : String(retryAfter);
    },
    /** The next `n` REST calls meet a PHP fatal error: WordPress's 500 page. */
    crashNext(n: number) {
      crashing = n;
    },
    /** X-WC-Webhook-Signature as WC_Webhook::generate_signature() makes it. */
    signWebhook(body: string, secret: string): string {
      return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export type WooCommerceSimulator = Awaited<ReturnType<typeof startWooCommerceSimulator>>;
