import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { startReceiver, until } from '../../../test/webhook-receiver.js';
import { DEFAULT_WEBHOOK_CONCURRENCY } from './webhooks.settings.js';

const WEBHOOKS = '/custom/api/v1/webhooks';
/**
 * A send timeout longer than the production 10 s: the held sends must still be held, not timed
 * out, when the other account's delivery is timed, so that it is the shares that let it through.
 */
const SETTINGS = {
  webhooks: { retryDelaysSeconds: [0.05], timeoutMs: 60_000 },
  outbound: { allowHttp: true, allowPrivate: true },
  workers: { pollIntervalMs: 100 },
};
const { perAccount, perEndpoint } = DEFAULT_WEBHOOK_CONCURRENCY;
const SLOW = 180_000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ settings: SETTINGS, delivery: ['webhooks'] });
});
afterAll(async () => {
  await ctx.close();
});

/**
 * Twice an endpoint's share of deliveries, held at the receiver and let through a share at a time:
 * never more than the share in flight, each delivery sent once at its first attempt.
 */
async function oneEndpointAtATime() {
  const m = await ctx.createAccount();
  const held = await startReceiver([], 'hold');
  const endpoint = await register(m.apiKey, held.url);
  const warehouse = await createCityWarehouse(ctx, m.apiKey);
  // Two events a booking: twice the endpoint's share of deliveries, let through a share at a time.
  const count = 2 * perEndpoint;
  for (let i = 0; i < perEndpoint; i++) await book(ctx, m.apiKey, warehouse);
  while (held.received.length < count) {
    const before = held.received.length;
    await until(
      () => held.holding === Math.min(perEndpoint, count - before),
      `${perEndpoint} held sends after ${before}`,
    );
    held.release();
  }
  held.fallBackTo(200);
  held.release();
  await until(
    async () => (await deliveriesOf(m.apiKey, [endpoint])).every(([status]) => status === 'succeeded'),
    'every delivery recorded',
  );
  expect(await deliveriesOf(m.apiKey, [endpoint])).toEqual(Array.from({ length: count }, () => ['succeeded', 1, 1]));
  expect(held.received).toHaveLength(count);
  expect(held.peakHeld).toEqual({ all: perEndpoint, onePath: perEndpoint });
  await held.close();
}

const request = (apiKey: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });

async function register(apiKey: string, url: string) {
  const response = await request(apiKey, 'POST', WEBHOOKS, { url, events: ['shipment.created', 'shipment.booked'] });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id as string;
}

