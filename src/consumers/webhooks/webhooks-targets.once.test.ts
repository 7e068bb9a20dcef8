import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';

// URL safety decides nothing the database engine does: these run once.

const WEBHOOKS = '/custom/api/v1/webhooks';
const PUBLIC = '13.235.1.1';
const REFUSED =
  'a loopback, private, link-local, reserved or IPv6-transition address (set WEBHOOK_ALLOW_PRIVATE=true to allow)';

/** What each test host name resolves to: a DNS the test rewrites between registration and sending. */
const answers = new Map<string, string>();
const lookup = async (host: string) => {
  const address = answers.get(host);
  if (!address) throw new Error(`ENOTFOUND ${host}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    settings: {
      webhooks: { retryDelaysSeconds: [0.05] },
      outbound: { allowHttp: false, allowPrivate: false },
      workers: { pollIntervalMs: 100 },
    },
    lookup,
    delivery: ['webhooks'],
  });
});
afterAll(async () => {
  await ctx.close();
});

const request = (apiKey: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });

describe('IPv6 forms that carry a refused IPv4 address', { timeout: 60_000 }, () => {
  it('refuses each at registration with a 400 naming url and the address it carries, writing nothing', async () => {
    const { apiKey } = await ctx.createAccount();
    const cases: [string, string][] = [
      ['https://[::ffff:127.0.0.1]/hooks', 'resolves to ::ffff:7f00:1 (which carries 127.0.0.1)'],
      ['https://[::7f00:1]/hooks', 'resolves to ::7f00:1 (which carries 127.0.0.1)'],
      ['https://[::127.0.0.1]/hooks', 'resolves to ::7f00:1 (which carries 127.0.0.1)'],
      ['https://[::a9fe:a9fe]/latest/meta-data', 'resolves to ::a9fe:a9fe (which carries 169.254.169.254)'],
      ['https://[2002:7f00:1::]/hooks', 'resolves to 2002:7f00:1:: (which carries 127.0.0.1)'],
      ['https://[2002:a9fe:a9fe::]/latest/meta-data', 'resolves to 2002:a9fe:a9fe:: (which carries 169.254.169.254)'],
      ['https://[64:ff9b::7f00:1]/hooks', 'resolves to 64:ff9b::7f00:1 (which carries 127.0.0.1)'],
      [
        'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
        'resolves to 64:ff9b::a9fe:a9fe (which carries 169.254.169.254)',
      ],
      ['https://[64:ff9b:1::a00:1]/hooks', 'resolves to 64:ff9b:1::a00:1 (which carries 10.0.0.1)'],
      ['https://[64:ff9b:1::808:808]/hooks', 'resolves to 64:ff9b:1::808:808, a loopback'],
      ['https://[2001:0:7f00:1::f7f7:f7f7]/hooks', 'resolves to 2001:0:7f00:1::f7f7:f7f7 (which carries 127.0.0.1)'],
      [
        'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks',
        'resolves to 2001:0:4136:e378:8000:63bf:80ff:fffe (which carries 127.0.0.1)',
      ],
      ['https://[::ffff:0:a9fe:a9fe]/hooks', 'resolves to ::ffff:0:a9fe:a9fe (which carries 169.254.169.254)'],
    ];
    for (const [url, message] of cases) {
      const response = await request(apiKey, 'POST', WEBHOOKS, { url, events: ['*'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().details, url).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
    }
    expect((await request(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });
  });

  it('accepts the NAT64 form of a public address (DNS64), and refuses the other transition forms of one', async () => {
    const { apiKey } = await ctx.createAccount();
    const nat64 = await request(apiKey, 'POST', WEBHOOKS, { url: 'https://[64:ff9b::808:808]/hooks', events: ['*'] });
    expect(nat64.statusCode, nat64.body).toBe(201);
    const cases: [string, string][] = [
      ['https://[2002:808:808::1]/hooks', 'resolves to 2002:808:808::1 (an IPv6 6to4 address)'],
      ['https://[::ffff:8.8.8.8]/hooks', 'resolves to ::ffff:808:808 (an IPv6 IPv4-mapped address)'],
      ['https://[::8.8.8.8]/hooks', 'resolves to ::808:808 (an IPv6 IPv4-compatible address)'],
      [
        'https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/hooks',
        'resolves to 2001:0:4136:e378:8000:63bf:f7f7:f7f7 (an IPv6 Teredo address)',
      ],
    ];
    for (const [url, message] of cases) {
      const response = await request(apiKey, 'POST', WEBHOOKS, { url, events: ['*'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().details, url).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
    }
  });

  it('a host name that resolves to one at send time is refused then, without a request', async () => {
    const forms: [string, string][] = [
      ['::7f00:1', '127.0.0.1'],
      ['2002:a9fe:a9fe::', '169.254.169.254'],
      ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1'],
    ];
    const { apiKey } = await ctx.createAccount();
    const endpoints: { id: string; host: string }[] = [];
    for (const [i] of forms.entries()) {
      const host = `hooks-${i}.rebinding.example.in`;
      // Public at registration, so it is accepted.
      answers.set(host, PUBLIC);
      const response = await request(apiKey, 'POST', WEBHOOKS, {
        url: `https://${host}/dakiya`,
        events: ['shipment.created'],
      });
      expect(response.statusCode, response.body).toBe(201);
      endpoints.push({ id: response.json().data.id, host });
    }
    for (const [i, [address]] of forms.entries()) answers.set(endpoints[i]!.host, address);
    await book(ctx, apiKey, await createCityWarehouse(ctx, apiKey));
    for (const [i, [address, carried]] of forms.entries()) {
      const { id, host } = endpoints[i]!;
      const listed = async () => (await request(apiKey, 'GET', `${WEBHOOKS}/${id}/deliveries`)).json().data;
      await until(async () => (await listed())[0]?.status === 'failed', `the refused delivery to ${host}`);
      const [delivery] = await listed();
      expect(delivery.attempt_count).toBe(2);
      for (const attempt of delivery.attempts) {
        expect(attempt).toMatchObject({
          status_code: null,
          duration_ms: 0,
          error: `refused: url host ${host} resolves to ${address} (which carries ${carried}), ${REFUSED}`,
        });
      }
    }
  });
});

