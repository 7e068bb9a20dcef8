import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE } from '../src/http/examples.js';
import { startShopifySimulator } from '../src/demo/simulators/shopify-simulator.js';
import { startWooCommerceSimulator } from '../src/demo/simulators/woocommerce-simulator.js';
import { startEwayBillGspSimulator } from '../src/demo/simulators/eway-bill-gsp-simulator.js';
import { gatewayBody } from './kit/eway-bill.js';
import {
  SHOPIFY_CONNECT_EXAMPLE,
  WOOCOMMERCE_CONNECT_EXAMPLE,
} from '../src/features/sales-channels/sales-channels.schemas.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/base/db/client.js';
import { createTestApp } from './app.js';
import { RETURN_POLICY_EXAMPLE } from '../src/features/return-requests/return-requests.examples.js';
import { admin } from './kit/http.js';
import { ORDER_REQUESTS } from '../src/features/orders/orders.examples.js';
import { RETURN_REQUESTS } from '../src/features/returns/returns.examples.js';
import { PERMISSION_NAMES } from '../src/domain/access/permissions.js';
import { photoPart, sendReturnForm } from './kit/return-page.js';
import { png } from './kit/uploads.js';
import type { OpenApiDocument, Operation, Parameter, Schema } from './fuzz-requests.js';

// Every request /openapi.json documents is sent as its example shows, in an account of its own,
// with the example ids (src/http/examples.ts) replaced by real ones made there first: "Try it
// out" then works for a user who pastes their own ids. An operation without examples fails here.

// The sales-channel examples connect to the Shopify and WooCommerce simulators, which accept the
// examples' token and key pair: Shopify's Admin API is asked at SHOPIFY_BASE_URL, and the WooCommerce
// example's site URL (EXAMPLE.wooSiteUrl) is replaced by the simulator's, on 127.0.0.1 over http.
const shopify = await startShopifySimulator({ domain: SHOPIFY_CONNECT_EXAMPLE.shop_domain, shopName: 'Acme Online' });
shopify.setToken(SHOPIFY_CONNECT_EXAMPLE.access_token);
const woo = await startWooCommerceSimulator({ siteName: 'Acme Online' });
// The e-way bill example generates through the GSP simulator, on 127.0.0.1 (no name to resolve).
const gsp = await startEwayBillGspSimulator();
woo.addKey('read_write', true, {
  consumerKey: WOOCOMMERCE_CONNECT_EXAMPLE.consumer_key,
  consumerSecret: WOOCOMMERCE_CONNECT_EXAMPLE.consumer_secret,
});
// The webhook examples' host does not resolve here, as for a user whose receiver's DNS is not set
// up yet: the registration is saved with a warning, and the update example then finds it.
const ctx = await createTestApp({
  settings: {
    limits: { ratePerMinute: 1_000_000 },
    outbound: { allowHttp: true, allowPrivate: true },
    channels: { shopifyBaseUrl: shopify.baseUrl },
  },
  lookup: async (host) => {
    throw new Error(`ENOTFOUND ${host}`);
  },
});
afterAll(async () => {
  await ctx.close();
  await shopify.close();
  await woo.close();
  await gsp.close();
});
const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument & {
  tags?: { name: string; description?: string }[];
};
type Media = { schema: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
type DocumentedOperation = Operation & {
  tags?: string[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description?: string; content?: Record<string, Media> }>;
};
const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    path,
    method: method.toUpperCase(),
    op: op as DocumentedOperation,
    key: `${method.toUpperCase()} ${path}`,
  })),
);

/** The examples of a media type, however @fastify/swagger wrote them (one `example`, or named `examples`). */
function examplesOf(media: Media | undefined): unknown[] {
  if (!media) return [];
  if (media.example !== undefined) return [media.example];
  return Object.values(media.examples ?? {}).map((e) => e.value);
}
const parameterExample = (p: Parameter & { example?: unknown; examples?: Record<string, { value: unknown }> }) =>
  p.example ?? Object.values(p.examples ?? {})[0]?.value ?? (p.schema.examples as unknown[] | undefined)?.[0];

let fresh = 0;
type Values = Partial<Record<keyof typeof EXAMPLE, string>>;

