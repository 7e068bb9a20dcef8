import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, V1 } from '../../../test/kit/http.js';
import { createStore } from '../../../test/kit/stores.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import type { ChannelOrder } from '../../channels/channel-adapter.js';
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  startShopifySimulator,
} from '../../demo/simulators/shopify-simulator.js';
import { DomainError } from '../../domain/errors.js';
import type { ImportChannelOrder } from '../contracts.js';
import { payloadOf } from './channel-order-body.js';
import { createChannelOrderImport, MAX_IMPORT_ATTEMPTS, retryDelayMs } from './channel-order-import.js';
import * as repo from './sales-channels.repository.js';

// One ledger row's import, called as the intake calls it, over a real database, with the orders
// module's function (handed in by the composition root) replaced by one that fails as a courier
// away does: the row waits and is tried again rather than refused, holds up no row behind it, and
// is refused only once its attempts run out.

let sim: ShopifySimulator;
let ctx: TestContext;

beforeAll(async () => {
  sim = await startShopifySimulator();
  ctx = await createTestApp({
    settings: { outbound: { allowHttp: true, allowPrivate: true }, channels: { shopifyBaseUrl: sim.baseUrl } },
  });
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

const storeOrder = (n: number): ChannelOrder => ({
  channelOrderId: String(9100 + n),
  channelOrderName: `#${9100 + n}`,
  createdAt: new Date('2026-11-20T05:00:00Z'),
  updatedAt: null,
  cancelled: false,
  awaitingShipment: true,
  currency: 'INR',
  paymentMethod: 'prepaid',
  codPaise: 0,
  totalPaise: 99900,
  subTotalPaise: 99900,
  discountPaise: 0,
  taxPaise: 0,
  shippingPaise: 0,
  email: null,
  shipping: {
    firstName: 'Meera',
    lastName: null,
    address1: '4 Park Street',
    address2: null,
    city: 'Kolkata',
    state: 'West Bengal',
    pincode: '700016',
    phone: '9830012345',
    countryCode: 'IN',
  },
  billing: null,
  lines: [{ name: 'Saree', sku: 'SR-1', units: 1, unitPricePaise: 99900, unitWeightGrams: 600, category: 'Sarees' }],
});

/** A connected channel with two store orders pending in its ledger. */
async function ledgerWithTwo() {
  const { id: accountId, apiKey } = await ctx.createAccount();
  await createCityWarehouse(ctx, apiKey, 'mumbai');
  const store = await createStore(ctx, apiKey, { store_name: `shop-${crypto.randomUUID().slice(0, 8)}` });
  const connected = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/channels`,
    headers: authed(apiKey),
    payload: {
      channel: 'shopify',
      store_name: store.store_name,
      shop_domain: `${store.store_name}.myshopify.com`,
      access_token: SIM_SHOPIFY_TOKEN,
      webhook_secret: 'shpss_import',
      register_webhooks: false,
    },
  });
  expect(connected.statusCode, connected.body).toBe(201);
  const id = connected.json().data.id as string;
  const seen = [1, 2].map((n) => {
    const order = storeOrder(n);
    return { ...order, payload: payloadOf(order) };
  });
  await repo.recordSeen(ctx.database.db, accountId, id, seen, ctx.clock.now());
  const channel = (await repo.channelById(ctx.database.db, accountId, id))!;
  return { accountId, id, context: { channel, storeName: store.store_name as string } };
}

describe('a store order whose import fails for a reason that passes', () => {
  it('waits and is tried again, behind no one, and is refused only once its attempts run out', async () => {
    const { accountId, id, context } = await ledgerWithTwo();
    const db = ctx.database.db;
    const tried: string[] = [];
    const courierAway: ImportChannelOrder = async (_account, body) => {
      tried.push((body as { order_id: string }).order_id);
      throw new DomainError('upstream_failed', ['Shadowfax could not be reached']);
    };
    const settle = createChannelOrderImport({
      importOrder: courierAway,
      cancelShipment: async () => ({ cancelled: false, message: 'not asked' }),
      warn: () => undefined,
    });
    const claimAndSettle = (now: Date) =>
      db.transaction(async (tx) => {
        const [row] = await repo.claimPending(tx, now, 1);
        if (row) await settle(tx, row, context, now);
        return row?.channelOrderName ?? null;
      });
    const ledger = async (n: number) => (await repo.ledgerRow(db, accountId, id, String(9100 + n)))!;

    // Both were seen at once: the oldest change is taken first, and the tie is the database's to break.
    const start = ctx.clock.now();
    const first = await claimAndSettle(start);
    const [one, other] = first === '#9101' ? [1, 2] : [2, 1];
    expect(first).toBe(`#${9100 + one}`);
    expect(await ledger(one)).toMatchObject({
      state: 'pending',
      attempts: 1,
      reason: 'Will try again: Shadowfax could not be reached',
      nextAttemptAt: new Date(start.getTime() + retryDelayMs(1)),
    });
    // The row waiting on its retry is passed over: the next one is taken.
    expect(await claimAndSettle(start)).toBe(`#${9100 + other}`);
    expect(await claimAndSettle(start)).toBeNull();
    expect(tried).toEqual([`${context.storeName}-${9100 + one}`, `${context.storeName}-${9100 + other}`]);

    // Each later attempt waits twice as long, and the last one refuses it with why.
    let now = start;
    for (let attempt = 2; attempt <= MAX_IMPORT_ATTEMPTS; attempt++) {
      now = new Date(now.getTime() + retryDelayMs(attempt - 1));
      // Both failed at the same instants, so both are due again together.
      expect(new Set([await claimAndSettle(now), await claimAndSettle(now)])).toEqual(new Set(['#9101', '#9102']));
    }
    expect(await ledger(one)).toMatchObject({
      state: 'refused',
      attempts: MAX_IMPORT_ATTEMPTS,
      reason: 'Shadowfax could not be reached',
      fields: ['order'],
      nextAttemptAt: null,
    });
    // 30 s, 1 min, … capped at an hour.
    expect([1, 2, 7, 8, 12].map(retryDelayMs)).toEqual([30_000, 60_000, 1_920_000, 3_600_000, 3_600_000]);
  });

  it('refuses at once what the order itself refuses', async () => {
    const { accountId, id, context } = await ledgerWithTwo();
    const db = ctx.database.db;
    const settle = createChannelOrderImport({
      importOrder: async () => {
        throw new DomainError(
          'unprocessable',
          ['shipping_pincode is not serviceable'],
          [{ field: 'shipping_pincode', message: 'shipping_pincode is not serviceable' }],
        );
      },
      cancelShipment: async () => ({ cancelled: false, message: 'not asked' }),
      warn: () => undefined,
    });
    const now = ctx.clock.now();
    const taken = await db.transaction(async (tx) => {
      const [row] = await repo.claimPending(tx, now, 1);
      await settle(tx, row!, context, now);
      return row!.channelOrderId;
    });
    expect(await repo.ledgerRow(db, accountId, id, taken)).toMatchObject({
      state: 'refused',
      attempts: 1,
      reason: 'shipping_pincode is not serviceable',
      fields: ['shipping_pincode'],
      nextAttemptAt: null,
    });
  });
});
