import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../base/db/client.js';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../../../test/msg91-simulator.js';
import { until } from '../../../test/webhook-receiver.js';
import { eventsSettled } from '../../../test/databases.js';
import {
  startWhatsAppSimulator,
  WA_APP_SECRET,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
  type WhatsAppSimulator,
} from '../../../test/whatsapp-simulator.js';

// A buyer's return request told on WhatsApp and SMS (docs/returns.md, "The buyer is told"): the
// request received, approved or declined, each once, on the first channel with a return template,
// through the providers' own send shapes (test/whatsapp-simulator.ts, test/msg91-simulator.ts cite
// them).

let wa: WhatsAppSimulator;
let sms: Awaited<ReturnType<typeof startMsg91Simulator>>;
let ctx: TestContext;

beforeAll(async () => {
  wa = await startWhatsAppSimulator();
  sms = await startMsg91Simulator();
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 50 },
      messaging: { whatsappBaseUrl: wa.baseUrl, smsBaseUrl: sms.baseUrl, retryDelaysSeconds: [0.05], timeoutMs: 5000 },
    },
    delivery: ['messaging'],
  });
  // As registered with Meta: the body's three variables, and a URL button to the request.
  wa.registerTemplate('return_update_en', [{ type: 'url', url: `${PUBLIC_BASE_URL}/t/{{1}}` }]);
});
afterAll(async () => {
  await ctx.close();
  await wa.close();
  await sms.close();
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

async function ok(response: Promise<{ statusCode: number; body: string }>) {
  const r = await response;
  expect(r.statusCode, r.body).toBe(200);
}

/** A merchant whose store takes requests, with `channel` set up as given, and an order delivered to 9123456780. */
async function shop(channel: 'whatsapp' | 'sms' | null, brand: string, language = 'en') {
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const m = await merchant(ctx);
  const store = await createStore(ctx, m.apiKey, { store_name: `told-${m.id.slice(0, 8)}`, brand_name: brand });
  await ok(
    ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}/return-policy`,
      headers: authed(m.apiKey),
      payload: { window_days: 7, reasons: ['size_issue'], non_returnable_skus: [], non_returnable_categories: [] },
    }),
  );
  const put = (path: string, payload: object) =>
    ok(ctx.app.inject({ method: 'PUT', url: `${V1}/messaging/${path}`, headers: authed(m.apiKey), payload }));
  if (channel === 'whatsapp')
    await put('channels/whatsapp', {
      enabled: true,
      phone_number_id: WA_PHONE_NUMBER_ID,
      access_token: WA_TOKEN,
      app_secret: WA_APP_SECRET,
      return_template: { en: 'return_update_en' },
    });
  if (channel === 'sms')
    await put('channels/sms', {
      enabled: true,
      sender: 'KRTKRT',
      auth_key: MSG91_AUTH_KEY,
      return_template: { hi: '1107168000000000021' },
    });
  await put('confirmation-policy', { mode: 'off', language });
  const forward = await deliveredForward(ctx, m, {
    storeName: store.store_name,
    items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499 }],
    orderId: `TOLD-${m.id.slice(0, 8)}`,
  });
  return { m, forward, token: new URL(forward.track_url!).pathname.slice('/t/'.length) };
}

const ask = async (m: Merchant, shipmentId: string, language: string) => {
  const asked = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests`,
    headers: authed(m.apiKey),
    payload: {
      shipment_id: shipmentId,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'size_issue',
      resolution: 'exchange',
      language,
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  return asked.json().data as { id: string };
};

/** The account's events buyer messaging has not read yet. */
const unread = async (accountId: string) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from events e
          left join event_consumers c on c.name = 'buyer-messaging'
          where e.account_id = ${accountId}
            and (c.name is null or (e.txid, e.position) > (c.after_txid, c.after_position))`,
    )
  )[0]!.n;

/** The buyer messages of a shipment, oldest first. */
const messagesOf = (shipmentId: string) =>
  queryRows<{ purpose: string; channel: string; status: string; update: string }>(
    ctx.database.db,
    sql`select purpose, channel, status, variables->>'request_update' as update from buyer_messages
        where shipment_id = ${shipmentId} order by created_at, variables->>'request_update' desc`,
  );

const decide = (m: Merchant, id: string, decision: 'approve' | 'reject') =>
  ok(
    ctx.app.inject({
      method: 'POST',
      url: `${V1}/return-requests/${id}/${decision}`,
      headers: authed(m.apiKey),
      ...(decision === 'reject' && { payload: { message: 'Worn items cannot be returned.' } }),
    }),
  );

describe("a return request's news on WhatsApp and SMS", () => {
  it('tells the buyer on WhatsApp that the request was received, then approved, with a button to it', async () => {
    const { m, forward, token } = await shop('whatsapp', 'Kurta Kart');
    const before = wa.sends.length;
    const request = await ask(m, forward.shipment_id, 'en');
    await until(() => wa.sends.length >= before + 1, 'the first WhatsApp message');
    await decide(m, request.id, 'approve');
    await until(() => wa.sends.length >= before + 2, 'the second WhatsApp message');
    const [received, approved] = wa.sends.slice(before);
    expect(received!.body.to).toBe('919123456780');
    expect(received!.body.template).toEqual({
      name: 'return_update_en',
      language: { code: 'en' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Kurta Kart' },
            { type: 'text', text: `TOLD-${m.id.slice(0, 8)}` },
            { type: 'text', text: 'received' },
          ],
        },
        {
          type: 'button',
          sub_type: 'url',
          index: '0',
          parameters: [{ type: 'text', text: `${token}/return?lang=en` }],
        },
      ],
    });
    expect(received!.buttonUrls).toEqual({ '0': `${PUBLIC_BASE_URL}/t/${token}/return?lang=en` });
    expect(approved!.body.template.components[0]!.parameters[2]).toEqual({ type: 'text', text: 'approved' });
    // Each update once, kept as every buyer message is.
    await until(async () => (await messagesOf(forward.shipment_id)).every((x) => x.status === 'sent'), 'sent');
    expect(await messagesOf(forward.shipment_id)).toEqual([
      { purpose: 'return_update', channel: 'whatsapp', status: 'sent', update: 'requested' },
      { purpose: 'return_update', channel: 'whatsapp', status: 'sent', update: 'approved' },
    ]);
  });

  it("by SMS in the account's Hindi when the templates do not speak the buyer's language, and declined", async () => {
    const { m, forward, token } = await shop('sms', 'Chai Co', 'hi');
    const before = sms.sends.length;
    const request = await ask(m, forward.shipment_id, 'mr');
    await until(() => sms.sends.length >= before + 1, 'the first SMS');
    await decide(m, request.id, 'reject');
    await until(() => sms.sends.length >= before + 2, 'the second SMS');
    const [received, declined] = sms.sends.slice(before);
    expect(received!.body).toMatchObject({ template_id: '1107168000000000021', sender: 'KRTKRT', unicode: 1 });
    expect(received!.body.recipients).toEqual([
      {
        mobiles: '919123456780',
        brand: 'Chai Co',
        order_id: `TOLD-${m.id.slice(0, 8)}`,
        update: 'मिल गया है',
        return_url: `${PUBLIC_BASE_URL}/t/${token}/return?lang=mr`,
      },
    ]);
    expect(declined!.body.recipients![0]).toMatchObject({ update: 'अस्वीकार कर दिया गया है' });
  });

  it("falls back to the account's language when the channel has no template in the buyer's", async () => {
    const { m, forward } = await shop('whatsapp', 'Kurta Kart');
    const before = wa.sends.length;
    await ask(m, forward.shipment_id, 'hi');
    await until(() => wa.sends.length >= before + 1, 'the WhatsApp message');
    const { template } = wa.sends.at(-1)!.body;
    expect([template.name, template.language.code, template.components[0]!.parameters[2]!.text]).toEqual([
      'return_update_en',
      'en',
      'received',
    ]);
  });

  it('sends nothing where no channel has a return template', async () => {
    const { m, forward } = await shop(null, 'Dhoop Store');
    const [waBefore, smsBefore] = [wa.sends.length, sms.sends.length];
    const request = await ask(m, forward.shipment_id, 'en');
    await decide(m, request.id, 'approve');
    // The messaging consumer has read every event of the account before anything is looked at.
    await eventsSettled(ctx.database);
    await until(async () => (await unread(m.id)) === 0, 'the messaging consumer to read the events');
    // A WhatsApp channel with only a confirmation template, set after: still nothing for returns.
    await ok(
      ctx.app.inject({
        method: 'PUT',
        url: `${V1}/messaging/channels/whatsapp`,
        headers: authed(m.apiKey),
        payload: {
          enabled: true,
          phone_number_id: WA_PHONE_NUMBER_ID,
          access_token: WA_TOKEN,
          confirmation_template: { en: 'cod_confirm_en' },
        },
      }),
    );
    expect(await messagesOf(forward.shipment_id)).toEqual([]);
    expect([wa.sends.length, sms.sends.length]).toEqual([waBefore, smsBefore]);
  });
});
