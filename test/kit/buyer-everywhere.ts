import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/base/db/client.js';
import { startWooCommerceSimulator } from '../../src/demo/simulators/woocommerce-simulator.js';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestAppOptions, type TestContext } from '../app.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../msg91-simulator.js';
import { startReceiver } from '../webhook-receiver.js';
import { type Buyer, distinctiveBuyer, forwardOrderBody, letters, wooOrder } from './buyer-bodies.js';
import { ndrRulesCaughtUp, senderSettled } from './buyer-traces.js';
import { SHADOWFAX } from './couriers.js';
import { authed, MINUTE, ORCHESTRATE, post, REVERSE_ORCHESTRATE, STORES, V1 } from './http.js';
import { sendReturnForm } from './return-page.js';
import { detailedReturnBody } from './returns.js';
import { createStore } from './stores.js';
import { type CarrierEvent, issueCarrierToken, sendEvents } from './tracking.js';
import { createCityWarehouse } from './warehouses.js';

// One buyer written through every feature that keeps a buyer's data, in one account, through HTTP
// as real use writes it (issue 52: erasing a buyer). writeBuyerEverywhere needs an app built with
// BUYER_EVERYWHERE_APP (its senders run, and may reach the local simulators it starts), and writes:
// - a webhook endpoint (every event, native format) to a local receiver, registered first;
// - customer e-mails, kept in the outbox (no SMTP): notifications;
// - buyer messages on SMS (MSG91 simulator, the account's own base_url): both COD orders'
//   confirmations, the NDR message an NDR rule asks for, the return request's two updates;
// - a COD forward booking with the buyer as billing and shipping (name, last name, address,
//   address_2, phone, e-mail), courier scans, an NDR, a reattempt with a corrected address (which
//   contains the buyer's two lines) and the alternate phone, a delivery;
// - the buyer's return request on the tracking page (pickup address, bank refund in the buyer's
//   name), approved: a return booked from the buyer's address; and a reverse order of its own;
// - a WooCommerce order of the buyer's, pulled from the WooCommerce simulator: channel_orders.
// The buyer is then found (src/consumers/privacy/erasure.test.ts, before the erasure) in buyer_messages.recipient,
// channel_orders.payload, events.data, notifications (recipient, body_html, body_text), orders
// (billing_* and shipping_*), refunds.payee, return_requests (pickup, refund_to, comment),
// returns.pickup, rto_history.key, shipment_actions.payload and shipments.search_text; webhook
// deliveries and attempts keep ids only (the payloads reach the receiver, not a table).
// Not written: WhatsApp (SMS writes buyer_messages the same way), the tracking page's address form
// and refusal, Shopify (its API host is a server setting, so the app would have to be built after
// the simulator started; WooCommerce's site URL is the channel's own), e-mails over SMTP (the
// outbox row keeps the same composed message), labels (rendered from these rows when asked, not kept).

export { type Buyer, buyerNeedles, distinctiveBuyer } from './buyer-bodies.js';
export { findTraces, type Trace } from './buyer-traces.js';

/** The app writeBuyerEverywhere needs: webhooks, e-mails and messages sent at once, to local simulators. */
export const BUYER_EVERYWHERE_APP: TestAppOptions = {
  settings: {
    outbound: { allowHttp: true, allowPrivate: true },
    workers: { pollIntervalMs: 50 },
    webhooks: { retryDelaysSeconds: [0.05], timeoutMs: 10_000 },
    notifications: { retryDelaysSeconds: [0.05], timeoutMs: 5000 },
    messaging: { retryDelaysSeconds: [0.05], timeoutMs: 5000 },
  },
  delivery: ['webhooks', 'notifications', 'messaging'],
};

export interface BuyerEverywhere {
  accountId: string;
  apiKey: string;
  warehouseId: string;
  storeId: string;
  /** Merchant order ids: the forward booking, the approved return, the reverse order, the WooCommerce import. */
  orderIds: string[];
  /** Shipment ids, in the same order. */
  shipmentIds: string[];
  /** The forward shipment's, the approved return's and the reverse order's AWBs. */
  awbs: string[];
  forwardShipmentId: string;
  trackUrl: string;
  returnRequestId: string;
  channelId: string;
  /** How many SMS the simulator took (all of them to the buyer's phone). */
  smsSent: number;
  /** The buyer messages written, as `purpose channel status`, sorted. */
  messages: string[];
  webhooksReceived: number;
  /** Stops the simulators started (webhook receiver, MSG91, WooCommerce); the app is the caller's. */
  close(): Promise<void>;
}

async function ok(response: Promise<{ statusCode: number; body: string }>, what: string, status = 200) {
  const r = await response;
  if (r.statusCode !== status) throw new Error(`${what} failed: ${r.statusCode} ${r.body}`);
  return JSON.parse(r.body);
}

