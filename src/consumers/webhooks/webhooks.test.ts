import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, UNKNOWN_ID } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { type Receiver, startReceiver, until } from '../../../test/webhook-receiver.js';
import type { OutboundSettings } from '../../base/outbound/outbound.settings.js';
import type { WebhookSettings } from './webhooks.settings.js';

const WEBHOOKS = '/custom/api/v1/webhooks';
/** Short waits, so retries happen within a test; a real server waits 5 s, 1 min, … */
const FAST = { retryDelaysSeconds: [0.05, 0.05, 0.05], timeoutMs: 10_000 };
/** The receivers here are plain http on this machine. */
const LOCAL = { allowHttp: true, allowPrivate: true };
const fast = (webhooks: Partial<WebhookSettings> = {}, outbound: Partial<OutboundSettings> = {}) => ({
  webhooks: { ...FAST, ...webhooks },
  outbound: { ...LOCAL, ...outbound },
  workers: { pollIntervalMs: 100 },
});

/** Deliveries wait on a worker and a receiver; on a loaded machine that takes a while. */
const SLOW = 120_000;

let ctx: TestContext;
let receiver: Receiver;
beforeAll(async () => {
  ctx = await createTestApp({ settings: fast(), delivery: ['webhooks'] });
  receiver = await startReceiver();
});
afterAll(async () => {
  await ctx.close();
  await receiver.close();
});

/** Stops this test app (its worker with it) and starts another on the same database, as a restart would. */
async function restart(webhooks: Partial<WebhookSettings> = {}, outbound: Partial<OutboundSettings> = {}) {
  await ctx.app.close();
  ctx = await createTestApp({ database: ctx.database, settings: fast(webhooks, outbound), delivery: ['webhooks'] });
}

const request = (apiKey: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });

async function register(apiKey: string, url: string, events: string[] = ['*']) {
  const response = await request(apiKey, 'POST', WEBHOOKS, { url, events, description: 'Order sync' });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; secret: string; url: string };
}

/** The bodies `r` received, parsed. */
const bodies = (r: Receiver) =>
  r.received.map(
    (x) => JSON.parse(x.body) as { id: string; type: string; sequence: number; data: Record<string, unknown> },
  );

async function deliveries(apiKey: string, endpointId: string) {
  const response = await request(apiKey, 'GET', `${WEBHOOKS}/${endpointId}/deliveries`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    id: string;
    event_id: string;
    status: string;
    attempt_count: number;
    next_attempt_at: string | null;
    attempts: { status_code: number | null; error: string | null; duration_ms: number }[];
  }[];
}

async function merchantWithEndpoint(script: Parameters<Receiver['answer']> = [], events?: string[]) {
  const account = await ctx.createAccount();
  const own = await startReceiver(script);
  const endpoint = await register(account.apiKey, own.url, events);
  return { ...account, endpoint, receiver: own, warehouseId: await createCityWarehouse(ctx, account.apiKey) };
}

