import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, SHIPMENTS, UUID, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';
import { startVelocityReceiver, type VelocityEvent } from '../../../test/velocity-receiver.js';
import { startReceiver, until } from '../../../test/webhook-receiver.js';
import { eventsSettled } from '../../../test/databases.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import type { WebhookSettings } from './webhooks.settings.js';

const WEBHOOKS = `${V1}/webhooks`;
/** Short waits, so retries happen within a test; a real server waits 5 s, 1 min, … */
const FAST = { retryDelaysSeconds: [0.05, 0.05, 0.05], timeoutMs: 10_000 };
/** The receivers here are plain http on this machine. */
const LOCAL = { allowHttp: true, allowPrivate: true };
const fast = (webhooks: Partial<WebhookSettings> = {}, outbound: Partial<OutboundSettings> = {}) => ({
  webhooks: { ...FAST, ...webhooks },
  outbound: { ...LOCAL, ...outbound },
  workers: { pollIntervalMs: 100 },
});
const SLOW = 120_000;
const KEY = 'cp-live-7f3a9c2e41b8';

let ctx: TestContext;
let shadowfax: string;
const receivers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  ctx = await createTestApp({ settings: fast(), delivery: ['webhooks'] });
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
  for (const r of receivers) await r.close();
});

async function receiver(...args: Parameters<typeof startVelocityReceiver>) {
  const started = await startVelocityReceiver(...args);
  receivers.push(started);
  return started;
}

/** Books an hour before the scans' times (at(-40) on), as a courier's scans follow its booking. */
async function bookBeforeScans(apiKey: string, warehouseId: string) {
  ctx.clock.set(at(-60));
  try {
    return await book(ctx, apiKey, warehouseId);
  } finally {
    ctx.clock.set(at(0));
  }
}

async function register(apiKey: string, body: object) {
  const response = await ctx.app.inject({ method: 'POST', url: WEBHOOKS, headers: authed(apiKey), payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; api_key: string; api_key_header: string; format: string };
}

async function deliveries(apiKey: string, endpointId: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `${WEBHOOKS}/${endpointId}/deliveries`,
    headers: authed(apiKey),
  });
  return response.json().data as {
    event_id: string;
    event_type: string;
    status: string;
    attempts: { status_code: number | null; error: string | null }[];
  }[];
}

/** A subject's events as GET /events lists them, in log order. */
async function feed(apiKey: string, subject: 'shipment' | 'return', id: string) {
  await eventsSettled(ctx.database);
  const response = await ctx.app.inject({ method: 'GET', url: `${V1}/events?limit=100`, headers: authed(apiKey) });
  expect(response.statusCode, response.body).toBe(200);
  return (
    response.json().data as {
      id: string;
      type: string;
      sequence: number;
      data: Record<string, unknown> & Record<typeof subject, { id: string }>;
    }[]
  ).filter((e) => e.data[subject]?.id === id);
}

const byTime = (events: VelocityEvent[]) =>
  [...events].sort((a, b) => a.event_timestamp.localeCompare(b.event_timestamp));
const named = (r: { handled: VelocityEvent[] }, name: string) => byTime(r.handled.filter((e) => e.event === name));

