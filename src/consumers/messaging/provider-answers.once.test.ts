import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';
import { WA_PHONE_NUMBER_ID, WA_TOKEN } from '../../../test/whatsapp-simulator.js';

// What an account's own provider host may answer, once the guard let it through: a redirect to an
// internal address is never followed, and of a refusal only the provider's documented error
// message is kept, cut short and without hidden characters: never the body. The host names look
// public and resolve (through the test's resolver) to receivers on 127.0.0.1, so the operator
// allows private targets here, as on their own network; base-url-guard.once.test.ts covers the rest.

const INTERNAL_PAGE =
  '<html><title>Admin</title>\r\n\u001b[2J<pre>root:x:0:0 AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG</pre>\u202e\u200b' +
  'internal '.repeat(300);

let internal: Server;
const internalHits: string[] = [];
let provider: Server;
/** How the provider answers the next send, by the account's phone number id. */
const behaviour = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>();
const answers = new Map<string, string>();
const lookup = async (host: string) => {
  const address = answers.get(host);
  if (!address) throw new Error(`ENOTFOUND ${host}`);
  return [{ address, family: 4 }];
};
let ctx: TestContext;

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const portOf = (server: Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  internal = createServer((request, response) => {
    internalHits.push(request.url ?? '');
    response.end(INTERNAL_PAGE);
  });
  provider = createServer((request, response) => {
    request.resume();
    const id = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(request.url ?? '')?.[1] ?? 'sms';
    (behaviour.get(id) ?? ((_q, r) => r.writeHead(404).end()))(request, response);
  });
  await Promise.all([listen(internal), listen(provider)]);
  answers.set('graph.partner.example.in', '127.0.0.1');
  answers.set('sms.partner.example.in', '127.0.0.1');
  ctx = await createTestApp({
    lookup,
    settings: {
      outbound: { allowHttp: true, allowPrivate: true },
      workers: { pollIntervalMs: 50 },
      messaging: { retryDelaysSeconds: [0.05], timeoutMs: 5000 },
    },
    delivery: ['messaging'],
  });
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([new Promise((r) => internal.close(r)), new Promise((r) => provider.close(r))]);
});

/** An account asking its COD buyers on `channel`, through its own host; answers its booked shipment's messages once settled. */
async function messagesOf(channel: 'whatsapp' | 'sms', settings: object) {
  const { apiKey } = await ctx.createAccount();
  const saved = await ctx.app.inject({
    method: 'PUT',
    url: `${V1}/messaging/channels/${channel}`,
    headers: authed(apiKey),
    payload: settings,
  });
  expect(saved.statusCode, saved.body).toBe(200);
  await ctx.app.inject({
    method: 'PUT',
    url: `${V1}/messaging/confirmation-policy`,
    headers: authed(apiKey),
    payload: { mode: 'all_cod', channels: [channel], language: 'en' },
  });
  const booked = await book(ctx, apiKey, await createCityWarehouse(ctx, apiKey), { cod: true, value: 1499 });
  const read = async () =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
        headers: authed(apiKey),
      })
    ).json().data.messages;
  await until(async () => (await read())[0]?.status === 'failed', 'the failed message');
  return read();
}

const whatsapp = (phoneNumberId: string) => ({
  enabled: true,
  phone_number_id: phoneNumberId,
  access_token: WA_TOKEN,
  base_url: `http://graph.partner.example.in:${portOf(provider)}`,
  confirmation_template: { en: 'cod_confirm_en' },
});

describe("an account's own provider host", { timeout: 60_000 }, () => {
  it('answering a redirect to an internal address: a failed send, the redirect never followed', async () => {
    const phoneNumberId = `${WA_PHONE_NUMBER_ID}1`;
    behaviour.set(phoneNumberId, (_request, response) =>
      response.writeHead(307, { location: `http://127.0.0.1:${portOf(internal)}/latest/meta-data` }).end(),
    );
    expect(await messagesOf('whatsapp', whatsapp(phoneNumberId))).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 1,
        last_error: 'WhatsApp answered HTTP 307, a redirect: redirects are not followed',
      }),
    ]);
    expect(internalHits).toEqual([]);
  });

  it("answering a refusal whose message is a page's text: a short excerpt, without control or hidden characters", async () => {
    const phoneNumberId = `${WA_PHONE_NUMBER_ID}2`;
    behaviour.set(phoneNumberId, (_request, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: INTERNAL_PAGE, type: 'OAuthException', code: 100 } })),
    );
    const [message] = await messagesOf('whatsapp', whatsapp(phoneNumberId));
    const excerpt =
      '<html><title>Admin</title> [2J<pre>root:x:0:0 AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG</pre> internal internal inter…';
    expect(message).toMatchObject({ status: 'failed', last_error: `WhatsApp refused (400, code 100): ${excerpt}` });
    expect([...excerpt].length).toBe(120);
  });

  it('answering a success without a message id: retried, then failed, saying so', async () => {
    const phoneNumberId = `${WA_PHONE_NUMBER_ID}3`;
    behaviour.set(phoneNumberId, (_request, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ messaging_product: 'whatsapp', messages: [] })),
    );
    expect(await messagesOf('whatsapp', whatsapp(phoneNumberId))).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 2,
        last_error: 'WhatsApp answered 200 without a message id',
      }),
    ]);
  });

  it('answering a rate-limit code in a 400: retried as a 429 is; a refusal without its JSON: the status alone, final', async () => {
    const limited = `${WA_PHONE_NUMBER_ID}4`;
    behaviour.set(limited, (_request, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429 } })),
    );
    expect(await messagesOf('whatsapp', whatsapp(limited))).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 2,
        last_error: 'WhatsApp refused (400, code 130429): (#130429) Rate limit hit',
      }),
    ]);
    const bare = `${WA_PHONE_NUMBER_ID}5`;
    behaviour.set(bare, (_request, response) => response.writeHead(403, { 'content-type': 'text/plain' }).end('no'));
    expect(await messagesOf('whatsapp', whatsapp(bare))).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'WhatsApp refused (403): HTTP 403' }),
    ]);
  });

  it('answering anything but its documented JSON: the status alone, the body never kept', async () => {
    behaviour.set('sms', (_request, response) =>
      response.writeHead(500, { 'content-type': 'text/html' }).end(INTERNAL_PAGE),
    );
    const messages = await messagesOf('sms', {
      enabled: true,
      sender: 'KRTKRT',
      auth_key: '412345AbCdEf',
      base_url: `http://sms.partner.example.in:${portOf(provider)}`,
      confirmation_template: { en: '1107168000000000001' },
    });
    // A 500 is retried once (retryDelaysSeconds [0.05]), then the message fails.
    expect(messages).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 2, last_error: 'MSG91 refused (500): HTTP 500' }),
    ]);
  });
});
