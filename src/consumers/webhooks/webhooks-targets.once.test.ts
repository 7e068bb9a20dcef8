import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';

// URL safety decides nothing the database engine does: these run once, on PGlite.

const WEBHOOKS = '/custom/api/v1/webhooks';
const PUBLIC = '13.235.1.1';
const REFUSED = 'a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=true to allow)';

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
    webhooks: { worker: true, allowHttp: false, allowPrivate: false, lookup, retryDelaysSeconds: [0.05], pollIntervalMs: 100 },
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
      ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'resolves to 64:ff9b::a9fe:a9fe (which carries 169.254.169.254)'],
      ['https://[64:ff9b:1::a00:1]/hooks', 'resolves to 64:ff9b:1::a00:1 (which carries 10.0.0.1)'],
      ['https://[64:ff9b:1::808:808]/hooks', 'resolves to 64:ff9b:1::808:808, a loopback'],
      ['https://[2001:0:7f00:1::f7f7:f7f7]/hooks', 'resolves to 2001:0:7f00:1::f7f7:f7f7 (which carries 127.0.0.1)'],
      ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hooks', 'resolves to 2001:0:4136:e378:8000:63bf:80ff:fffe (which carries 127.0.0.1)'],
      ['https://[::ffff:0:a9fe:a9fe]/hooks', 'resolves to ::ffff:0:a9fe:a9fe (which carries 169.254.169.254)'],
    ];
    for (const [url, message] of cases) {
      const response = await request(apiKey, 'POST', WEBHOOKS, { url, events: ['*'] });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().details, url).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
    }
    expect((await request(apiKey, 'GET', WEBHOOKS)).json()).toEqual({ data: [] });
  });

  it('accepts the NAT64 and 6to4 forms of a public address', async () => {
    const { apiKey } = await ctx.createAccount();
    for (const url of ['https://[64:ff9b::808:808]/hooks', 'https://[2002:808:808::1]/hooks']) {
      const response = await request(apiKey, 'POST', WEBHOOKS, { url, events: ['*'] });
      expect(response.statusCode, url).toBe(201);
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
      const response = await request(apiKey, 'POST', WEBHOOKS, { url: `https://${host}/dakiya`, events: ['shipment.created'] });
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
        expect(attempt).toMatchObject({ status_code: null, duration_ms: 0, error: `refused: url host ${host} resolves to ${address} (which carries ${carried}), ${REFUSED}` });
      }
    }
  });
});