async function send(method: string, url: string, authorization: string | undefined, payload?: unknown) {
  const response = await ctx.app.inject({
    method: method as 'POST',
    url,
    headers: authorization ? { authorization } : {},
    ...(payload !== undefined && { payload: payload as object }),
  });
  if (response.statusCode >= 400) throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** An operation's documented example as a request (without its body), with the given example values replaced. */
function exampleRequest(
  { path, method, op }: { path: string; method: string; op: DocumentedOperation },
  values: Values,
  credentials: Record<string, string>,
) {
  let url = path;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  for (const p of (op.parameters ?? []) as (Parameter & { example?: unknown })[]) {
    const value = parameterExample(p);
    if (value === undefined) continue;
    const text = String(substitute(value, values));
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(text));
    else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`);
    else if (p.in === 'header') headers[p.name] = text;
  }
  const scheme = Object.keys((op.security ?? doc.security ?? [])[0] ?? {})[0];
  if (scheme) headers.authorization = credentials[scheme]!;
  return { method: method as 'POST', url: query.length > 0 ? `${url}?${query.join('&')}` : url, headers };
}

/** The documented example body of an operation, with the given example values replaced. */
function exampleBody(key: string, values: Values): unknown {
  const found = operations.find((o) => o.key === key);
  const [body] = examplesOf(found?.op.requestBody?.content['application/json']);
  if (body === undefined) throw new Error(`${key} has no example body to make its resources with`);
  return substitute(body, values);
}

function substitute(value: unknown, values: Values): unknown {
  if (typeof value === 'string') {
    const name = (Object.keys(EXAMPLE) as (keyof typeof EXAMPLE)[]).find((k) => EXAMPLE[k] === value);
    return name && values[name] !== undefined ? values[name] : value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, values));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, values)]));
  return value;
}

/** Example values found anywhere in a request. */
function namedIn(value: unknown, found = new Set<keyof typeof EXAMPLE>()): Set<keyof typeof EXAMPLE> {
  if (typeof value === 'string') {
    for (const [name, example] of Object.entries(EXAMPLE))
      if (example === value) found.add(name as keyof typeof EXAMPLE);
  } else if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) namedIn(child, found);
  }
  return found;
}

/**
 * A fresh account and, for the example values a request names, the real things they stand for,
 * made the way a user makes them: mostly by sending the documented example of the operation that
 * makes them. The operation under test never gets its own result made first.
 */
async function world(operation: string, needed: Set<keyof typeof EXAMPLE>) {
  const username = `acme-${process.pid}-${++fresh}`;
  const account = await ctx.createAccount(`Examples ${fresh}`, {
    username: `${username}-own`,
    password: EXAMPLE.password,
  });
  const token = (
    await send('POST', '/custom/api/v1/auth-token', undefined, {
      username: `${username}-own`,
      password: EXAMPLE.password,
    })
  ).token as string;
  const values: Values = {
    accountId: account.id,
    accountName: `Examples ${fresh}`,
    username,
    wooSiteUrl: woo.baseUrl,
  };
  // Taking back a deletion needs one pending.
  if (operation === 'DELETE /custom/api/v1/account/deletion')
    await send('POST', '/custom/api/v1/account/deletion', account.apiKey, { confirm_account_name: values.accountName });
  const made = new Set<string>();
  const key = account.apiKey;
  const make = async (name: keyof typeof EXAMPLE): Promise<void> => {
    if (values[name] !== undefined || made.has(name)) return;
    made.add(name);
    const by = async (maker: string) => {
      if (maker === operation) return undefined;
      const [method, path] = maker.split(' ') as [string, string];
      return send(
        method,
        path,
        maker.startsWith('POST /admin') ? admin.authorization : key,
        exampleBody(maker, values),
      );
    };
    switch (name) {
      case 'warehouseId':
        values.warehouseId = (await by('POST /custom/api/v1/warehouse'))?.payload.warehouse_id;
        return;
      case 'storeName':
      case 'storeId':
      case 'logoVersion': {
        if (operation === 'POST /custom/api/v1/client-stores') return;
        const body = {
          ...(exampleBody('POST /custom/api/v1/client-stores', values) as object),
          logo: png().toString('base64'),
        };
        const store = (await send('POST', '/custom/api/v1/client-stores', key, body)).data;
        values.storeId = store.id;
        values.logoVersion = new URL(store.logo_url).searchParams.get('v')!;
        made.add('storeName');
        return;
      }
      case 'orderId':
      case 'shipmentId': {
        await make('warehouseId');
        await make('storeName');
        const order = await by('POST /custom/api/v1/forward-order');
        if (order) values.shipmentId = order.payload.shipment_id;
        made.add('orderId');
        return;
      }
      case 'ewayBillOrderId': {
        // An order over the e-way bill limit (HSN and rate on its item), and the account's gateway set to the simulator.
        await make('warehouseId');
        await make('storeName');
        await send('PUT', '/custom/api/v1/paperwork-settings/eway-bill-gateway', key, gatewayBody(gsp));
        const body = {
          ...(exampleBody('POST /custom/api/v1/forward-order', values) as Record<string, unknown>),
          order_id: EXAMPLE.ewayBillOrderId,
          order_items: [{ name: 'Phone', sku: 'PHONE-1', units: 1, selling_price: 75_000, tax: 18, hsn: '8517' }],
          sub_total: 75_000,
          cod_collectible: 0,
          payment_method: 'PREPAID',
        };
        await send('POST', '/custom/api/v1/forward-order', key, body);
        values.ewayBillOrderId = EXAMPLE.ewayBillOrderId;
        return;
      }
      case 'awb':
      case 'bookedShipmentId':
      case 'labelExpires':
      case 'labelSignature': {
        await make('warehouseId');
        await make('storeName');
        // An invoice is numbered at booking, for a store with the seller's details set first.
        const details = 'PUT /custom/api/v1/client-stores/{id}/invoice-details';
        if (operation === 'GET /custom/api/v1/shipments/{id}/invoice' || operation === 'POST /custom/api/v1/invoices')
          await send(
            'PUT',
            `/custom/api/v1/client-stores/${values.storeId}/invoice-details`,
            key,
            exampleBody(details, values),
          );
        const booked = await by('POST /custom/api/v1/forward-order-orchestration');
        if (!booked) return;
        const label = new URL(booked.payload.label_url);
        Object.assign(values, {
          awb: booked.payload.awb_code,
          bookedShipmentId: booked.payload.shipment_id,
          labelExpires: label.searchParams.get('expires')!,
          labelSignature: label.searchParams.get('signature')!,
        });
        return;
      }
      case 'ndrAwb':
      case 'actionId': {
        await make('warehouseId');
        await make('storeName');
        const body = {
          ...(exampleBody('POST /custom/api/v1/forward-order-orchestration', values) as object),
          order_id: `NDR-${fresh}`,
        };
        const awb = (await send('POST', '/custom/api/v1/forward-order-orchestration', key, body)).payload
          .awb_code as string;
        const carrier = (
          await send('POST', '/admin/v1/carrier-tokens', admin.authorization, { carrier_id: EXAMPLE.carrierId })
        ).token;
        await send('POST', '/carrier/v1/tracking-events', `Bearer ${carrier}`, {
          events: [
            { awb, status: 'in_transit', event_time: '2026-11-20T06:32:00Z' },
            { awb, status: 'ndr_raised', ndr_reason: 'customer_unavailable', event_time: '2026-11-20T06:35:00Z' },
          ],
        });
        values.ndrAwb = awb;
        if (needed.has('actionId'))
          values.actionId = (await send('POST', '/custom/api/v1/reattempt', key, { awb })).data.action_id;
        return;
      }
      case 'trackToken': {
        await make('warehouseId');
        await make('storeName');
        const body = {
          ...(exampleBody('POST /custom/api/v1/forward-order-orchestration', values) as object),
          order_id: `TRK-${fresh}`,
        };
        const booked = await send('POST', '/custom/api/v1/forward-order-orchestration', key, body);
        values.trackToken = new URL(booked.payload.track_url).pathname.slice('/t/'.length);
        return;
      }
      case 'webhookId':
      case 'webhookDeliveryId': {
        const webhook = (await by('POST /custom/api/v1/webhooks'))?.data;
        if (!webhook) return;
        values.webhookId = webhook.id;
        if (needed.has('webhookDeliveryId'))
          values.webhookDeliveryId = (await send('POST', `/custom/api/v1/webhooks/${webhook.id}/test`, key)).data.id;
        return;
      }
      case 'pickupId':
        // A booked parcel waiting at the example warehouse, for the pickup to cover.
        await make('awb');
        values.pickupId = (await by('POST /custom/api/v1/pickups'))?.data.id;
        return;
      case 'courierApi': {
        // Credentials stored first, for the operations that forget them.
        const storing = 'PUT /custom/api/v1/courier-connections/{connector}/credentials';
        if (operation !== storing)
          await send(
            'PUT',
            `/custom/api/v1/courier-connections/${EXAMPLE.courierApi}/credentials`,
            key,
            exampleBody(storing, values),
          );
        values.courierApi = EXAMPLE.courierApi;
        return;
      }
      case 'allocationRuleId':
        values.allocationRuleId = (await by('POST /custom/api/v1/allocation/rules'))?.data.id;
        return;
      case 'deliveredShipmentId':
      case 'deliveredOrderId':
      case 'returnRequestId': {
        // The example store takes returns under the documented policy; an order of it, delivered.
        await make('warehouseId');
        await make('storeName');
        const policy = 'PUT /custom/api/v1/client-stores/{id}/return-policy';
        if (operation !== policy)
          await send(
            'PUT',
            `/custom/api/v1/client-stores/${values.storeId}/return-policy`,
            key,
            exampleBody(policy, values),
          );
        const body = {
          ...(exampleBody('POST /custom/api/v1/forward-order-orchestration', values) as object),
          order_id: `RR-${fresh}`,
        };
        const booked = (await send('POST', '/custom/api/v1/forward-order-orchestration', key, body)).payload;
        const carrier = (
          await send('POST', '/admin/v1/carrier-tokens', admin.authorization, { carrier_id: EXAMPLE.carrierId })
        ).token;
        await send('POST', '/carrier/v1/tracking-events', `Bearer ${carrier}`, {
          events: [
            { awb: booked.awb_code, status: 'in_transit', event_time: '2026-11-20T06:32:00Z' },
            { awb: booked.awb_code, status: 'delivered', event_time: '2026-11-20T06:35:00Z' },
          ],
        });
        values.deliveredShipmentId = booked.shipment_id;
        values.deliveredOrderId = body.order_id;
        made.add('deliveredShipmentId');
        made.add('deliveredOrderId');
        // A photo comes only from the buyer's form: the request whose photo is read is asked there.
        if (
          needed.has('returnRequestId') &&
          operation === 'GET /custom/api/v1/return-requests/{id}/photos/{position}'
        ) {
          const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83c3c' } })
            .jpeg()
            .toBuffer();
          const fields = { item_0: '1', reason: RETURN_POLICY_EXAMPLE.reasons[0]!, resolution: 'exchange' };
          await sendReturnForm(ctx, new URL(booked.track_url).pathname, fields, [photoPart(photo)]);
          const asked = await send('GET', `/custom/api/v1/return-requests?shipment_id=${booked.shipment_id}`, key);
          values.returnRequestId = asked.data[0]?.id;
        } else if (needed.has('returnRequestId'))
          values.returnRequestId = (await by('POST /custom/api/v1/return-requests'))?.data.id;
        return;
      }
      case 'refundId': {
        // A refund request of the delivered order, approved; its return delivered to the warehouse
        // (the example policy's release rule), so the refund is due; initiated first for /fail.
        await make('deliveredShipmentId');
        const asked = await send('POST', '/custom/api/v1/return-requests', key, {
          ...(exampleBody('POST /custom/api/v1/return-requests', values) as object),
          resolution: 'refund',
        });
        values.returnRequestId ??= asked.data.id;
        const approved = await send('POST', `/custom/api/v1/return-requests/${asked.data.id}/approve`, key);
        const [ret] = (await queryRows<{ awb: string; carrier_id: string }>(
          ctx.database.db,
          sql`select awb, carrier_id from returns where id = ${approved.data.return_id}`,
        )) as [{ awb: string; carrier_id: string }];
        const carrier = (
          await send('POST', '/admin/v1/carrier-tokens', admin.authorization, { carrier_id: ret.carrier_id })
        ).token;
        const minutes = (n: number) => new Date(ctx.clock.now().getTime() + n * 60_000).toISOString();
        await send('POST', '/carrier/v1/tracking-events', `Bearer ${carrier}`, {
          events: [
            { awb: ret.awb, status: 'return_picked_up', event_time: minutes(1) },
            { awb: ret.awb, status: 'return_delivered', event_time: minutes(2) },
          ],
        });
        const refunds = await send('GET', '/custom/api/v1/refunds?due=true', key);
        values.refundId = refunds.data.find(
          (r: { return_request_id: string }) => r.return_request_id === asked.data.id,
        )?.id;
        if (operation === 'POST /custom/api/v1/refunds/{id}/fail')
          await send('POST', `/custom/api/v1/refunds/${values.refundId}/initiate`, key);
        return;
      }
      case 'returnId': {
        await make('warehouseId');
        values.returnId = (await by('POST /custom/api/v1/reverse-order'))?.payload.return_id;
        return;
      }
      case 'weightDisputeId': {
        // The booked shipment weighed heavier by its courier; the verdict and the photo need it disputed first.
        await make('awb');
        const report = await send('POST', '/custom/api/v1/weight-reports', key, {
          file: `awb,charged_weight_g\n${values.awb},1200\n`,
        });
        values.weightDisputeId = report.data.opened[0].id;
        if (operation.includes('/outcome') || operation.includes('/evidence/')) {
          await send(
            'POST',
            `/custom/api/v1/weight-disputes/${values.weightDisputeId}/dispute`,
            key,
            exampleBody('POST /custom/api/v1/weight-disputes/{id}/dispute', values),
          );
        }
        return;
      }
      case 'channelId':
      case 'channelOrderId': {
        await make('warehouseId');
        await make('storeName');
        const channel = (await by('POST /custom/api/v1/channels'))?.data;
        if (!channel) return;
        values.channelId = channel.id;
        if (!needed.has('channelOrderId')) return;
        // A store order in dollars, which the channel refuses: what the retry example imports again.
        const order = JSON.stringify({
          ...JSON.parse(
            readFileSync(
              new URL('../src/channels/fixtures/shopify/webhook-orders-create-cod-inr.json', import.meta.url),
              'utf8',
            ),
          ),
          id: Number(EXAMPLE.channelOrderId),
          admin_graphql_api_id: `gid://shopify/Order/${EXAMPLE.channelOrderId}`,
          currency: 'USD',
        });
        const hook = await ctx.app.inject({
          method: 'POST',
          url: `/public/v1/channels/${channel.id}/webhook`,
          headers: {
            'content-type': 'application/json',
            'x-shopify-topic': 'orders/create',
            'x-shopify-shop-domain': SHOPIFY_CONNECT_EXAMPLE.shop_domain,
            'x-shopify-webhook-id': `examples-${fresh}`,
            'x-shopify-hmac-sha256': shopify.signWebhook(order, SHOPIFY_CONNECT_EXAMPLE.webhook_secret),
          },
          payload: order,
        });
        if (hook.statusCode !== 200) throw new Error(`the refused order's webhook answered ${hook.body}`);
        await ctx.app.channelIntake.round();
        values.channelOrderId = EXAMPLE.channelOrderId;
        return;
      }
      case 'roleName':
        if (operation !== 'POST /custom/api/v1/roles') await by('POST /custom/api/v1/roles');
        values.roleName = EXAMPLE.roleName;
        return;
      case 'memberEmail':
        values.memberEmail = `${username}@members.example`;
        return;
      case 'memberId': {
        // Invited (no relay here: the answer has the link); joined and suspended when the operation needs it.
        const email = `${username}.member@members.example`;
        const invited = await send('POST', '/custom/api/v1/members', key, { email, role: 'operations' });
        values.memberId = invited.data.id;
        if (!/suspend|reactivate/.test(operation)) return;
        const token = invited.invitation.accept_url.split('#')[1];
        await send('POST', '/panel/v1/invitation/accept', undefined, {
          token,
          name: 'Meera',
          password: EXAMPLE.password,
        });
        if (operation.endsWith('/reactivate'))
          await send('POST', `/custom/api/v1/members/${values.memberId}/suspend`, key);
        return;
      }
      case 'accountExportId': {
        // An export written and ready to download (the job run here at once).
        if (operation === 'POST /custom/api/v1/account/exports') return;
        values.accountExportId = (await send('POST', '/custom/api/v1/account/exports', key)).data.id;
        await ctx.app.accountExports.runPending();
        return;
      }
      case 'apiKeyId':
        values.apiKeyId = (
          await send('POST', `/admin/v1/accounts/${account.id}/api-keys`, admin.authorization)
        ).api_key_id;
        return;
      case 'password':
        // The account the username names, with the example's password (unless this is the operation making it).
        await by('POST /admin/v1/accounts');
        return;
      default:
        return;
    }
  };
  // The things made first, then the ones that need them.
  for (const name of needed) await make(name);
  const carrierToken = (
    await send('POST', '/admin/v1/carrier-tokens', admin.authorization, { carrier_id: EXAMPLE.carrierId })
  ).token;
  return {
    values,
    credentials: {
      credential: token,
      adminToken: admin.authorization,
      carrierToken: `Bearer ${carrierToken}`,
    } as Record<string, string>,
  };
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('binary', true);
const asDefs = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('#/components/schemas/', '#/$defs/'));
const $defs = asDefs(doc.components.schemas);
const fits = (schema: Schema, value: unknown) => {
  const validate = ajv.compile({ ...asDefs(schema), $defs });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

// Buyers' details as the examples give them (the order's billing and shipping person, the return's
// pickup person): a credential without buyers:read must find none of them in any answer.
const ORDER_EXAMPLE = ORDER_REQUESTS.forwardOrder;
const RETURN_EXAMPLE = RETURN_REQUESTS.reverseOrder;
const BUYER_VALUES = [
  ORDER_EXAMPLE.billing_customer_name,
  ORDER_EXAMPLE.billing_last_name,
  ORDER_EXAMPLE.billing_address,
  ORDER_EXAMPLE.billing_email,
  ORDER_EXAMPLE.billing_phone,
  RETURN_EXAMPLE.pickup_customer_name,
  RETURN_EXAMPLE.pickup_address,
  RETURN_EXAMPLE.pickup_phone,
];
const carries = (answer: string) => BUYER_VALUES.some((value) => answer.includes(value));
const MASKED_SCOPES = PERMISSION_NAMES.filter((permission) => permission !== 'buyers:read');
/** What the world of every read holds: one of everything the examples name. */
const EVERYTHING: (keyof typeof EXAMPLE)[] = [
  'warehouseId',
  'storeName',
  'shipmentId',
  'awb',
  'actionId',
  'trackToken',
  'webhookDeliveryId',
  'pickupId',
  'refundId',
  'returnId',
  'weightDisputeId',
  'channelOrderId',
];

describe('OpenAPI examples', () => {
  it('lists the tags in the order a user works, each with a description, and every operation under one of them', () => {
    expect(doc.tags?.map((t) => t.name)).toEqual([
      'Auth',
      'Members',
      'Stores',
      'Warehouses',
      'Rates',
      'Orders',
      'Sales channels',
      'Courier allocation',
      'Pickups',
      'Returns',
      'Exchanges',
      'Return requests',
      'Refunds',
      'Tracking',
      'Tracking page',
      'NDR actions',
      'RTO risk and NDR rules',
      'Paperwork',
      'Privacy',
      'Shipments',
      'Buyer messaging',
      'Reports',
      'Money',
      'COD remittances',
      'Events and webhooks',
      'Operator',
      'Health',
    ]);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toMatch(/\w/);
    // An account makes its own API keys (POST /api-keys, in the Auth tag): not only the operator.
    const auth = doc.tags!.find((t) => t.name === 'Auth')!.description!;
    expect(auth).toContain('POST /api-keys');
    expect(auth).not.toMatch(/keys come from the operator/);
    expect(operations.filter(({ key }) => key.endsWith(' /custom/api/v1/api-keys')).map(({ op }) => op.tags)).toEqual([
      ['Auth'],
      ['Auth'],
    ]);
    const names = new Set(doc.tags?.map((t) => t.name));
    for (const { key, op } of operations) {
      expect(op.tags?.length, key).toBe(1);
      expect(names.has(op.tags![0]!), `${key}: tag ${op.tags![0]} is not in the document's tags`).toBe(true);
    }
  });

  it('describes every answer in words and shows an example of every successful JSON answer that fits its schema', () => {
    const problems: string[] = [];
    for (const { key, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.description || response.description === 'Default Response')
          problems.push(`${key} ${status}: no description`);
        const media = response.content?.['application/json'];
        if (Number(status) >= 400 || !media || media.schema.format === 'binary') continue;
        const examples = examplesOf(media);
        if (examples.length === 0) problems.push(`${key} ${status}: no example`);
        for (const example of examples)
          for (const error of fits(media.schema, example)) problems.push(`${key} ${status}: example ${error}`);
      }
    }
    expect(problems.join('\n')).toBe('');
  });

  it('documents the label answers as application/pdf, a binary string', () => {
    for (const key of ['GET /public/v1/labels/{id}', 'GET /custom/api/v1/shipments/{id}/label']) {
      const content = operations.find((o) => o.key === key)!.op.responses['200']!.content!;
      expect(content['application/pdf']?.schema, key).toMatchObject({ type: 'string', format: 'binary' });
    }
    expect(
      Object.keys(
        operations.find((o) => o.key === 'GET /custom/api/v1/shipments/{id}/label')!.op.responses['200']!.content!,
      ),
    ).toEqual(['application/json', 'application/pdf']);
  });

  it("creates what it shows in an account that followed the README's first steps: no name taken, no warning", async () => {
    // The README's first steps, read from README.md: each curl's route and its JSON (-d) or form (-F) fields.
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const firstSteps = readme.split('\n## First steps\n')[1]!.split('\n## ')[0]!;
    const account = await ctx.createAccount('README follower');
    let warehouseId = '';
    const readmeRequests = firstSteps
      .split(/\bcurl /)
      .slice(1)
      // Those that send the first steps' key and a body: the ones that make something.
      .filter((c) => c.includes('$KEY') && /-d '|-F /.test(c));
    for (const curl of readmeRequests) {
      const route = /\$BASE(\/custom\/api\/v1\/[\w-]+)/.exec(curl)![1]!;
      const json = /-d '([\s\S]*?)'(?=\s|>|$)/.exec(curl)?.[1];
      const body = json
        ? JSON.parse(json.replace(`'"$WAREHOUSE"'`, warehouseId))
        : Object.fromEntries(
            [...curl.matchAll(/-F (\w+)=('[^']*'|\S+)/g)]
              .filter((f) => !f[2]!.startsWith('@'))
              .map((f) => [f[1], f[2]!.replace(/^'|'$/g, '')]),
          );
      const answer = await send('POST', route, account.apiKey, body);
      if (route.endsWith('/warehouse')) warehouseId = answer.payload.warehouse_id;
    }
    expect(readmeRequests.length, 'the README creates stores, a warehouse and an order').toBeGreaterThanOrEqual(4);

    const values: Values = {};
    const created = [];
    for (const maker of [
      'POST /custom/api/v1/client-stores',
      'POST /custom/api/v1/warehouse',
      'POST /custom/api/v1/forward-order',
      'POST /custom/api/v1/forward-order-orchestration',
    ]) {
      const [method, path] = maker.split(' ') as [string, string];
      const answer = await send(
        method,
        path,
        account.apiKey,
        exampleBody(maker, { ...values, warehouseId: values.warehouseId ?? warehouseId }),
      );
      if (maker.endsWith('/warehouse')) values.warehouseId = answer.payload.warehouse_id;
      created.push([maker, answer.payload?.warnings ?? answer.data?.warnings ?? null]);
    }
    expect(created).toEqual(created.map(([maker]) => [maker, null]));
  });

  it('POST /custom/api/v1/channels: the WooCommerce example connects a site too', async () => {
    const op = operations.find((o) => o.key === 'POST /custom/api/v1/channels')!.op;
    const examples = examplesOf(op.requestBody?.content['application/json']);
    expect(examples).toEqual([SHOPIFY_CONNECT_EXAMPLE, WOOCOMMERCE_CONNECT_EXAMPLE]);
    // The Shopify example's store and warehouse, made in a fresh account; the site is the simulator.
    const { values, credentials } = await world('POST /custom/api/v1/channels', namedIn(WOOCOMMERCE_CONNECT_EXAMPLE));
    const connected = await send(
      'POST',
      '/custom/api/v1/channels',
      credentials.credential,
      substitute(WOOCOMMERCE_CONNECT_EXAMPLE, values),
    );
    expect(connected.data).toMatchObject({
      channel: 'woocommerce',
      site_url: woo.baseUrl,
      shop_name: 'Acme Online',
      on_import: 'book',
    });
  });

  for (const { path, method, op, key } of operations) {
    it(`${key}: the documented request example is accepted, and an unknown field beside it as the schema says`, async () => {
      const parameters = (op.parameters ?? []) as (Parameter & { example?: unknown })[];
      for (const p of parameters.filter((p) => p.required))
        expect(parameterExample(p), `${key}: parameter ${p.name} has no example`).toBeDefined();
      const media = op.requestBody?.content['application/json'];
      const [body] = examplesOf(media);
      if (op.requestBody) {
        expect(body, `${key}: the request body has no example`).toBeDefined();
        expect(fits(media!.schema, body), `${key}: the example does not fit the body schema`).toEqual([]);
      }
      const examples = parameters.map((p) => ({ p, value: parameterExample(p) })).filter((e) => e.value !== undefined);
      const { values, credentials } = await world(key, namedIn([body, examples.map((e) => e.value)]));
      const request = exampleRequest({ path, method, op }, values, credentials);
      const entriesBefore = await auditEntries(values.accountId);
      const response = await ctx.app.inject({
        ...request,
        ...(body !== undefined && { payload: substitute(body, values) as object }),
      });
      expect(response.statusCode, `${key}: ${response.body.slice(0, 800)}`).toBeLessThan(400);
      if (writes(key, op)) {
        // By id: the test clock stands still, so entries of one instant come in no useful order.
        const seen = new Set(entriesBefore.map((entry) => entry.id));
        const written = (await auditEntries(values.accountId)).filter((entry) => !seen.has(entry.id));
        if (written.length === 0) unaudited.push(key);
        else
          expect(
            written.every((entry) => entry.actor_type === ACTOR_OF_SCHEME[schemeOf(op)!]),
            `${key}: ${JSON.stringify(written)}`,
          ).toBe(true);
      }
      expect(
        response.headers['dakiya-ignored-fields'],
        `${key}: the example sends fields the route ignores`,
      ).toBeUndefined();
      // The answer's media type is one the document gives for its status (a PDF label is application/pdf, not JSON).
      const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]!;
      const documented = Object.keys(op.responses[String(response.statusCode)]?.content ?? {});
      if (response.rawPayload.length > 0) expect(documented, `${key}: answers ${mediaType}`).toContain(mediaType);
      if (!media || body === null || typeof body !== 'object' || Array.isArray(body)) return;

      // The example again with a field the route does not know: refused, naming it, where the
      // schema says additionalProperties: false; ignored (and named in the header) where it does not.
      const schema = (
        typeof media.schema.$ref === 'string'
          ? doc.components.schemas[media.schema.$ref.split('/').pop()!]
          : media.schema
      )!;
      const unknown = await ctx.app.inject({
        ...request,
        payload: { ...(substitute(body, values) as object), zz_not_a_field: 'x' },
      });
      // A refusal is JSON; an accepted request may answer something else (a PDF of labels).
      const refusal = String(unknown.headers['content-type']).startsWith('application/json')
        ? (unknown.json() as { details?: { field: string }[] })
        : {};
      const named = (refusal.details ?? []).some((d) => d.field === 'zz_not_a_field');
      if (schema.additionalProperties === false) {
        expect(
          [unknown.statusCode, named],
          `${key}: the schema forbids unknown fields: ${unknown.body.slice(0, 300)}`,
        ).toEqual([400, true]);
      } else {
        expect(
          named,
          `${key}: the schema allows unknown fields but the answer refuses one: ${unknown.body.slice(0, 300)}`,
        ).toBe(false);
        expect(unknown.headers['dakiya-ignored-fields'], `${key}: an ignored field is named`).toBe('zz_not_a_field');
      }
      // The compatibility rule: on the Velocity routes nothing in the body schema forbids unknown fields.
      if (path.startsWith('/custom/api/v1/'))
        expect(JSON.stringify(op.requestBody!.content), key).not.toContain('"additionalProperties":false');
    });
  }

  // The audit log (issue 51): every write of the account API that answered 2xx above wrote at
  // least one entry, each naming the credential it came with (checked beside each request).
  it('finds an audit entry, naming the credential, for every write of the account API', () => {
    expect(unaudited).toEqual([]);
  });

  // Every read operation's example in one account holding one of everything, sent again through
  // a key holding every permission but buyers:read: the same status, and none of the example
  // buyer's details in the answer (an answer printing them is refused instead, naming it).
  it("masks a buyer's details in every read answer, for a credential without buyers:read", async () => {
    const { values, credentials } = await world('', new Set(EVERYTHING));
    const exchange = 'POST /custom/api/v1/exchange-order-orchestration';
    await send('POST', exchange.split(' ')[1]!, credentials.credential, exampleBody(exchange, values));
    const made = await send('POST', '/custom/api/v1/api-keys', credentials.credential, {
      name: 'no buyers',
      scopes: MASKED_SCOPES,
    });
    const carried: string[] = [];
    const leaks: string[] = [];
    for (const operation of operations) {
      const { key, op } = operation;
      const permission = (op as { 'x-permission'?: string })['x-permission'];
      if (!permission?.endsWith(':read')) continue;
      const [body] = examplesOf(op.requestBody?.content['application/json']);
      const request: ReturnType<typeof exampleRequest> & { payload?: object } = {
        ...exampleRequest(operation, values, credentials),
        ...(body !== undefined && { payload: substitute(body, values) as object }),
      };
      const refusedAsPrinted = (op as { 'x-also-needs'?: string })['x-also-needs'] === 'buyers:read';
      let whole = await ctx.app.inject(request);
      // A listing's example filters may match nothing here: then the whole listing.
      if (!carries(whole.body) && body !== undefined) {
        const unfiltered = await ctx.app.inject({ ...request, payload: {} });
        if (carries(unfiltered.body)) {
          whole = unfiltered;
          request.payload = {};
        }
      }
      if (!carries(whole.body) && !refusedAsPrinted) continue;
      carried.push(key);
      const answer = await ctx.app.inject({
        ...request,
        headers: { ...request.headers, authorization: made.data.api_key },
      });
      const shown = BUYER_VALUES.filter((value) => answer.body.includes(value));
      const outcome = refusedAsPrinted ? answer.statusCode === 403 : answer.statusCode === whole.statusCode;
      if (!outcome || shown.length > 0) leaks.push(`${key}: ${answer.statusCode}, shows ${shown.join(', ')}`);
    }
    expect(leaks).toEqual([]);
    // The answers that carried them: the check above is not empty, and a new one is noticed.
    expect(carried.sort()).toEqual(CARRYING_BUYERS);
  });
});
/** The account API's write operations, as their permission says (Velocity's listings are POSTs that read). */
function writes(key: string, op: DocumentedOperation): boolean {
  const permission = (op as { 'x-permission'?: string })['x-permission'];
  return key.split(' ')[0] !== 'GET' && permission !== undefined && !permission.endsWith(':read');
}
const schemeOf = (op: DocumentedOperation) => Object.keys((op.security ?? doc.security ?? [])[0] ?? {})[0];
/** The actor an entry names for each credential the examples send. */
const ACTOR_OF_SCHEME: Record<string, string> = { credential: 'access_token' };
const auditEntries = (accountId: unknown) =>
  queryRows<{ id: string; actor_type: string; action: string; object_type: string }>(
    ctx.database.db,
    sql`select id, actor_type, action, object_type from audit_log where account_id = ${String(accountId)}`,
  );
const unaudited: string[] = [];

const CARRYING_BUYERS = [
  'GET /custom/api/v1/events',
  'GET /custom/api/v1/refunds/{id}/payee',
  'GET /custom/api/v1/return-requests',
  'GET /custom/api/v1/return-requests/{id}',
  'GET /custom/api/v1/shipments/{id}/invoice',
  'GET /custom/api/v1/shipments/{id}/label',
  'POST /custom/api/v1/exchange-orders',
  'POST /custom/api/v1/invoices',
  'POST /custom/api/v1/labels',
  'POST /custom/api/v1/order-tracking',
  'POST /custom/api/v1/returns',
  'POST /custom/api/v1/shipments',
];