/** Each delivery of the endpoints as [status, attempt_count, attempts recorded]. */
async function deliveriesOf(apiKey: string, endpointIds: string[]) {
  const all: [string, number, number][] = [];
  for (const id of endpointIds) {
    const response = await request(apiKey, 'GET', `${WEBHOOKS}/${id}/deliveries?limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    for (const d of response.json().data as { status: string; attempt_count: number; attempts: unknown[] }[])
      all.push([d.status, d.attempt_count, d.attempts.length]);
  }
  return all;
}

describe('fair delivery', { timeout: SLOW }, () => {
  it("an account's 30 endpoints that hold every request take its share of the slots; another account's events arrive while they are held", async () => {
    const a = await ctx.createAccount();
    const slow = await startReceiver([], 'hold');
    const aEndpoints: string[] = [];
    for (let i = 1; i <= 30; i++) aEndpoints.push(await register(a.apiKey, `${slow.url}/${i}`));
    await book(ctx, a.apiKey, await createCityWarehouse(ctx, a.apiKey));
    // Two events to each of 30 endpoints: 60 deliveries, of which the account's share is sent.
    await until(() => slow.holding === perAccount, "account A's share of sends held");

    const b = await ctx.createAccount();
    const fast = await startReceiver();
    const bEndpoint = await register(b.apiKey, fast.url);
    const bWarehouse = await createCityWarehouse(ctx, b.apiKey);
    const booked = await book(ctx, b.apiKey, bWarehouse);
    await until(() => fast.received.length === 2, "account B's two events");
    expect(fast.received.map((r) => JSON.parse(r.body).data.shipment.id)).toEqual([
      booked.shipment_id,
      booked.shipment_id,
    ]);

    // A's sends are all still held: B was not let through by a timeout or a freed slot of A's.
    expect(slow.holding).toBe(perAccount);
    expect(slow.received).toHaveLength(perAccount);
    expect(slow.peakHeld).toEqual({ all: perAccount, onePath: 1 });
    const waiting = await deliveriesOf(a.apiKey, aEndpoints);
    expect(waiting).toHaveLength(60);
    expect(
      waiting.every(([status, attempts, recorded]) => status === 'pending' && attempts === 0 && recorded === 0),
    ).toBe(true);
    await until(
      async () => (await deliveriesOf(b.apiKey, [bEndpoint])).every(([status]) => status === 'succeeded'),
      "B's deliveries recorded",
    );

    // Released, A's backlog drains within its share: each delivery sent once, at its first attempt.
    slow.fallBackTo(200);
    slow.release();
    await until(() => slow.received.length === 60, "all of A's deliveries");
    await until(
      async () => (await deliveriesOf(a.apiKey, aEndpoints)).every(([status]) => status === 'succeeded'),
      "A's deliveries recorded",
    );
    expect(
      (await deliveriesOf(a.apiKey, aEndpoints)).every(([, attempts, recorded]) => attempts === 1 && recorded === 1),
    ).toBe(true);
    expect(new Set(slow.received.map((r) => `${r.path} ${r.headers['webhook-id']}`)).size).toBe(60);
    expect(slow.peakHeld.all).toBe(perAccount);
    await slow.close();
    await fast.close();
  });

  it(
    `one endpoint never has more than ${perEndpoint} requests in flight, and every delivery is sent at its first attempt`,
    oneEndpointAtATime,
  );

  it('deliveries waiting for their account to have room are not leased: a second worker on the database sends them at once', async () => {
    const m = await ctx.createAccount();
    const held = await startReceiver([], 'hold');
    const endpoints: string[] = [];
    // Twice as many endpoints as the account's share, two events each: the first worker's share
    // (with, leased behind each of its sends, that endpoint's other event) leaves as many unleased.
    for (let i = 1; i <= 2 * perAccount; i++) endpoints.push(await register(m.apiKey, `${held.url}/${i}`));
    await book(ctx, m.apiKey, await createCityWarehouse(ctx, m.apiKey));
    await until(() => held.holding === perAccount, "the first worker's share");
    // Another process's worker (here a second app on the same database) finds the rest due and unleased.
    const second = await createTestApp({ database: ctx.database, settings: SETTINGS, delivery: ['webhooks'] });
    try {
      await until(() => held.holding === 2 * perAccount, "the second worker's share");
      expect(held.received).toHaveLength(2 * perAccount);
      expect(new Set(held.received.map((r) => `${r.path} ${r.headers['webhook-id']}`)).size).toBe(2 * perAccount);
      held.fallBackTo(200);
      held.release();
      await until(
        async () => (await deliveriesOf(m.apiKey, endpoints)).every(([status]) => status === 'succeeded'),
        'every delivery recorded',
      );
      expect(await deliveriesOf(m.apiKey, endpoints)).toEqual(
        Array.from({ length: 4 * perAccount }, () => ['succeeded', 1, 1]),
      );
      expect(held.received).toHaveLength(4 * perAccount);
    } finally {
      await second.app.close();
      await held.close();
    }
  });
});

describe('fair delivery when queued deliveries outwait their lane', { timeout: SLOW }, () => {
  // The same journey with deliveries queued behind a held lane for longer than they may wait (50 ms
  // here, 5 s in production): they go back to be sent by free lanes, not kept until the held one
  // answers. Its own app and database, made the one the helpers above talk to for these tests.
  let shared: TestContext;
  beforeAll(async () => {
    shared = ctx;
    ctx = await createTestApp({
      settings: { ...SETTINGS, webhooks: { ...SETTINGS.webhooks, laneWindowMs: 50 } },
      delivery: ['webhooks'],
    });
  });
  afterAll(async () => {
    await ctx.close();
    ctx = shared;
  });

  it(
    `still never has more than ${perEndpoint} requests in flight to one endpoint, each delivery sent once`,
    oneEndpointAtATime,
  );
});
