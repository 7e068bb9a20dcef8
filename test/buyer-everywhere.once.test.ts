import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import {
  BUYER_EVERYWHERE_APP,
  type Buyer,
  type BuyerEverywhere,
  buyerNeedles,
  distinctiveBuyer,
  findTraces,
  type Trace,
  writeBuyerEverywhere,
} from './kit/buyer-everywhere.js';

// The erasure test kit (issue 52) proves itself: a buyer written through every feature
// (test/kit/buyer-everywhere.ts) is found by findTraces in every table that keeps them, and a
// buyer nobody wrote is found nowhere.

let ctx: TestContext;
let buyer: Buyer;
let written: BuyerEverywhere;
let traces: Trace[];

beforeAll(async () => {
  ctx = await createTestApp(BUYER_EVERYWHERE_APP);
  buyer = distinctiveBuyer();
  const started = Date.now();
  written = await writeBuyerEverywhere(ctx, buyer);
  const wrote = Date.now() - started;
  traces = await findTraces(ctx.database.db, buyerNeedles(buyer));
  console.log(
    `buyer written in ${wrote} ms, searched in ${Date.now() - started - wrote} ms; ${written.webhooksReceived} webhooks, messages ${JSON.stringify(written.messages)}; traces:\n${traces
      .map((t) => `${t.table}.${t.column}\t${t.needle}\t${t.rows}`)
      .join('\n')}`,
  );
});
afterAll(async () => {
  await written?.close();
  await ctx?.close();
});

/** The sorted distinct table.column where `needle` (one of the buyer's) was found. */
const where = (needle: string) => [
  ...new Set(traces.filter((t) => t.needle === needle).map((t) => `${t.table}.${t.column}`)),
];
const sorted = (list: string[]) => [...list].sort();

describe('distinctiveBuyer', () => {
  it('makes letters-only names, Indian mobile numbers and values that differ every time', () => {
    const other = distinctiveBuyer();
    expect(buyer.firstName).toMatch(/^[A-Za-z]+$/);
    expect(buyer.lastName).toMatch(/^[A-Za-z]+$/);
    for (const phone of [buyer.phone, buyer.alternatePhone]) expect(phone).toMatch(/^[6-9]\d{9}$/);
    expect(buyer.alternatePhone).not.toBe(buyer.phone);
    for (const [i, needle] of buyerNeedles(buyer).entries()) expect(buyerNeedles(other)[i]).not.toBe(needle);
    expect(buyerNeedles(buyer)).toHaveLength(7);
  });
});

describe('writeBuyerEverywhere and findTraces', () => {
  it('writes the buyer into one account through every feature, with their shipments', () => {
    expect(written.orderIds).toHaveLength(4);
    expect(written.shipmentIds).toHaveLength(4);
    expect(written.awbs).toHaveLength(3);
    expect(written.messages).toEqual(MESSAGES);
    expect(written.smsSent).toBe(MESSAGES.length);
    expect(written.webhooksReceived).toBeGreaterThan(0);
  });

  it('finds every needle, in every table that keeps the buyer', () => {
    const tables = sorted([...new Set(traces.map((t) => t.table))]);
    expect(tables).toEqual(EXPECTED_TABLES);
    for (const needle of buyerNeedles(buyer)) expect(where(needle).length, needle).toBeGreaterThan(0);
  });

  it('finds each needle in exactly these columns', () => {
    const found = Object.fromEntries(
      Object.keys(EXPECTED).map((key) => [key, sorted(where(needleOf(buyer, key as keyof Buyer)))]),
    );
    expect(found).toEqual(EXPECTED);
  });

  it('finds nothing of a buyer nobody wrote, and takes a needle with % and _ literally', async () => {
    const stranger = buyerNeedles(distinctiveBuyer());
    expect(await findTraces(ctx.database.db, [...stranger, '%', '_', 'a%b_c\\'])).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ needle: stranger[0] })]),
    );
    const wild = await findTraces(ctx.database.db, ['%%zz_%', 'Zorawarix%']);
    expect(wild).toEqual([]);
  });
});

const needleOf = (b: Buyer, key: keyof Buyer) => b[key];

/** Every buyer message, each sent by SMS to the buyer's phone. */
const MESSAGES = [
  'ndr sms sent',
  // The forward booking's and the WooCommerce order's: both COD.
  'order_confirmation sms sent',
  'order_confirmation sms sent',
  // The request received, and approved.
  'return_update sms sent',
  'return_update sms sent',
];

const EXPECTED_TABLES = [
  'buyer_messages',
  'channel_orders',
  'events',
  'notifications',
  'orders',
  'refunds',
  'return_requests',
  'returns',
  'rto_history',
  'shipment_actions',
  'shipments',
];
/** Where each of the buyer's values is kept: the table.column list an erasure must reach. */
const EXPECTED: Record<keyof Buyer, string[]> = {
  firstName: [
    'channel_orders.payload',
    'events.data',
    'notifications.body_html',
    'notifications.body_text',
    'orders.billing_name',
    'orders.shipping_name',
    'refunds.payee',
    'return_requests.comment',
    'return_requests.pickup',
    'return_requests.refund_to',
    'returns.pickup',
    'shipment_actions.payload',
    'shipments.search_text',
  ],
  lastName: [
    'channel_orders.payload',
    'events.data',
    'orders.billing_last_name',
    'orders.shipping_last_name',
    'refunds.payee',
    'return_requests.pickup',
    'return_requests.refund_to',
    'returns.pickup',
    'shipments.search_text',
  ],
  phone: [
    'buyer_messages.recipient',
    'channel_orders.payload',
    'events.data',
    'orders.billing_phone',
    'orders.shipping_phone',
    'return_requests.pickup',
    'returns.pickup',
    'rto_history.key',
    'shipments.search_text',
  ],
  alternatePhone: ['events.data', 'shipment_actions.payload'],
  email: [
    'channel_orders.payload',
    'events.data',
    'notifications.recipient',
    'orders.billing_email',
    'orders.shipping_email',
    'return_requests.pickup',
    'returns.pickup',
    'shipments.search_text',
  ],
  address: [
    'channel_orders.payload',
    'events.data',
    'orders.billing_address',
    'orders.shipping_address',
    'return_requests.pickup',
    'returns.pickup',
    'shipment_actions.payload',
  ],
  address2: [
    'channel_orders.payload',
    'events.data',
    'orders.billing_address_2',
    'orders.shipping_address_2',
    'return_requests.pickup',
    'returns.pickup',
    'shipment_actions.payload',
  ],
};