/** Writes `buyer` through every feature listed at the top of this file, in a new account; waits until the senders have settled. */
export async function writeBuyerEverywhere(ctx: TestContext, buyer: Buyer): Promise<BuyerEverywhere> {
  const hooks = await startReceiver();
  const sms = await startMsg91Simulator();
  const woo = await startWooCommerceSimulator({ siteName: 'Buyer Everywhere Handlooms' });
  const close = async () => {
    await Promise.all([hooks.close(), sms.close(), woo.close()]);
  };
  try {
    return { ...(await write(ctx, buyer, { hooks, sms, woo })), close };
  } catch (error) {
    await close();
    throw error;
  }
}

interface Simulators {
  hooks: Awaited<ReturnType<typeof startReceiver>>;
  sms: Awaited<ReturnType<typeof startMsg91Simulator>>;
  woo: Awaited<ReturnType<typeof startWooCommerceSimulator>>;
}

async function write(ctx: TestContext, buyer: Buyer, { hooks, sms, woo }: Simulators) {
  const { id: accountId, apiKey } = await ctx.createAccount(`Erasure Store ${letters(5)}`);
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    ctx.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  const store = await createStore(ctx, apiKey, { store_name: `erasure-${letters(8)}`, brand_name: 'Kurta Co' });
  await ok(
    call('PUT', `${STORES}/${store.id}/return-policy`, {
      window_days: 7,
      reasons: ['size_issue'],
      non_returnable_skus: [],
      non_returnable_categories: [],
    }),
    'return policy',
  );
  // The senders first, so that every event of the buyer's shipments reaches them.
  await ok(
    post(ctx, apiKey, `${V1}/webhooks`, { url: `${hooks.url}/buyer`, events: ['*'], description: 'Erasure' }),
    'webhook endpoint',
    201,
  );
  await ok(
    call('PUT', `${V1}/messaging/channels/sms`, {
      enabled: true,
      sender: 'KRTKRT',
      auth_key: MSG91_AUTH_KEY,
      base_url: sms.baseUrl,
      confirmation_template: { en: '1107168000000000001' },
      ndr_template: { en: '1107168000000000011' },
      return_template: { en: '1107168000000000021' },
    }),
    'SMS channel',
  );
  await ok(
    call('PUT', `${V1}/messaging/confirmation-policy`, { mode: 'all_cod', channels: ['sms'], language: 'en' }),
    'confirmation policy',
  );
  await ok(
    call('PUT', `${V1}/ndr-rules`, {
      rules: [{ name: 'Ask the buyer', when: { ndr_reasons: ['customer_unavailable'] }, action: 'message_buyer' }],
    }),
    'NDR rules',
  );
  const courier = await issueCarrierToken(ctx, SHADOWFAX);

  // The forward booking: COD, the buyer on both addresses.
  const forward = (
    await ok(post(ctx, apiKey, ORCHESTRATE, forwardOrderBody(buyer, warehouseId, store.store_name)), 'forward booking')
  ).payload as { order_id: string; channel_order_id: string; shipment_id: string; awb_code: string; track_url: string };
  const awb = forward.awb_code;

  /** Each scan a minute after the last, at the clock's time. */
  const scan = async (event: Omit<CarrierEvent, 'awb' | 'event_time'>, scanned = awb) => {
    ctx.clock.advance(MINUTE);
    const [result] = await sendEvents(ctx, courier, [
      { awb: scanned, event_time: ctx.clock.now().toISOString(), ...event },
    ]);
    if (!result?.accepted) throw new Error(`scan ${event.status} refused: ${JSON.stringify(result)}`);
  };
  await scan({ status: 'in_transit', sub_status: 'picked_up', location: 'Okhla Hub' });
  await scan({ status: 'out_for_delivery', location: 'Colaba' });
  await scan({ status: 'ndr_raised', ndr_reason: 'customer_unavailable' });
  await ndrRulesCaughtUp(ctx);
  await ok(
    post(ctx, apiKey, `${V1}/reattempt`, {
      awb,
      updated_address: { address_line: `Flat 7, ${buyer.address}`, landmark: `Beside ${buyer.address2}` },
      updated_phone_number: buyer.alternatePhone,
      comments: `Call ${buyer.firstName} on ${buyer.alternatePhone}`,
    }),
    'reattempt',
  );
  await scan({ status: 'out_for_delivery', location: 'Colaba' });
  await scan({ status: 'delivered', location: 'Colaba' });

  // The buyer's return request on the tracking page, a day later, and the merchant's approval.
  ctx.clock.advance(24 * 60 * MINUTE);
  const trackPath = new URL(forward.track_url).pathname;
  const asked = await sendReturnForm(ctx, trackPath, {
    item_0: '1',
    reason: 'size_issue',
    resolution: 'refund',
    comment: `${buyer.firstName} here: too tight`,
    refund_method: 'bank_transfer',
    refund_account_holder: `${buyer.firstName} ${buyer.lastName}`,
    refund_account_number: '501004321904521',
    refund_account_number_again: '501004321904521',
    refund_ifsc: 'HDFC0000001',
  });
  if (asked.statusCode !== 303) throw new Error(`return form refused: ${asked.statusCode} ${asked.body}`);
  const requests = await ok(call('GET', `${V1}/return-requests`), 'return requests');
  const request = (requests.data as { id: string; shipment_id: string }[]).find(
    (r) => r.shipment_id === forward.shipment_id,
  );
  if (!request) throw new Error('the return request is not listed');
  const approved = (await ok(call('POST', `${V1}/return-requests/${request.id}/approve`), 'approval')).data as {
    return_id: string;
  };
  const [approvedReturn] = await queryRows<{ order_id: string; shipment_id: string; awb: string | null }>(
    ctx.database.db,
    sql`select merchant_order_id as order_id, shipment_id, awb from returns where id = ${approved.return_id}`,
  );

  // A reverse order of its own, picked up at the buyer's.
  const reverse = (
    await ok(
      post(
        ctx,
        apiKey,
        REVERSE_ORCHESTRATE,
        detailedReturnBody(warehouseId, {
          pickup_customer_name: buyer.firstName,
          pickup_last_name: buyer.lastName,
          company_name: `${buyer.lastName} Traders`,
          pickup_address: buyer.address,
          pickup_address_2: buyer.address2,
          pickup_email: buyer.email,
          pickup_phone: buyer.phone,
          carrier_id: SHADOWFAX,
        }),
      ),
      'reverse order',
    )
  ).payload as { order_id: string; shipment_id: string; awb_code: string };

  // A WooCommerce order of the buyer's, pulled into a store of its own.
  const wooStore = await createStore(ctx, apiKey, { store_name: `erasure-woo-${letters(8)}` });
  const wooOrderId = 7000 + randomInt(1000);
  woo.addOrder(wooOrder(wooOrderId, buyer, ctx.clock.now()));
  const channel = (
    await ok(
      post(ctx, apiKey, `${V1}/channels`, {
        channel: 'woocommerce',
        store_name: wooStore.store_name,
        site_url: `${woo.baseUrl}/`,
        consumer_key: woo.keys.consumerKey,
        consumer_secret: woo.keys.consumerSecret,
        webhook_secret: 'wc_erasure_secret',
        default_weight: 0.5,
      }),
      'WooCommerce connection',
      201,
    )
  ).data as { id: string };
  await ctx.app.channelIntake.round();
  const [imported] = await queryRows<{ order_id: string; shipment_id: string }>(
    ctx.database.db,
    sql`select o.merchant_order_id as order_id, c.shipment_id from channel_orders c
          join orders o on o.id = c.order_id where c.sales_channel_id = ${channel.id}`,
  );
  if (!imported) throw new Error('the WooCommerce order was not imported');

  await senderSettled(ctx, accountId);
  const messages = await queryRows<{ m: string }>(
    ctx.database.db,
    sql`select purpose || ' ' || channel || ' ' || status as m from buyer_messages where account_id = ${accountId} order by 1`,
  );
  const shipments = [
    [forward.channel_order_id, forward.shipment_id, awb],
    [approvedReturn?.order_id, approvedReturn?.shipment_id, approvedReturn?.awb],
    [reverse.order_id, reverse.shipment_id, reverse.awb_code],
    [imported.order_id, imported.shipment_id, null],
  ] as const;
  return {
    accountId,
    apiKey,
    warehouseId,
    storeId: store.id,
    orderIds: shipments.map(([orderId]) => orderId).filter((id): id is string => Boolean(id)),
    shipmentIds: shipments.map(([, id]) => id).filter((id): id is string => Boolean(id)),
    awbs: shipments.map(([, , a]) => a).filter((a): a is string => Boolean(a)),
    forwardShipmentId: forward.shipment_id,
    trackUrl: forward.track_url,
    returnRequestId: request.id,
    channelId: channel.id,
    smsSent: sms.sends.length,
    messages: messages.map((r) => r.m),
    webhooksReceived: hooks.received.length,
  };
}

/** A test file's app and its buyer written everywhere, made before its tests and closed after them. */
export interface BuyerWorld {
  ctx: TestContext;
  buyer: Buyer;
  written: BuyerEverywhere;
}

/** Registers the file's beforeAll and afterAll; the world's fields are set once beforeAll has run. */
export function useBuyerEverywhere(): BuyerWorld {
  const world = {} as BuyerWorld;
  beforeAll(async () => {
    world.ctx = await createTestApp(BUYER_EVERYWHERE_APP);
    world.buyer = distinctiveBuyer();
    world.written = await writeBuyerEverywhere(world.ctx, world.buyer);
  });
  afterAll(async () => {
    await world.written?.close();
    await world.ctx?.close();
  });
  return world;
}