describe('webhook endpoints', { timeout: SLOW }, () => {
  it('creates, lists, reads, changes, rotates and deletes; the secret shows only on creation and rotation', async () => {
    const { apiKey } = await ctx.createAccount();
    const created = await request(apiKey, 'POST', WEBHOOKS, {
      url: receiver.url,
      events: ['shipment.delivered', 'shipment.delivered'],
      description: 'Delivered only',
    });
    expect(created.statusCode).toBe(201);
    const endpoint = created.json().data;
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver.url,
      events: ['shipment.delivered'],
      description: 'Delivered only',
      status: 'enabled',
      disabled_reason: null,
      refused_reason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      created_at: '2026-11-20T06:30:00.000Z',
      updated_at: '2026-11-20T06:30:00.000Z',
    });
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(24);
    const { secret, ...shown } = endpoint;
    expect((await request(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [shown] });
    expect((await request(apiKey, 'GET', `${WEBHOOKS}/${endpoint.id}`)).json()).toEqual({ data: shown });

    const changed = await request(apiKey, 'PUT', `${WEBHOOKS}/${endpoint.id}`, { events: ['*'], description: null });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toEqual({ ...shown, events: ['*'], description: null });

    const rotated = (await request(apiKey, 'POST', `${WEBHOOKS}/${endpoint.id}/rotate-secret`)).json().data;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);

    expect((await request(apiKey, 'DELETE', `${WEBHOOKS}/${endpoint.id}`)).json()).toEqual({
      data: { id: endpoint.id, deleted: true },
    });
    expect((await request(apiKey, 'GET', `${WEBHOOKS}/${endpoint.id}`)).statusCode).toBe(404);
    expect((await request(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });
  });

  it('refuses bad input with a 400 naming the field, writing nothing', async () => {
    const { apiKey } = await ctx.createAccount();
    const cases: [object, string][] = [
      [{ events: ['*'] }, 'url'],
      [{ url: receiver.url }, 'events'],
      [{ url: 'not a url', events: ['*'] }, 'url'],
      [{ url: 'ftp://hooks.example.in/x', events: ['*'] }, 'url'],
      [{ url: 'https://user:pw@hooks.example.in/x', events: ['*'] }, 'url'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, events: ['shipment.teleported'] }, 'events'],
      [{ url: receiver.url, events: ['*', 'shipment.delivered'] }, 'events'],
      [{ url: receiver.url, events: ['*'], description: 'x'.repeat(256) }, 'description'],
    ];
    for (const [body, field] of cases) {
      const response = await request(apiKey, 'POST', WEBHOOKS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toContain(field);
    }
    expect((await request(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });
    const endpoint = await register(apiKey, receiver.url);
    const empty = await request(apiKey, 'PUT', `${WEBHOOKS}/${endpoint.id}`, {});
    expect(empty.statusCode).toBe(400);
    expect((await request(apiKey, 'PUT', `${WEBHOOKS}/${endpoint.id}`, { status: 'paused' })).json().message).toContain(
      'status',
    );
    expect((await request(apiKey, 'GET', `${WEBHOOKS}/${endpoint.id}/deliveries?limit=0`)).statusCode).toBe(400);
    expect(
      (await request(apiKey, 'GET', `${WEBHOOKS}/${endpoint.id}/deliveries?before=${UNKNOWN_ID}`)).statusCode,
    ).toBe(400);
  });

  it('another account sees none of them: endpoints, deliveries, redeliveries and tests are 404', async () => {
    const owner = await merchantWithEndpoint();
    await book(ctx, owner.apiKey, owner.warehouseId);
    await until(
      async () => (await deliveries(owner.apiKey, owner.endpoint.id)).some((d) => d.status === 'succeeded'),
      'a delivery',
    );
    const [delivery] = await deliveries(owner.apiKey, owner.endpoint.id);
    const other = await ctx.createAccount();
    const id = owner.endpoint.id;
    for (const [method, url] of [
      ['GET', `${WEBHOOKS}/${id}`],
      ['PUT', `${WEBHOOKS}/${id}`],
      ['DELETE', `${WEBHOOKS}/${id}`],
      ['POST', `${WEBHOOKS}/${id}/rotate-secret`],
      ['POST', `${WEBHOOKS}/${id}/test`],
      ['GET', `${WEBHOOKS}/${id}/deliveries`],
      ['POST', `${WEBHOOKS}/${id}/deliveries/${delivery!.id}/redeliver`],
    ] as const) {
      const response = await request(other.apiKey, method, url, method === 'PUT' ? { events: ['*'] } : undefined);
      expect([response.statusCode, response.json().code], `${method} ${url}`).toEqual([
        404,
        'webhook_endpoint_not_found',
      ]);
    }
    expect((await request(other.apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });
    // The other account's own endpoint gets none of the owner's events.
    const theirs = await merchantWithEndpoint();
    await book(ctx, owner.apiKey, owner.warehouseId);
    await until(async () => (await deliveries(owner.apiKey, owner.endpoint.id)).length >= 4, 'the second booking');
    expect(theirs.receiver.received).toEqual([]);
    await owner.receiver.close();
    await theirs.receiver.close();
  });
});

describe('delivery', { timeout: SLOW }, () => {
  it('POSTs each event, signed so that the standardwebhooks package verifies it, the body as GET /events lists it', async () => {
    const m = await merchantWithEndpoint();
    const booked = await book(ctx, m.apiKey, m.warehouseId);
    await until(() => m.receiver.received.length === 2, 'two deliveries');
    const listed = (await request(m.apiKey, 'GET', '/custom/api/v1/events')).json().data;
    const verifier = new Webhook(m.endpoint.secret);
    for (const [i, message] of m.receiver.received.entries()) {
      const headers = Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, String(v)]));
      expect(verifier.verify(message.body, headers)).toEqual(listed[i]);
      expect(message.headers['webhook-id']).toBe(listed[i].id);
      expect(message.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(message.headers['content-type']).toBe('application/json');
      expect(JSON.parse(message.body)).toEqual(listed[i]);
    }
    expect(bodies(m.receiver).map((b) => [b.type, b.sequence, (b.data.shipment as { id: string }).id])).toEqual([
      ['shipment.created', 1, booked.shipment_id],
      ['shipment.booked', 2, booked.shipment_id],
    ]);
    // Tampering is caught by the same verifier.
    const first = m.receiver.received[0]!;
    const headers = Object.fromEntries(Object.entries(first.headers).map(([k, v]) => [k, String(v)]));
    expect(() => verifier.verify(first.body.replace('shipment.created', 'shipment.delivered'), headers)).toThrow();
    await m.receiver.close();
  });

  it('a receiver answering 500 twice then 200 gets the event three times with the same webhook-id', async () => {
    const m = await merchantWithEndpoint([], ['shipment.created']);
    m.receiver.answer(500, 500);
    await book(ctx, m.apiKey, m.warehouseId);
    await until(
      async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'succeeded',
      'success on the third attempt',
    );
    expect(m.receiver.received).toHaveLength(3);
    expect(new Set(m.receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [delivery] = await deliveries(m.apiKey, m.endpoint.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, next_attempt_at: null });
    expect(delivery!.attempts.map((a) => [a.status_code, a.error])).toEqual([
      [500, 'HTTP 500'],
      [500, 'HTTP 500'],
      [200, null],
    ]);
    await m.receiver.close();
  });

  it('a receiver that hangs is timed out and retried; after the last attempt the delivery is failed', async () => {
    // Every attempt here waits out the timeout, so a short one: four of them in about a second.
    await restart({ timeoutMs: 250 });
    const m = await merchantWithEndpoint([], ['shipment.created']);
    m.receiver.answer('hang', 'hang', 'hang', 'hang');
    await book(ctx, m.apiKey, m.warehouseId);
    await until(async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'failed', 'the last attempt');
    const [delivery] = await deliveries(m.apiKey, m.endpoint.id);
    expect(delivery!.attempt_count).toBe(4);
    expect(delivery!.next_attempt_at).toBeNull();
    for (const attempt of delivery!.attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toBe('no answer within 0.25 s');
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(245);
    }
    expect(m.receiver.received).toHaveLength(4);
    await restart();
    await m.receiver.close();
  });

  it("a receiver that holds its requests delays only its own deliveries, not another account's", async () => {
    // Sends time out after 10 s here; the other account's deliveries must not wait for that.
    const stuck = await merchantWithEndpoint(['hang', 'hang'], ['shipment.created', 'shipment.booked']);
    const prompt = await merchantWithEndpoint([], ['shipment.created', 'shipment.booked']);
    await book(ctx, stuck.apiKey, stuck.warehouseId);
    await until(() => stuck.receiver.received.length === 2, 'both held sends in flight');
    await book(ctx, prompt.apiKey, prompt.warehouseId);
    // Sent and recorded: the receiver has a request a moment before its sender records the answer.
    await until(
      async () =>
        (await deliveries(prompt.apiKey, prompt.endpoint.id)).filter((d) => d.status === 'succeeded').length === 2,
      "the other account's deliveries",
    );
    expect(prompt.receiver.received).toHaveLength(2);
    // The held ones are still in flight, unrecorded: the other account's went while they waited out
    // their 10 s, not after.
    expect((await deliveries(stuck.apiKey, stuck.endpoint.id)).map((d) => [d.status, d.attempt_count])).toEqual([
      ['pending', 0],
      ['pending', 0],
    ]);
    await stuck.receiver.close();
    await prompt.receiver.close();
  });

  it('a redirect is a failed answer, never followed', async () => {
    const elsewhere = await startReceiver();
    const m = await merchantWithEndpoint([], ['shipment.created']);
    m.receiver.answer(
      { redirect: elsewhere.url },
      { redirect: elsewhere.url },
      { redirect: elsewhere.url },
      { redirect: elsewhere.url },
    );
    await book(ctx, m.apiKey, m.warehouseId);
    await until(async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'failed', 'the last attempt');
    expect((await deliveries(m.apiKey, m.endpoint.id))[0]!.attempts.map((a) => a.status_code)).toEqual([
      302, 302, 302, 302,
    ]);
    expect(elsewhere.received).toEqual([]);
    await elsewhere.close();
    await m.receiver.close();
  });

  it('orders events by sequence per shipment, whatever order they arrive in', async () => {
    const m = await merchantWithEndpoint();
    const booked = await book(ctx, m.apiKey, m.warehouseId);
    await ctx.app.inject({
      method: 'POST',
      url: '/custom/api/v1/cancel-order',
      headers: authed(m.apiKey),
      payload: { awbs: [booked.awb_code] },
    });
    await until(() => m.receiver.received.length === 4, 'four deliveries');
    const sorted = bodies(m.receiver).sort((a, b) => a.sequence - b.sequence);
    expect(sorted.map((b) => [b.sequence, b.type])).toEqual([
      [1, 'shipment.created'],
      [2, 'shipment.booked'],
      [3, 'shipment.status_changed'],
      [4, 'shipment.cancelled'],
    ]);
    await m.receiver.close();
  });

  it('test events, deliveries listing and redelivery', async () => {
    const m = await merchantWithEndpoint();
    m.receiver.answer(500, 500, 500, 500);
    const test = await request(m.apiKey, 'POST', `${WEBHOOKS}/${m.endpoint.id}/test`);
    expect(test.statusCode, test.body).toBe(202);
    expect(test.json().data).toMatchObject({
      event_type: 'webhook.test',
      status: 'pending',
      attempt_count: 0,
      attempts: [],
    });
    await until(async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'failed', 'the test to fail');
    expect(JSON.parse(m.receiver.received[0]!.body)).toMatchObject({
      type: 'webhook.test',
      sequence: 1,
      data: { webhook: { id: m.endpoint.id } },
    });
    // Not an account change: GET /events does not list it.
    expect((await request(m.apiKey, 'GET', '/custom/api/v1/events')).json().data).toEqual([]);

    const failed = (await deliveries(m.apiKey, m.endpoint.id))[0]!;
    const again = await request(m.apiKey, 'POST', `${WEBHOOKS}/${m.endpoint.id}/deliveries/${failed.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().data).toMatchObject({ event_id: failed.event_id, status: 'pending', attempt_count: 0 });
    await until(async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'succeeded', 'the redelivery');
    const listed = await deliveries(m.apiKey, m.endpoint.id);
    expect(listed.map((d) => [d.status, d.attempt_count])).toEqual([
      ['succeeded', 1],
      ['failed', 4],
    ]);
    expect(m.receiver.received.at(-1)!.headers['webhook-id']).toBe(m.receiver.received[0]!.headers['webhook-id']);
    const page = (await request(m.apiKey, 'GET', `${WEBHOOKS}/${m.endpoint.id}/deliveries?limit=1`)).json();
    expect(page.data.map((d: { id: string }) => d.id)).toEqual([listed[0]!.id]);
    expect(page.meta.next_before).toBe(listed[0]!.id);
    const next = (
      await request(m.apiKey, 'GET', `${WEBHOOKS}/${m.endpoint.id}/deliveries?limit=1&before=${listed[0]!.id}`)
    ).json();
    expect(next).toEqual({ data: [listed[1]], meta: { next_before: null } });

    // Refused: a delivery the endpoint does not have; any delivery while the endpoint is disabled.
    const unknown = await request(m.apiKey, 'POST', `${WEBHOOKS}/${m.endpoint.id}/deliveries/${UNKNOWN_ID}/redeliver`);
    expect([unknown.statusCode, unknown.json().code, unknown.json().message]).toEqual([
      404,
      'webhook_delivery_not_found',
      'Delivery not found',
    ]);
    const disabled = await request(m.apiKey, 'PUT', `${WEBHOOKS}/${m.endpoint.id}`, { status: 'disabled' });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const refused = await request(m.apiKey, 'POST', `${WEBHOOKS}/${m.endpoint.id}/deliveries/${failed.id}/redeliver`);
    expect([refused.statusCode, refused.json().code, refused.json().message]).toEqual([
      422,
      'webhook_endpoint_disabled',
      'The endpoint is disabled: enable it (PUT status "enabled") first',
    ]);
    expect((await deliveries(m.apiKey, m.endpoint.id)).map((d) => d.id)).toEqual(listed.map((d) => d.id));
    await m.receiver.close();
  });

  it('20 events in a row failing disable the endpoint; enabling it again forgets them', async () => {
    const m = await merchantWithEndpoint([], ['shipment.created']);
    m.receiver.answer(...Array.from({ length: 200 }, () => 503));
    for (let i = 0; i < 20; i++) await book(ctx, m.apiKey, m.warehouseId);
    await until(
      async () => (await request(m.apiKey, 'GET', `${WEBHOOKS}/${m.endpoint.id}`)).json().data.status === 'disabled',
      'the endpoint to be disabled',
      60_000,
    );
    const endpoint = (await request(m.apiKey, 'GET', `${WEBHOOKS}/${m.endpoint.id}`)).json().data;
    expect(endpoint.disabled_reason).toMatch(/^No successful delivery since .* \(20 events failed in a row\)$/);
    await until(
      async () => (await deliveries(m.apiKey, m.endpoint.id)).every((d) => d.status === 'failed'),
      'pending deliveries given up',
    );
    // Every request the receiver got is recorded: a record lost to a deadlock with the one disabling
    // the endpoint (PostgreSQL) never catches up, since its delivery is given up or sent again.
    await until(
      async () =>
        (await deliveries(m.apiKey, m.endpoint.id)).reduce((n, d) => n + d.attempt_count, 0) ===
        m.receiver.received.length,
      'every attempt recorded',
      20_000,
    );
    expect((await request(m.apiKey, 'POST', `${WEBHOOKS}/${m.endpoint.id}/test`)).statusCode).toBe(422);
    const enabled = await request(m.apiKey, 'PUT', `${WEBHOOKS}/${m.endpoint.id}`, { status: 'enabled' });
    expect(enabled.json().data).toMatchObject({ status: 'enabled', disabled_reason: null });
    await m.receiver.close();
  });
});

describe('safe targets', { timeout: SLOW }, () => {
  it('refuses http, loopback, private, link-local and metadata targets unless the server allows them', async () => {
    const strict = await createTestApp({
      database: ctx.database,
      settings: fast({}, { allowHttp: false, allowPrivate: false }),
    });
    const { apiKey } = await ctx.createAccount();
    const post = (url: string) =>
      strict.app.inject({ method: 'POST', url: WEBHOOKS, headers: authed(apiKey), payload: { url, events: ['*'] } });
    const refusals: [string, string][] = [
      [receiver.url, 'url must start with https://'],
      ['https://127.0.0.1/hooks', 'resolves to 127.0.0.1'],
      ['https://localhost/hooks', 'url host localhost is this machine'],
      ['https://10.1.2.3/hooks', 'resolves to 10.1.2.3'],
      ['https://192.168.1.10/hooks', 'resolves to 192.168.1.10'],
      ['https://172.20.0.5/hooks', 'resolves to 172.20.0.5'],
      ['https://169.254.169.254/latest/meta-data', 'resolves to 169.254.169.254'],
      ['https://[::1]/hooks', 'resolves to ::1'],
      ['https://[::ffff:127.0.0.1]/hooks', 'resolves to'],
      ['https://[fd00::1]/hooks', 'resolves to fd00::1'],
    ];
    for (const [url, message] of refusals) {
      const response = await post(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().details, url).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
    }
    expect((await request(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });
    // A host that does not resolve (yet) is no address to refuse: saved, with a warning.
    const later = await post('https://no-such-host.invalid/hooks');
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json().data.warnings).toEqual([
      {
        field: 'url',
        message:
          'url host no-such-host.invalid does not resolve (yet): the endpoint is saved, and each delivery fails until it resolves to a public address',
      },
    ]);
    await strict.app.close();
  });

  it('a worker that does not allow private targets refuses to send to one registered earlier', async () => {
    const m = await merchantWithEndpoint([], ['shipment.created']);
    await restart({}, { allowPrivate: false });
    await book(ctx, m.apiKey, m.warehouseId);
    await until(
      async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'failed',
      'the refused delivery',
    );
    const [delivery] = await deliveries(m.apiKey, m.endpoint.id);
    expect(delivery!.attempts[0]!.error).toMatch(/^refused: url host 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
    expect(m.receiver.received).toEqual([]);
    await restart();
    await m.receiver.close();
  });
});

describe('durability', { timeout: SLOW }, () => {
  it('a restart mid-retry loses nothing: the next process sends the retry', async () => {
    // The first process waits 2 s before its retry, long enough to stop it in between.
    await restart({ retryDelaysSeconds: [2] });
    const m = await merchantWithEndpoint([], ['shipment.created']);
    m.receiver.answer(500);
    await book(ctx, m.apiKey, m.warehouseId);
    await until(
      async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.attempt_count === 1,
      'the first, failed attempt',
    );
    const [waiting] = await deliveries(m.apiKey, m.endpoint.id);
    expect(waiting).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(Date.parse(waiting!.next_attempt_at!)).toBeGreaterThan(Date.now());
    await restart();
    await until(
      async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'succeeded',
      'the retry after the restart',
    );
    expect(m.receiver.received).toHaveLength(2);
    expect(m.receiver.received[0]!.headers['webhook-id']).toBe(m.receiver.received[1]!.headers['webhook-id']);
    await m.receiver.close();
  });

  it('events recorded before any process delivered are sent once one does (WEBHOOK_WORKER=false, then a worker)', async () => {
    const shared = ctx;
    // A database no worker has read yet, as under API processes that leave delivery to npm run worker.
    ctx = await createTestApp({ settings: fast() });
    try {
      const m = await merchantWithEndpoint([], ['shipment.created']);
      await book(ctx, m.apiKey, m.warehouseId);
      expect(await deliveries(m.apiKey, m.endpoint.id)).toEqual([]);
      await restart();
      await until(
        async () => (await deliveries(m.apiKey, m.endpoint.id))[0]?.status === 'succeeded',
        'the event, once a worker runs',
      );
      expect(m.receiver.received).toHaveLength(1);
      await m.receiver.close();
    } finally {
      await ctx.close();
      ctx = shared;
    }
  });
});