/** India time of at(minutes), as Velocity writes event_timestamp. */
const ist = (minutes: number) => `${new Date(Date.parse(at(minutes)) + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;

const JOURNEY = [
  {
    status: 'in_transit',
    sub_status: 'picked_up',
    event_time: at(-40),
    location: 'Okhla',
    description: 'Shipment picked up',
  },
  {
    status: 'in_transit',
    sub_status: 'reached_destination_hub',
    event_time: at(-30),
    location: 'Bhiwandi Hub',
    description: 'Reached destination hub',
  },
  {
    status: 'out_for_delivery',
    sub_status: 'out_for_delivery',
    event_time: at(-20),
    location: 'Colaba',
    description: 'Out for delivery',
  },
  {
    status: 'delivered',
    sub_status: 'delivered',
    event_time: at(-10),
    location: 'Colaba',
    description: 'Delivered to Asha',
  },
];

describe("Velocity's webhook format", { timeout: SLOW }, () => {
  it('one batch of four scans reaches a Velocity receiver as three status_change and four tracking_addition, in order, each once despite a 500 and a 202', async () => {
    const { apiKey, warehouseId } = await merchantWithCityWarehouse(ctx);
    const main = await receiver(KEY, 'x-api-key', [500, 202]);
    const custom = await receiver('second-key-0042', 'x-velocity-webhook-secret');
    const endpoint = await register(apiKey, { url: main.url, events: ['*'], format: 'velocity', api_key: KEY });
    await register(apiKey, {
      url: custom.url,
      events: ['status_change'],
      format: 'velocity',
      api_key: 'second-key-0042',
      api_key_header: 'X-Velocity-Webhook-Secret',
    });
    const booked = await bookBeforeScans(apiKey, warehouseId);
    const awb = booked.awb_code!;

    const results = await sendEvents(
      ctx,
      shadowfax,
      JOURNEY.map((scan) => ({ awb, ...scan })),
    );
    expect(results).toEqual(JOURNEY.map(() => ({ awb, accepted: true })));

    await until(
      async () => main.handled.length === 7 && main.requests.length === 9 && custom.handled.length === 3,
      'the Velocity deliveries',
    );
    await until(
      async () => (await deliveries(apiKey, endpoint.id)).every((d) => d.status === 'succeeded'),
      'the retried deliveries to finish',
    );

    // The shipment as the listing shows it, for the fields every event's data repeats.
    const listed = await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: authed(apiKey), payload: {} });
    type Listed = {
      order: { id: string; external_id: string };
      carrier: { name: string };
      expected_delivery_date: string;
    };
    const shipment = (listed.json().data as { id: string; attributes: Listed }[]).find(
      (s) => s.id === booked.shipment_id,
    )!;
    const a = shipment.attributes;
    const common = {
      shipment_id: booked.shipment_id,
      tracking_number: awb,
      order_id: a.order.id,
      order_external_id: a.order.external_id,
      carrier_id: SHADOWFAX,
      carrier_name: a.carrier.name,
      ndr_reason: null,
      estimated_delivery_date: a.expected_delivery_date,
      original_edd: a.expected_delivery_date,
      shipment_type: 'forward',
      tracking_url: booked.track_url,
    };
    expect(a.order.external_id).toEqual(expect.any(String));
    expect(a.expected_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const changes = named(main, 'status_change');
    expect(changes).toEqual([
      {
        event: 'status_change',
        event_id: expect.stringMatching(UUID),
        event_timestamp: ist(-40),
        data: { ...common, status: 'in_transit', sub_status: 'picked_up' },
      },
      {
        event: 'status_change',
        event_id: expect.stringMatching(UUID),
        event_timestamp: ist(-20),
        data: { ...common, status: 'out_for_delivery', sub_status: 'out_for_delivery' },
      },
      {
        event: 'status_change',
        event_id: expect.stringMatching(UUID),
        event_timestamp: ist(-10),
        data: { ...common, status: 'delivered', sub_status: 'delivered' },
      },
    ]);
    const additions = named(main, 'tracking_addition');
    expect(additions.map((e) => [e.event_timestamp, e.data.status, e.data.sub_status, e.data.new_tracking])).toEqual(
      JOURNEY.map((scan, i) => [
        ist(-40 + 10 * i),
        scan.status,
        scan.sub_status,
        {
          tracking_id: expect.stringMatching(UUID),
          event_date_time: ist(-40 + 10 * i),
          location: scan.location,
          remarks: scan.description,
        },
      ]),
    );
    expect(new Set(main.handled.map((e) => e.event_id)).size).toBe(7);

    // Each event_id is the Dakiya event's id: the same on the retry that followed the 500 and the 202.
    const events = await feed(apiKey, 'shipment', booked.shipment_id);
    const ids = (type: string) => events.filter((e) => e.type === type).map((e) => e.id);
    expect(changes.map((e) => e.event_id)).toEqual(ids('shipment.status_changed').filter((_, i) => i !== 1));
    expect(additions.map((e) => e.event_id)).toEqual(ids('shipment.tracking_added'));
    const [failed, accepted] = main.requests;
    expect([failed!.answered, accepted!.answered]).toEqual([500, 202]);
    for (const first of [failed!, accepted!]) {
      expect(main.requests.filter((r) => r.body.event_id === first.body.event_id).map((r) => r.answered)).toEqual([
        first.answered,
        200,
      ]);
    }
    for (const r of main.requests) {
      expect(r.headers['x-api-key']).toBe(KEY);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-signature']).toBeUndefined();
    }
    expect(main.refused()).toBe(0);
    const attempts = (await deliveries(apiKey, endpoint.id)).map((d) =>
      d.attempts.map((x) => [x.status_code, x.error]),
    );
    expect(attempts).toHaveLength(7);
    expect(attempts).toContainEqual([
      [500, 'HTTP 500'],
      [200, null],
    ]);
    expect(attempts).toContainEqual([
      [202, 'HTTP 202'],
      [200, null],
    ]);

    // The second endpoint takes status_change alone, its key in the header it named.
    expect(named(custom, 'status_change').map((e) => e.data.status)).toEqual([
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(custom.requests.map((r) => r.headers['x-velocity-webhook-secret'])).toEqual([
      'second-key-0042',
      'second-key-0042',
      'second-key-0042',
    ]);
    expect(custom.refused()).toBe(0);
  });

  it('our own format hears every status passed: one status_changed per scan that moved the parcel, each with its time, then tracking_added', async () => {
    const { apiKey, warehouseId } = await merchantWithCityWarehouse(ctx);
    const booked = await bookBeforeScans(apiKey, warehouseId);
    const awb = booked.awb_code!;
    // Sent newest first: the parcel's order is the scans' times, not the batch's.
    await sendEvents(
      ctx,
      shadowfax,
      [...JOURNEY].reverse().map((scan) => ({ awb, ...scan })),
    );
    // The feed shows an event once every event before it has settled, which on PostgreSQL can take
    // a moment after the answer: the booking's two and the journey's nine.
    let events: Awaited<ReturnType<typeof feed>> = [];
    await until(async () => {
      events = await feed(apiKey, 'shipment', booked.shipment_id);
      return events.length === 11;
    }, 'the journey in the feed');
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    const view = (e: (typeof events)[number]) =>
      e.type === 'shipment.tracking_added'
        ? [e.type, (e.data.tracking as { location: string }).location, e.data.status, e.data.sub_status]
        : [e.type, e.data.from, e.data.to, e.data.sub_status, e.data.event_time, e.data.location];
    expect(events.slice(2).map(view)).toEqual([
      ['shipment.status_changed', 'pending', 'in_transit', 'picked_up', at(-40), 'Okhla'],
      ['shipment.tracking_added', 'Okhla', 'in_transit', 'picked_up'],
      ['shipment.status_changed', 'in_transit', 'in_transit', 'reached_destination_hub', at(-30), 'Bhiwandi Hub'],
      ['shipment.tracking_added', 'Bhiwandi Hub', 'in_transit', 'reached_destination_hub'],
      ['shipment.status_changed', 'in_transit', 'out_for_delivery', 'out_for_delivery', at(-20), 'Colaba'],
      ['shipment.tracking_added', 'Colaba', 'out_for_delivery', 'out_for_delivery'],
      ['shipment.status_changed', 'out_for_delivery', 'delivered', 'delivered', at(-10), 'Colaba'],
      ['shipment.delivered', 'out_for_delivery', 'delivered', 'delivered', at(-10), 'Colaba'],
      ['shipment.tracking_added', 'Colaba', 'delivered', 'delivered'],
    ]);
    expect(events.filter((e) => e.type === 'shipment.status_changed').map((e) => e.data.attempt_count)).toEqual([
      0, 0, 0, 1,
    ]);
  });

  it("deliveries waiting for a retry when their endpoint switches to Velocity's format, which has no form for them, fail at once saying why, unsent; redelivering one is refused", async () => {
    // Retries 5 s apart: time to switch the format between a delivery's first attempt and its next.
    const app = await createTestApp({ settings: fast({ retryDelaysSeconds: [5, 5] }), delivery: ['webhooks'] });
    try {
      const { apiKey, warehouseId } = await merchantWithCityWarehouse(app);
      const hooks = await startReceiver([], 500);
      receivers.push(hooks);
      const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
        app.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });
      const created = await request('POST', WEBHOOKS, { url: hooks.url, events: ['*'] });
      expect(created.statusCode, created.body).toBe(201);
      const endpointId = created.json().data.id as string;
      await book(app, apiKey, warehouseId);
      type Delivery = {
        id: string;
        event_type: string;
        status: string;
        attempt_count: number;
        next_attempt_at: string | null;
        attempts: { status_code: number | null; error: string | null }[];
      };
      const list = async () => (await request('GET', `${WEBHOOKS}/${endpointId}/deliveries`)).json().data as Delivery[];
      await until(async () => {
        const now = await list();
        return now.length >= 2 && now.every((d) => d.status === 'pending' && d.attempt_count >= 1);
      }, 'every booking event refused once');

      const switched = await request('PUT', `${WEBHOOKS}/${endpointId}`, {
        format: 'velocity',
        events: ['*'],
        api_key: KEY,
      });
      expect(switched.statusCode, switched.body).toBe(200);
      await until(async () => (await list()).every((d) => d.status === 'failed'), 'the waiting deliveries given up');
      const sentBefore = hooks.received.length;
      const after = await list();
      expect(after.map((d) => d.event_type).sort()).toEqual(
        expect.arrayContaining(['shipment.booked', 'shipment.created']),
      );
      for (const d of after) {
        expect(d.next_attempt_at).toBeNull();
        expect(d.attempts.at(-1)).toMatchObject({
          status_code: null,
          error: `not sent: ${d.event_type} has no Velocity form`,
        });
        expect(d.attempts.slice(0, -1).map((a) => a.status_code)).toEqual(d.attempts.slice(0, -1).map(() => 500));
        expect(d.attempt_count).toBe(d.attempts.length);
      }
      // The receiver heard only the standard-format attempts it refused.
      expect(sentBefore).toBe(after.reduce((n, d) => n + d.attempts.length - 1, 0));
      expect(hooks.received.every((r) => JSON.parse(r.body).type !== undefined)).toBe(true);

      const again = await request('POST', `${WEBHOOKS}/${endpointId}/deliveries/${after[0]!.id}/redeliver`);
      expect(again.statusCode, again.body).toBe(422);
      expect(again.json().errors).toEqual([
        `${after[0]!.event_type} has no form in Velocity's webhook format, which this endpoint now receives: it cannot be sent to it again`,
      ]);

      // The endpoint was not held to account for them: still enabled, and it takes what Velocity's format has.
      const endpoint = await request('GET', `${WEBHOOKS}/${endpointId}`);
      expect(endpoint.json().data).toMatchObject({ status: 'enabled', disabled_reason: null, format: 'velocity' });
      hooks.fallBackTo(200);
      const test = await request('POST', `${WEBHOOKS}/${endpointId}/test`);
      expect(test.statusCode, test.body).toBe(202);
      await until(
        () => hooks.received.some((r) => JSON.parse(r.body).event === 'webhook_test'),
        'the test event, in Velocity form',
      );
      expect(hooks.received.length).toBe(sentBefore + 1);
    } finally {
      await app.close();
    }
  });

  it('a QC return: status_change and tracking_addition as reverse, and its QC result as qc_update', async () => {
    const { apiKey, warehouseId } = await merchantWithCityWarehouse(ctx);
    const hooks = await receiver(KEY);
    const endpoint = await register(apiKey, { url: hooks.url, events: ['*'], format: 'velocity', api_key: KEY });
    const ret = await bookReturn(ctx, apiKey, warehouseId, { qc: true, carrierId: SHADOWFAX });
    const awb = ret.awb_code!;
    await sendEvents(ctx, shadowfax, [
      {
        awb,
        status: 'return_picked_up',
        sub_status: 'return_picked_up',
        qc_status: 'passed',
        event_time: at(-30),
        location: 'Colaba',
      } as never,
      { awb, status: 'return_in_transit', event_time: at(-20), location: 'Mumbai Hub' },
      { awb, status: 'return_delivered', event_time: at(-10), location: 'Okhla Hub' },
    ]);
    await until(() => hooks.handled.length === 6, 'the return events');
    expect(
      named(hooks, 'status_change').map((e) => [
        e.data.status,
        e.data.shipment_type,
        e.data.shipment_id,
        e.data.tracking_number,
      ]),
    ).toEqual([
      ['return_in_transit', 'reverse', ret.return_id, awb],
      ['return_delivered', 'reverse', ret.return_id, awb],
    ]);
    expect(named(hooks, 'tracking_addition').map((e) => [e.data.status, e.data.new_tracking!.location])).toEqual([
      ['return_in_transit', 'Colaba'],
      ['return_in_transit', 'Mumbai Hub'],
      ['return_delivered', 'Okhla Hub'],
    ]);
    const [qc] = named(hooks, 'qc_update');
    expect(qc).toMatchObject({
      event_timestamp: ist(-30),
      data: {
        qc_status: 'Passed',
        qc_failure_reason: null,
        qc_images: [],
        shipment_type: 'return',
        status: 'return_delivered',
      },
    });

    // A test event from POST /webhooks/:id/test comes in the same envelope, with the key.
    const test = await ctx.app.inject({
      method: 'POST',
      url: `${WEBHOOKS}/${endpoint.id}/test`,
      headers: authed(apiKey),
    });
    expect(test.statusCode, test.body).toBe(202);
    await until(() => hooks.handled.length === 7, 'the test event');
    expect(hooks.handled[6]).toEqual({
      event: 'webhook_test',
      event_id: test.json().data.event_id,
      event_timestamp: expect.stringMatching(/\+05:30$/),
      data: { message: 'A test event from Dakiya' },
    });
  });
});
