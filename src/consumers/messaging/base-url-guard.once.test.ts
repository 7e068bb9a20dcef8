import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';
import { WA_PHONE_NUMBER_ID, WA_TOKEN } from '../../../test/whatsapp-simulator.js';

// Issue 46, the audit's first finding: an account's messaging base_url made the server POST, with
// the account's bearer token, to any address it named, and echoed the answer into last_error. Every
// such URL now goes through the one outbound guard (base/outbound) when it is saved and before
// every send. Host names resolve through the test's own resolver (`answers`), the DNS seam.

const CHANNELS = `${V1}/messaging/channels`;
const REFUSED =
  'a loopback, private, link-local, reserved or IPv6-transition address (set WEBHOOK_ALLOW_PRIVATE=true to allow)';
const THIS_MACHINE = 'is this machine (set WEBHOOK_ALLOW_PRIVATE=true to allow)';
const WHATSAPP = {
  enabled: true,
  phone_number_id: WA_PHONE_NUMBER_ID,
  access_token: WA_TOKEN,
  confirmation_template: { en: 'cod_confirm_en' },
};
const SMS = { enabled: true, sender: 'KRTKRT', auth_key: '412345AbCdEf', confirmation_template: { en: '1107' } };

const answers = new Map<string, string>();
const lookup = async (host: string) => {
  const address = answers.get(host);
  if (!address) throw new Error(`ENOTFOUND ${host}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

/** What a provider's host would have been asked: nothing may reach it. */
let internal: Server;
const reached: IncomingMessage[] = [];
/** The default settings: https only, no private targets. */
let strict: TestContext;
/** The operator allows plain http (WEBHOOK_ALLOW_HTTP) but not private targets: the address decides. */
let httpAllowed: TestContext;

beforeAll(async () => {
  internal = createServer((request, response) => {
    reached.push(request);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"messages":[{"id":"wamid.x"}]}');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  strict = await createTestApp({ lookup });
  httpAllowed = await createTestApp({
    database: strict.database,
    lookup,
    settings: {
      outbound: { allowHttp: true, allowPrivate: false },
      workers: { pollIntervalMs: 50 },
      messaging: { retryDelaysSeconds: [0.05], timeoutMs: 5000 },
    },
    delivery: ['messaging'],
  });
});
afterAll(async () => {
  await httpAllowed.app.close();
  await strict.close();
  await new Promise((resolve) => internal.close(resolve));
});

const put = (ctx: TestContext, apiKey: string, channel: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: `${CHANNELS}/${channel}`, headers: authed(apiKey), payload });
const channels = async (ctx: TestContext, apiKey: string) =>
  (await ctx.app.inject({ method: 'GET', url: CHANNELS, headers: authed(apiKey) })).json().data;

/** The audit's seven targets, as it sent them, and the tricky spellings of the same places. */
const AUDIT: [string, string][] = [
  ['http://127.0.0.1:4231/internal/admin?q=', `base_url host 127.0.0.1 resolves to 127.0.0.1, ${REFUSED}`],
  ['http://169.254.169.254/latest/meta-data', `base_url host 169.254.169.254 resolves to 169.254.169.254, ${REFUSED}`],
  ['http://[::1]', `base_url host ::1 resolves to ::1, ${REFUSED}`],
  ['http://[::1]:4231/internal', `base_url host ::1 resolves to ::1, ${REFUSED}`],
  ['http://10.0.0.1', `base_url host 10.0.0.1 resolves to 10.0.0.1, ${REFUSED}`],
  ['http://localhost', `base_url host localhost ${THIS_MACHINE}`],
  ['http://localhost:4231/internal/admin', `base_url host localhost ${THIS_MACHINE}`],
];
const TRICKY: [string, string][] = [
  ['http://2130706433:4231/', 'base_url host 2130706433 must be a name or an IPv4 address as four decimal numbers'],
  ['http://0x7f.1/', 'base_url host 0x7f.1 must be a name or an IPv4 address as four decimal numbers'],
  ['http://017700000001/', 'base_url host 017700000001 must be a name or an IPv4 address as four decimal numbers'],
  ['http://0251.0376.0251.0376/latest/meta-data', 'base_url host 0251.0376.0251.0376 must be a name'],
  ['http://127.1/', 'base_url host 127.1 must be a name or an IPv4 address as four decimal numbers'],
  ['http://admin.localhost/', `base_url host admin.localhost ${THIS_MACHINE}`],
  ['http://[::ffff:127.0.0.1]/', `base_url host ::ffff:7f00:1 resolves to ::ffff:7f00:1 (which carries 127.0.0.1)`],
  ['http://[::ffff:a9fe:a9fe]/', '(which carries 169.254.169.254)'],
  ['http://[::7f00:1]/', '(which carries 127.0.0.1)'],
  ['http://[2002:a9fe:a9fe::]/', '(which carries 169.254.169.254)'],
  ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', '(which carries 127.0.0.1)'],
  ['http://[64:ff9b::a9fe:a9fe]/latest/meta-data', '(which carries 169.254.169.254)'],
  ['http://[fd00:ec2::254]/latest/meta-data', `base_url host fd00:ec2::254 resolves to fd00:ec2::254, ${REFUSED}`],
  ['http://[fe80::1]/', `base_url host fe80::1 resolves to fe80::1, ${REFUSED}`],
  ['http://0.0.0.0:4231/', `base_url host 0.0.0.0 resolves to 0.0.0.0, ${REFUSED}`],
  ['http://[::]/', `base_url host :: resolves to ::, ${REFUSED}`],
  ['http://224.0.0.251/', `base_url host 224.0.0.251 resolves to 224.0.0.251, ${REFUSED}`],
];

describe('an account base_url is saved only when the outbound guard allows it', { timeout: 60_000 }, () => {
  it("in the default settings, refuses each of the audit's targets with a 400 naming base_url, saving nothing", async () => {
    const { apiKey } = await strict.createAccount();
    for (const channel of ['whatsapp', 'sms']) {
      for (const [url] of AUDIT) {
        const response = await put(strict, apiKey, channel, { ...(channel === 'sms' ? SMS : WHATSAPP), base_url: url });
        expect(response.statusCode, `${channel} ${url}`).toBe(400);
        expect(response.json().details, url).toEqual([
          { field: 'base_url', message: expect.stringMatching(/^base_url must start with https:\/\/ /) },
        ]);
      }
      // Their https forms are refused for the address.
      for (const [url, message] of AUDIT) {
        const https = url.replace('http://', 'https://');
        const response = await put(strict, apiKey, channel, {
          ...(channel === 'sms' ? SMS : WHATSAPP),
          base_url: https,
        });
        expect([response.statusCode, response.json().details], https).toEqual([400, [{ field: 'base_url', message }]]);
      }
    }
    expect((await channels(strict, apiKey)).map((c: { updated_at: string | null }) => c.updated_at)).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('with plain http allowed but not private targets, refuses them and every tricky spelling for the address', async () => {
    const { apiKey } = await httpAllowed.createAccount();
    for (const channel of ['whatsapp', 'sms']) {
      for (const [url, message] of [...AUDIT, ...TRICKY]) {
        const response = await put(httpAllowed, apiKey, channel, {
          ...(channel === 'sms' ? SMS : WHATSAPP),
          base_url: url,
        });
        expect(response.statusCode, `${channel} ${url}`).toBe(400);
        expect(response.json().message, url).toContain(message);
        expect(response.json().details, url).toEqual([
          { field: 'base_url', message: expect.stringContaining(message) },
        ]);
      }
    }
    // A host name that resolves to a private address, or to nothing, is refused too.
    answers.set('graph.internal.example.in', '10.20.30.40');
    const named = await put(httpAllowed, apiKey, 'whatsapp', {
      ...WHATSAPP,
      base_url: 'https://graph.internal.example.in',
    });
    expect([named.statusCode, named.json().details]).toEqual([
      400,
      [{ field: 'base_url', message: `base_url host graph.internal.example.in resolves to 10.20.30.40, ${REFUSED}` }],
    ]);
    const nowhere = await put(httpAllowed, apiKey, 'whatsapp', {
      ...WHATSAPP,
      base_url: 'https://graph.nowhere.example',
    });
    expect([nowhere.statusCode, nowhere.json().details]).toEqual([
      400,
      [{ field: 'base_url', message: 'base_url host graph.nowhere.example does not resolve' }],
    ]);
    expect((await channels(httpAllowed, apiKey))[0]).toMatchObject({ channel: 'whatsapp', updated_at: null });
    // A public host is saved.
    answers.set('graph.partner.example.in', '13.235.1.1');
    const saved = await put(httpAllowed, apiKey, 'whatsapp', {
      ...WHATSAPP,
      base_url: 'https://graph.partner.example.in',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.settings.base_url).toBe('https://graph.partner.example.in');
  });
});

describe('and judged again before every send', { timeout: 60_000 }, () => {
  it('a host that resolves to a private address at send time is refused there, without a request', async () => {
    const { apiKey } = await httpAllowed.createAccount();
    const host = 'graph.rebinding.example.in';
    const { port } = internal.address() as AddressInfo;
    // Public when saved...
    answers.set(host, '13.235.1.1');
    const saved = await put(httpAllowed, apiKey, 'whatsapp', { ...WHATSAPP, base_url: `http://${host}:${port}` });
    expect(saved.statusCode, saved.body).toBe(200);
    const policy = await httpAllowed.app.inject({
      method: 'PUT',
      url: `${V1}/messaging/confirmation-policy`,
      headers: authed(apiKey),
      payload: { mode: 'all_cod', channels: ['whatsapp'], language: 'en' },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    // ...and the loopback address, where a service listens, when the message goes out.
    answers.set(host, '127.0.0.1');
    const booked = await book(httpAllowed, apiKey, await createCityWarehouse(httpAllowed, apiKey), {
      cod: true,
      value: 1499,
    });
    const messages = async () =>
      (
        await httpAllowed.app.inject({
          method: 'GET',
          url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
          headers: authed(apiKey),
        })
      ).json().data.messages;
    await until(async () => (await messages())[0]?.status === 'failed', 'the refused message');
    expect(await messages()).toEqual([
      expect.objectContaining({
        channel: 'whatsapp',
        status: 'failed',
        attempts: 1,
        provider_message_id: null,
        last_error: `refused: base_url host ${host} resolves to 127.0.0.1, ${REFUSED}`,
        next_attempt_at: null,
      }),
    ]);
    expect(reached).toEqual([]);
  });
});