describe('a local receiver and a host without DNS yet', { timeout: 60_000 }, () => {
  it('refuses http:// naming WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE, and a private address naming WEBHOOK_ALLOW_PRIVATE', async () => {
    const { apiKey } = await ctx.createAccount();
    const http = await request(apiKey, 'POST', WEBHOOKS, { url: 'http://127.0.0.1:4000/hooks', events: ['*'] });
    expect(http.statusCode).toBe(400);
    expect(http.json().details).toEqual([
      {
        field: 'url',
        message:
          'url must start with https:// (a receiver on your own machine or network: start the server with WEBHOOK_ALLOW_HTTP=true, ' +
          'and WEBHOOK_ALLOW_PRIVATE=true for a loopback or private address)',
      },
    ]);
    const loopback = await request(apiKey, 'POST', WEBHOOKS, { url: 'https://127.0.0.1:4000/hooks', events: ['*'] });
    expect(loopback.json().details).toEqual([
      { field: 'url', message: `url host 127.0.0.1 resolves to 127.0.0.1, ${REFUSED}` },
    ]);
  });

  it('registers a host that does not resolve yet with a warning; once it resolves to a private address, answers and sends refuse it', async () => {
    const { apiKey } = await ctx.createAccount();
    const host = 'hooks.dns-later.example.in';
    const created = await request(apiKey, 'POST', WEBHOOKS, {
      url: `https://${host}/dakiya`,
      events: ['shipment.created'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json().data;
    expect(created.json().data).toMatchObject({
      status: 'enabled',
      refused_reason: null,
      warnings: [
        {
          field: 'url',
          message: `url host ${host} does not resolve (yet): the endpoint is saved, and each delivery fails until it resolves to a public address`,
        },
      ],
    });
    const read = (await request(apiKey, 'GET', `${WEBHOOKS}/${id}`)).json().data;
    expect([read.refused_reason, read.warnings]).toEqual([null, undefined]);
    // The documented update example then finds it.
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `${WEBHOOKS}/${id}`,
      headers: authed(apiKey),
      payload: { events: ['*'] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ events: ['*'], refused_reason: null });
    expect(updated.json().data.warnings).toBeUndefined();

    // Sent while it still does not resolve: the attempt fails saying so (not "refused").
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    await book(ctx, apiKey, warehouseId);
    const listed = async () => (await request(apiKey, 'GET', `${WEBHOOKS}/${id}/deliveries`)).json().data;
    type Listed = { status: string; attempts: { status_code: number | null; duration_ms: number; error: string }[] }[];
    const settled = async (count: number) => {
      const deliveries: Listed = await listed();
      return deliveries.length === count && deliveries.every((d) => d.status === 'failed');
    };
    // shipment.created and shipment.booked, each tried twice.
    await until(() => settled(2), 'the unresolved deliveries');
    const unresolved = { status_code: null, duration_ms: 0, error: `url host ${host} does not resolve` };
    expect(((await listed()) as Listed).flatMap((d) => d.attempts)).toEqual(
      Array(4).fill(expect.objectContaining(unresolved)),
    );

    // Its DNS now points at the metadata service: the answers say so, and the next send is refused without a request.
    answers.set(host, '169.254.169.254');
    const refusal = `url host ${host} resolves to 169.254.169.254, ${REFUSED}`;
    expect((await request(apiKey, 'GET', `${WEBHOOKS}/${id}`)).json().data.refused_reason).toBe(refusal);
    expect(
      (await request(apiKey, 'GET', WEBHOOKS)).json().data.map((e: { refused_reason: string }) => e.refused_reason),
    ).toEqual([refusal]);
    await book(ctx, apiKey, warehouseId);
    await until(() => settled(4), 'the refused deliveries');
    const refused = { status_code: null, duration_ms: 0, error: `refused: ${refusal}` };
    expect(((await listed()) as Listed).slice(0, 2).flatMap((d) => d.attempts)).toEqual(
      Array(4).fill(expect.objectContaining(refused)),
    );
    // And a registration or a change of url to it is refused outright.
    const again = await request(apiKey, 'POST', WEBHOOKS, { url: `https://${host}/other`, events: ['*'] });
    expect([again.statusCode, again.json().details]).toEqual([400, [{ field: 'url', message: refusal }]]);
    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `${WEBHOOKS}/${id}`,
      headers: authed(apiKey),
      payload: { url: `https://${host}/moved` },
    });
    expect([moved.statusCode, moved.json().details]).toEqual([400, [{ field: 'url', message: refusal }]]);
    // A change to another host without DNS yet is saved with the warning.
    const later = await ctx.app.inject({
      method: 'PUT',
      url: `${WEBHOOKS}/${id}`,
      headers: authed(apiKey),
      payload: { url: 'https://hooks.not-yet.example.in/x' },
    });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().data).toMatchObject({
      url: 'https://hooks.not-yet.example.in/x',
      refused_reason: null,
      warnings: [{ field: 'url', message: expect.stringContaining('does not resolve (yet)') }],
    });
  });

  it('flags an endpoint registered under laxer settings: one warning at start-up, and refused_reason in its answers', async () => {
    const lax = await createTestApp({
      database: ctx.database,
      settings: { outbound: { allowHttp: true, allowPrivate: true } },
      lookup,
    });
    const { apiKey } = await ctx.createAccount();
    const url = 'http://127.0.0.1:4000/hooks?token=s3cret';
    const registered = await lax.app.inject({
      method: 'POST',
      url: WEBHOOKS,
      headers: authed(apiKey),
      payload: { url, events: ['*'] },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { id } = registered.json().data;
    expect(registered.json().data.refused_reason).toBe(null);
    await lax.app.close();

    // The server started again without WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE.
    const lines: string[] = [];
    const strict = await createTestApp({
      database: ctx.database,
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
      lookup,
    });
    try {
      await strict.app.ready();
      const reason =
        'url must start with https:// (a receiver on your own machine or network: start the server with WEBHOOK_ALLOW_HTTP=true, ' +
        'and WEBHOOK_ALLOW_PRIVATE=true for a loopback or private address)';
      const flagged = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.webhook_endpoint === id);
      await until(() => flagged().length > 0, 'the start-up warning');
      // The URL's query may carry a capability: its value is not logged.
      const shown = 'http://127.0.0.1:4000/hooks?token=[redacted]';
      expect(flagged()).toEqual([
        expect.objectContaining({
          level: 40,
          url: shown,
          reason,
          msg: `webhook endpoint ${id} (${shown}) is refused by this server's settings and every delivery to it fails: ${reason}`,
        }),
      ]);
      const read = await strict.app.inject({ method: 'GET', url: `${WEBHOOKS}/${id}`, headers: authed(apiKey) });
      expect(read.json().data).toMatchObject({ status: 'enabled', refused_reason: reason });
    } finally {
      await strict.app.close();
    }
  });
});
