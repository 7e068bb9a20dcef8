import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../../../test/msg91-simulator.js';
import { until } from '../../../test/webhook-receiver.js';
import {
  startWhatsAppSimulator,
  WA_APP_SECRET,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
  type WhatsAppSimulator,
} from '../../../test/whatsapp-simulator.js';
import { loadSettings } from '../../settings.js';

// The providers' hosts (docs/rto.md: Buyer messaging): WHATSAPP_BASE_URL / SMS_BASE_URL for the
// whole server, read once into the config the app is built with (as src/main.ts builds it), and
// an account's own base_url over them. Each host here is a local simulator of the provider.

type Msg91Simulator = Awaited<ReturnType<typeof startMsg91Simulator>>;
let serverWa: WhatsAppSimulator;
let accountWa: WhatsAppSimulator;
let serverSms: Msg91Simulator;
let accountSms: Msg91Simulator;
let ctx: TestContext;

const put = (apiKey: string, url: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload });
const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
  const r = await response;
  expect(r.statusCode, r.body).toBe(200);
  return r;
};
const WHATSAPP = {
  enabled: true,
  phone_number_id: WA_PHONE_NUMBER_ID,
  access_token: WA_TOKEN,
  app_secret: WA_APP_SECRET,
  confirmation_template: { en: 'cod_confirm_en' },
};
const SMS = {
  enabled: true,
  sender: 'KRTKRT',
  auth_key: MSG91_AUTH_KEY,
  confirmation_template: { en: '1107168000000000001' },
};

/** An account whose COD orders are asked on `channel` (configured by `settings`). */
async function accountOn(channel: 'whatsapp' | 'sms', settings: object) {
  const { apiKey } = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, apiKey);
  await ok(put(apiKey, `${V1}/messaging/channels/${channel}`, settings));
  await ok(
    put(apiKey, `${V1}/messaging/confirmation-policy`, { mode: 'all_cod', channels: [channel], language: 'en' }),
  );
  return { apiKey, warehouseId };
}
/** Books a COD order and waits until its confirmation message is recorded as sent. */
async function confirmationSent(account: { apiKey: string; warehouseId: string }): Promise<Booked> {
  const booked = await book(ctx, account.apiKey, account.warehouseId, { cod: true, value: 1499 });
  await until(async () => {
    const data = (
      await ctx.app.inject({
        method: 'GET',
        url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
        headers: authed(account.apiKey),
      })
    ).json().data;
    return data.messages[0]?.status === 'sent';
  }, 'the confirmation to be sent');
  return booked;
}
const waOrders = (sim: WhatsAppSimulator) => sim.sends.map((s) => s.body.template!.components[0]!.parameters[1]!.text);
const smsOrders = (sim: Msg91Simulator) => sim.sends.map((s) => s.body.recipients![0]!.order_id);

beforeAll(async () => {
  [serverWa, accountWa, serverSms, accountSms] = await Promise.all([
    startWhatsAppSimulator(),
    startWhatsAppSimulator(),
    startMsg91Simulator(),
    startMsg91Simulator(),
  ]);
  // A trailing slash, as an operator may write it, is dropped. The accounts' own hosts here are
  // local simulators too: an account's base_url goes through the outbound guard, so the operator
  // allows plain http and private targets, as on their own network (base-url-guard.once.test.ts shows
  // the same URLs refused without them).
  const config = loadSettings({
    WHATSAPP_BASE_URL: `${serverWa.baseUrl}/`,
    SMS_BASE_URL: serverSms.baseUrl,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  }).settings;
  expect(config.messaging).toMatchObject({ whatsappBaseUrl: serverWa.baseUrl, smsBaseUrl: serverSms.baseUrl });
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 50 },
      outbound: config.outbound,
      messaging: {
        whatsappBaseUrl: config.messaging.whatsappBaseUrl,
        smsBaseUrl: config.messaging.smsBaseUrl,
        retryDelaysSeconds: [0.05],
        timeoutMs: 5000,
      },
    },
    delivery: ['messaging'],
  });
});
afterAll(async () => {
  await ctx.close();
  await Promise.all([serverWa.close(), accountWa.close(), serverSms.close(), accountSms.close()]);
});

describe("the providers' base URL", () => {
  it("WhatsApp: the server's WHATSAPP_BASE_URL, unless the account names its own base_url; null returns to the server's", async () => {
    const onServer = await accountOn('whatsapp', WHATSAPP);
    const own = await accountOn('whatsapp', { ...WHATSAPP, base_url: accountWa.baseUrl });
    const first = await confirmationSent(onServer);
    const second = await confirmationSent(own);
    expect(waOrders(serverWa)).toEqual([first.channel_order_id]);
    expect(waOrders(accountWa)).toEqual([second.channel_order_id]);
    expect(serverWa.sends[0]).toMatchObject({
      version: 'v21.0',
      phoneNumberId: WA_PHONE_NUMBER_ID,
      authorization: `Bearer ${WA_TOKEN}`,
    });
    const [channel] = (
      await ctx.app.inject({ method: 'GET', url: `${V1}/messaging/channels`, headers: authed(own.apiKey) })
    ).json().data;
    expect(channel).toMatchObject({ channel: 'whatsapp', settings: { base_url: accountWa.baseUrl } });
    await ok(put(own.apiKey, `${V1}/messaging/channels/whatsapp`, { enabled: true, base_url: null }));
    const third = await confirmationSent(own);
    expect(waOrders(serverWa)).toEqual([first.channel_order_id, third.channel_order_id]);
    expect(waOrders(accountWa)).toEqual([second.channel_order_id]);
  });

  it("SMS: the server's SMS_BASE_URL, unless the account names its own base_url", async () => {
    const onServer = await accountOn('sms', SMS);
    const own = await accountOn('sms', { ...SMS, base_url: `${accountSms.baseUrl}` });
    const first = await confirmationSent(onServer);
    const second = await confirmationSent(own);
    expect(smsOrders(serverSms)).toEqual([first.channel_order_id]);
    expect(smsOrders(accountSms)).toEqual([second.channel_order_id]);
    expect(accountSms.sends[0]).toMatchObject({
      authkey: MSG91_AUTH_KEY,
      body: { template_id: '1107168000000000001', sender: 'KRTKRT' },
    });
  });
});
