import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { authed, HOUR, SHIPMENTS, UNKNOWN_ID, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../../../test/msg91-simulator.js';
import { type Receiver, startReceiver, until } from '../../../test/webhook-receiver.js';
import {
  buttonReplyWebhook,
  hubSignature,
  startWhatsAppSimulator,
  WA_APP_SECRET,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
  type WhatsAppSimulator,
} from '../../../test/whatsapp-simulator.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../base/db/client.js';
import { eventsSettled } from '../../../test/databases.js';

const CHANNELS = `${V1}/messaging/channels`;
const POLICY = `${V1}/messaging/confirmation-policy`;
const BUYER = '919123456780';

let wa: WhatsAppSimulator;
let hooks: Receiver;
let sms: Awaited<ReturnType<typeof startMsg91Simulator>>;
let ctx: TestContext;
let account: { id: string; apiKey: string };
let other: { id: string; apiKey: string };
let warehouseId: string;

const put = (apiKey: string, url: string, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload: payload as object });
const get = (apiKey: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });
const confirmationOf = async (apiKey: string, shipmentId: string) =>
  (await get(apiKey, `${SHIPMENTS}/${shipmentId}/confirmation`)).json().data;
const inbound = (accountId: string, body: string, signature: string | undefined) =>
  ctx.app.inject({
    method: 'POST',
    url: `/public/v1/whatsapp/${accountId}/webhook`,
    headers: {
      'content-type': 'application/json',
      ...(signature !== undefined && { 'x-hub-signature-256': signature }),
    },
    payload: body,
  });
async function eventTypes(apiKey: string, shipmentId: string) {
  await eventsSettled(ctx.database);
  return (
    (await get(apiKey, `${V1}/events?limit=100`)).json().data as {
      type: string;
      data: { shipment: { shipment_id?: string; id?: string } };
    }[]
  )
    .filter((e) => JSON.stringify(e.data).includes(shipmentId))
    .map((e) => e.type);
}
/** The shipment's events of one type, as GET /events lists them, once `count` of them are listed. */
async function eventsOfType(apiKey: string, shipmentId: string, type: string, count = 1) {
  let found: { type: string; data: Record<string, unknown> }[] = [];
  await until(async () => {
    await eventsSettled(ctx.database);
    found = ((await get(apiKey, `${V1}/events?limit=100&type[]=${type}`)).json().data as typeof found).filter(
      (e) => (e.data.shipment as { id: string }).id === shipmentId,
    );
    return found.length >= count;
  }, `${count} ${type} events`);
  return found;
}
const setPolicy = async (body: Record<string, unknown>) => {
  const response = await put(account.apiKey, POLICY, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};
/** A COD order the buyer is asked about, once its first message went out. */
async function askedOrder(sends: () => number) {
  const before = sends();
  const booked = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
  await until(() => sends() > before, 'the confirmation to go out');
  await until(
    async () =>
      (await confirmationOf(account.apiKey, booked.shipment_id))?.confirmation?.channel != null &&
      (await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]?.status !== 'pending',
    'the send to be recorded',
  );
  return booked;
}

beforeAll(async () => {
  wa = await startWhatsAppSimulator();
  sms = await startMsg91Simulator();
  hooks = await startReceiver();
  ctx = await createTestApp({
    settings: {
      webhooks: { retryDelaysSeconds: [0.05], timeoutMs: 10_000 },
      outbound: { allowHttp: true, allowPrivate: true },
      workers: { pollIntervalMs: 50 },
      messaging: {
        whatsappBaseUrl: wa.baseUrl,
        smsBaseUrl: sms.baseUrl,
        retryDelaysSeconds: [0.05, 0.05, 0.05],
        timeoutMs: 5000,
      },
    },
    delivery: ['webhooks', 'messaging'],
  });
  account = await ctx.createAccount('Kurta Kart');
  other = await ctx.createAccount('Other Store');
  warehouseId = await createCityWarehouse(ctx, account.apiKey);
  const whatsapp = await put(account.apiKey, `${CHANNELS}/whatsapp`, {
    enabled: true,
    phone_number_id: WA_PHONE_NUMBER_ID,
    access_token: WA_TOKEN,
    app_secret: WA_APP_SECRET,
    verify_token: 'kurta-kart-verify',
    confirmation_template: { en: 'cod_confirm_en', hi: 'cod_confirm_hi' },
  });
  expect(whatsapp.statusCode, whatsapp.body).toBe(200);
  const smsChannel = await put(account.apiKey, `${CHANNELS}/sms`, {
    enabled: true,
    sender: 'KRTKRT',
    auth_key: MSG91_AUTH_KEY,
    confirmation_template: { en: '1107168000000000001', hi: '1107168000000000002' },
  });
  expect(smsChannel.statusCode, smsChannel.body).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await wa.close();
  await sms.close();
  await hooks.close();
});

describe('channels', () => {
  it('answers each channel with its settings and which credentials are stored, never the credentials; they are sealed at rest', async () => {
    const response = await get(account.apiKey, CHANNELS);
    expect(response.statusCode).toBe(200);
    const [whatsapp, smsView, email] = response.json().data;
    expect(whatsapp).toEqual({
      channel: 'whatsapp',
      enabled: true,
      settings: {
        phone_number_id: WA_PHONE_NUMBER_ID,
        api_version: null,
        base_url: null,
        confirmation_template: { en: 'cod_confirm_en', hi: 'cod_confirm_hi' },
        ndr_template: null,
        address_template: null,
        return_template: null,
      },
      credentials_set: ['access_token', 'app_secret', 'verify_token'],
      inbound_webhook_url: `${PUBLIC_BASE_URL}/public/v1/whatsapp/${account.id}/webhook`,
      updated_at: '2026-11-20T06:30:00.000Z',
    });
    expect(smsView).toMatchObject({
      channel: 'sms',
      enabled: true,
      credentials_set: ['auth_key'],
      settings: { sender: 'KRTKRT', base_url: null },
    });
    expect(email).toEqual({
      channel: 'email',
      enabled: false,
      settings: {},
      credentials_set: [],
      inbound_webhook_url: null,
      updated_at: null,
    });
    expect(response.body).not.toContain(WA_TOKEN);
  });

  it("keeps credentials sealed in the database: the token's text is nowhere in the row", async () => {
    const [row] = await queryRows<{ sealed_secret: string }>(
      ctx.database.db,
      sql`select sealed_secret from messaging_channels where channel = 'whatsapp' and account_id = ${account.id}`,
    );
    expect(row!.sealed_secret).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row!.sealed_secret).not.toContain(WA_TOKEN);
    expect(row!.sealed_secret).not.toContain(WA_APP_SECRET);
  });

  it('refuses a field of another channel (400 naming it) and enabling a channel without what it needs (422 naming it)', async () => {
    const foreign = await put(account.apiKey, `${CHANNELS}/sms`, { enabled: true, phone_number_id: '1' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details).toEqual([
      { field: 'phone_number_id', message: 'phone_number_id is not a setting of the sms channel' },
    ]);
    const bare = await put(other.apiKey, `${CHANNELS}/whatsapp`, { enabled: true });
    expect(bare.statusCode).toBe(422);
    expect(bare.json().details).toEqual([
      { field: 'phone_number_id', message: 'phone_number_id is needed to enable the whatsapp channel' },
      { field: 'access_token', message: 'access_token is needed to enable the whatsapp channel' },
    ]);
    const email = await put(other.apiKey, `${CHANNELS}/email`, { enabled: true });
    expect(email.statusCode).toBe(422);
    expect(email.json().errors).toEqual(['SMTP_URL and MAIL_FROM on the server is needed to enable the email channel']);
    const badPolicy = await put(account.apiKey, POLICY, { mode: 'sometimes', window_minutes: 1 });
    expect(badPolicy.statusCode).toBe(400);
    expect(
      badPolicy
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['mode', 'window_minutes']);
  });

  it("answers Meta's verification with the challenge for the account's verify token, 403 otherwise", async () => {
    const url = `/public/v1/whatsapp/${account.id}/webhook?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=`;
    const good = await ctx.app.inject({ method: 'GET', url: `${url}kurta-kart-verify` });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('1158201444');
    expect((await ctx.app.inject({ method: 'GET', url: `${url}guess` })).statusCode).toBe(403);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: `/public/v1/whatsapp/${other.id}/webhook?hub.mode=subscribe&hub.challenge=1&hub.verify_token=kurta-kart-verify`,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('order confirmation on WhatsApp', () => {
  it('asks the buyer of a COD order with a template in the policy language, buttons naming the shipment; a prepaid order is not asked', async () => {
    expect(
      await setPolicy({
        mode: 'all_cod',
        channels: ['whatsapp', 'sms'],
        language: 'hi',
        window_minutes: 60,
        hold_unconfirmed: true,
      }),
    ).toEqual({
      mode: 'all_cod',
      min_value: 0,
      risk_levels: ['medium', 'high'],
      channels: ['whatsapp', 'sms'],
      language: 'hi',
      window_minutes: 60,
      hold_unconfirmed: true,
      payment_link_template: null,
      address_update_for: [],
    });
    const prepaid = await book(ctx, account.apiKey, warehouseId, { cod: false });
    const booked = await askedOrder(() => wa.sends.length);
    const send = wa.sends.at(-1)!;
    expect(send.authorization).toBe(`Bearer ${WA_TOKEN}`);
    expect(send.version).toBe('v21.0');
    expect(send.phoneNumberId).toBe(WA_PHONE_NUMBER_ID);
    expect(send.body.to).toBe(BUYER);
    expect(send.body.template.name).toBe('cod_confirm_hi');
    expect(send.body.template.language).toEqual({ code: 'hi' });
    expect(send.body.template.components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Kurta Kart' },
          { type: 'text', text: booked.channel_order_id },
          { type: 'text', text: '1499' },
        ],
      },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: '0',
        parameters: [{ type: 'payload', payload: `confirm:${booked.shipment_id}` }],
      },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: '1',
        parameters: [{ type: 'payload', payload: `cancel:${booked.shipment_id}` }],
      },
    ]);
    const { confirmation, messages } = await confirmationOf(account.apiKey, booked.shipment_id);
    expect(confirmation).toEqual({
      outcome: 'pending',
      held: true,
      channel: 'whatsapp',
      language: 'hi',
      due_at: new Date(ctx.clock.now().getTime() + HOUR).toISOString(),
      answered_at: null,
      answered_via: null,
      payment_link: null,
      cod_to_prepaid: null,
      payment_reference: null,
      paid_at: null,
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      channel: 'whatsapp',
      purpose: 'order_confirmation',
      template: 'cod_confirm_hi',
      language: 'hi',
      recipient: '********6780',
      status: 'sent',
      attempts: 1,
      provider_message_id: wa.sends.at(-1)!.messageId,
      last_error: null,
    });
    await until(
      async () => (await eventTypes(account.apiKey, booked.shipment_id)).includes('shipment.confirmation_sent'),
      'the confirmation_sent event',
    );
    // Every message's outcome is an event of its own, beside confirmation_sent: the message as listed, the phone masked.
    const [sent] = await eventsOfType(account.apiKey, booked.shipment_id, 'shipment.buyer_message_sent');
    expect(sent!.data.message).toEqual(messages[0]);
    expect(JSON.stringify(sent!.data.message)).not.toContain(BUYER);
    expect(
      (await eventTypes(account.apiKey, booked.shipment_id)).filter(
        (t) => t.includes('message') || t.includes('confirmation'),
      ),
    ).toEqual(['shipment.confirmation_sent', 'shipment.buyer_message_sent']);
    expect((await confirmationOf(account.apiKey, prepaid.shipment_id)).confirmation).toBeNull();
  });

  it('a signed Confirm marks it confirmed and releases the hold; a repeat changes nothing', async () => {
    const booked = await askedOrder(() => wa.sends.length);
    const body = buttonReplyWebhook(BUYER, `confirm:${booked.shipment_id}`, 'Confirm');
    const response = await inbound(account.id, body, hubSignature(body));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ answered: 1 });
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).confirmation).toMatchObject({
      outcome: 'confirmed',
      held: false,
      answered_via: 'whatsapp',
      answered_at: ctx.clock.now().toISOString(),
    });
    expect((await inbound(account.id, body, hubSignature(body))).json()).toEqual({ answered: 0 });
    // On PostgreSQL the event feed lists an event once no older transaction can still commit.
    await until(
      async () => (await eventTypes(account.apiKey, booked.shipment_id)).includes('shipment.confirmation_confirmed'),
      'the confirmation event',
    );
  });

  it('a signed Cancel cancels the shipment through cancel-order', async () => {
    const booked = await askedOrder(() => wa.sends.length);
    const body = buttonReplyWebhook(BUYER, `cancel:${booked.shipment_id}`, 'Cancel');
    expect((await inbound(account.id, body, hubSignature(body))).json()).toEqual({ answered: 1 });
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).confirmation).toMatchObject({
      outcome: 'cancelled',
      held: false,
    });
    const [row] = await queryRows<{ status: string; sub_status: string }>(
      ctx.database.db,
      sql`select status, sub_status from shipments where id = ${booked.shipment_id}`,
    );
    expect(row).toEqual({ status: 'cancelled', sub_status: 'cancelled_by_merchant' });
    const types = await eventTypes(account.apiKey, booked.shipment_id);
    expect(types).toEqual(expect.arrayContaining(['shipment.cancelled', 'shipment.confirmation_cancelled']));
    // The audit log names the buyer as the one who asked (issue 51), Dakiya acting for the account.
    expect(
      await queryRows(
        ctx.database.db,
        sql`select actor_type, actor_name, action from audit_log where object_id = ${booked.shipment_id}`,
      ),
    ).toEqual([
      {
        actor_type: 'system',
        actor_name: 'the buyer, answering the order confirmation',
        action: 'shipment.cancelled',
      },
    ]);
  });

  it('refuses a forged inbound webhook: unsigned 401, signed with another secret 403; nothing changes', async () => {
    const booked = await askedOrder(() => wa.sends.length);
    const body = buttonReplyWebhook(BUYER, `cancel:${booked.shipment_id}`, 'Cancel');
    const unsigned = await inbound(account.id, body, undefined);
    expect([unsigned.statusCode, unsigned.json().code]).toEqual([401, 'whatsapp_signature_missing']);
    expect(unsigned.headers['www-authenticate']).toBe('X-Hub-Signature-256');
    const forged = await inbound(account.id, body, hubSignature(body, 'not-the-app-secret'));
    expect([forged.statusCode, forged.json().code]).toEqual([403, 'whatsapp_signature_mismatch']);
    const tampered = body.replace('Cancel', 'Confirm');
    expect((await inbound(account.id, tampered, hubSignature(body))).statusCode).toBe(403);
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).confirmation.outcome).toBe('pending');
  });

  it('no answer in the window: no_response, and the order stays held under the hold policy; shipped anyway without it', async () => {
    const held = await askedOrder(() => wa.sends.length);
    await setPolicy({ mode: 'all_cod', hold_unconfirmed: false });
    const shipped = await askedOrder(() => wa.sends.length);
    ctx.clock.advance(HOUR + 60_000);
    await until(
      async () => (await confirmationOf(account.apiKey, shipped.shipment_id)).confirmation.outcome === 'no_response',
      'the window to close',
    );
    await until(
      async () => (await confirmationOf(account.apiKey, held.shipment_id)).confirmation.outcome === 'no_response',
      'the window to close',
    );
    expect((await confirmationOf(account.apiKey, held.shipment_id)).confirmation.held).toBe(true);
    expect((await confirmationOf(account.apiKey, shipped.shipment_id)).confirmation.held).toBe(false);
    expect(await eventTypes(account.apiKey, held.shipment_id)).toContain('shipment.confirmation_no_response');
    const late = buttonReplyWebhook(BUYER, `confirm:${held.shipment_id}`, 'Confirm');
    expect((await inbound(account.id, late, hubSignature(late))).json()).toEqual({ answered: 0 });
  });

  it("retries a 429 (code 130429) and a 500, then records the provider's id", async () => {
    wa.failNext('429', '500');
    const before = wa.sends.length;
    const booked = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
    await until(
      async () => (await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]?.status === 'sent',
      'the third attempt',
    );
    const [message] = (await confirmationOf(account.apiKey, booked.shipment_id)).messages;
    expect(message).toMatchObject({
      status: 'sent',
      attempts: 3,
      provider_message_id: wa.sends.at(-1)!.messageId,
      last_error: 'WhatsApp refused (500, code 1): An unknown error has occurred.',
    });
    expect(wa.sends.length - before).toBe(3);
  });

  it('a refusal that will not pass (an unknown template) fails at once, without retries', async () => {
    wa.failNext('bad-template');
    const booked = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
    await until(
      async () => (await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]?.status === 'failed',
      'the failure',
    );
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]).toMatchObject({
      attempts: 1,
      last_error: 'WhatsApp refused (404, code 132001): (#132001) Template name does not exist in the translation',
      next_attempt_at: null,
    });
    const [failed] = await eventsOfType(account.apiKey, booked.shipment_id, 'shipment.buyer_message_failed');
    expect(failed!.data.message).toEqual((await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]);
    expect(failed!.data.message).toMatchObject({
      purpose: 'order_confirmation',
      channel: 'whatsapp',
      template: 'cod_confirm_hi',
      status: 'failed',
      recipient: '********6780',
      provider_message_id: null,
    });
    const types = await eventTypes(account.apiKey, booked.shipment_id);
    expect(types).not.toContain('shipment.confirmation_sent');
    expect(types).not.toContain('shipment.buyer_message_sent');
  });

  it('a retried message records one event, on its outcome; a webhook subscribed to the outcomes receives them signed', async () => {
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: `${V1}/webhooks`,
      headers: authed(account.apiKey),
      payload: { url: hooks.url, events: ['shipment.buyer_message_sent', 'shipment.buyer_message_failed'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    wa.failNext('500');
    const retried = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
    await until(
      async () => (await confirmationOf(account.apiKey, retried.shipment_id)).messages[0]?.status === 'sent',
      'the second attempt',
    );
    wa.failNext('bad-template');
    const refused = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
    await until(
      async () => (await confirmationOf(account.apiKey, refused.shipment_id)).messages[0]?.status === 'failed',
      'the refusal',
    );
    // An outcome of an earlier test's booking, recorded before this endpoint but fanned out after it
    // was made, may reach it too: wait for the two this test is about, not for any two.
    const delivered = () =>
      hooks.received.map((r) => ({
        signed: /^v1,/.test(String(r.headers['webhook-signature'])),
        ...JSON.parse(r.body),
      }));
    const about = (id: string) => delivered().filter((d) => d.data.shipment.id === id);
    await until(
      () => about(retried.shipment_id).length > 0 && about(refused.shipment_id).length > 0,
      'a delivery about each',
    );
    expect(
      about(retried.shipment_id).map((d) => [d.signed, d.type, d.data.message.status, d.data.message.attempts]),
    ).toEqual([[true, 'shipment.buyer_message_sent', 'sent', 2]]);
    expect(
      about(refused.shipment_id).map((d) => [d.signed, d.type, d.data.message.status, d.data.message.attempts]),
    ).toEqual([[true, 'shipment.buyer_message_failed', 'failed', 1]]);
    expect(about(refused.shipment_id)[0].data.message).toEqual(
      (await confirmationOf(account.apiKey, refused.shipment_id)).messages[0],
    );
    expect(await eventsOfType(account.apiKey, retried.shipment_id, 'shipment.buyer_message_sent')).toHaveLength(1);
    expect(await eventsOfType(account.apiKey, retried.shipment_id, 'shipment.buyer_message_failed', 0)).toEqual([]);
  });
});

describe('order confirmation by SMS', () => {
  it('sends the DLT template with links to the answer page; the page answers only on its buttons', async () => {
    await setPolicy({
      mode: 'above_value',
      min_value: 1000,
      channels: ['sms'],
      language: 'en',
      payment_link_template: 'https://pay.example.in/cod?order={order_id}&amount={amount}',
    });
    const small = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 500 });
    const booked = await askedOrder(() => sms.sends.length);
    const send = sms.sends.at(-1)!;
    expect(send.authkey).toBe(MSG91_AUTH_KEY);
    expect(send.body.template_id).toBe('1107168000000000001');
    expect(send.body.sender).toBe('KRTKRT');
    const { token } = /\/t\/(?<token>[A-Za-z0-9_-]+)\/confirmation/.exec(send.body.recipients![0]!.confirm_url!)!
      .groups!;
    const page = `${PUBLIC_BASE_URL}/t/${token}/confirmation?lang=en`;
    expect(send.body.recipients).toEqual([
      {
        mobiles: BUYER,
        brand: 'Kurta Kart',
        order_id: booked.channel_order_id,
        amount: '1499',
        confirm_url: `${page}&answer=confirm`,
        cancel_url: `${page}&answer=cancel`,
        payment_url: `https://pay.example.in/cod?order=${booked.channel_order_id}&amount=1499`,
      },
    ]);
    expect((await confirmationOf(account.apiKey, small.shipment_id)).confirmation).toBeNull();
    const opened = await ctx.app.inject({ method: 'GET', url: `/t/${token}/confirmation?lang=hi&answer=confirm` });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(opened.body).toContain('ऑर्डर कन्फ़र्म करें');
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).confirmation).toMatchObject({
      outcome: 'pending',
      cod_to_prepaid: 'offered',
    });
    const answered = await ctx.app.inject({
      method: 'POST',
      url: `/t/${token}/confirmation?lang=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'answer=confirm',
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toContain('your order is confirmed');
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).confirmation).toMatchObject({
      outcome: 'confirmed',
      answered_via: 'link',
    });
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/t/${token}/confirmation`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'answer=cancel',
    });
    expect(again.body).toContain('can no longer be confirmed or cancelled');
    const unknown = await ctx.app.inject({ method: 'GET', url: '/t/AAAAAAAAAAAAAAAAAAAAAA/confirmation' });
    expect(unknown.statusCode).toBe(404);
  });

  it('retries MSG91 429 and 500', async () => {
    sms.failNext('429', '500');
    const booked = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
    await until(
      async () => (await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]?.status === 'sent',
      'the third attempt',
    );
    expect((await confirmationOf(account.apiKey, booked.shipment_id)).messages[0]).toMatchObject({
      attempts: 3,
      provider_message_id: sms.sends.at(-1)!.requestId,
      last_error: 'MSG91 refused (500): Internal server error',
    });
  });
});

describe('accounts', () => {
  it("one account's channels, confirmations, messages and buyers are invisible to another", async () => {
    const booked = await book(ctx, account.apiKey, warehouseId, { cod: true, value: 1499 });
    expect((await get(other.apiKey, `${SHIPMENTS}/${booked.shipment_id}/confirmation`)).statusCode).toBe(404);
    expect((await get(other.apiKey, `${SHIPMENTS}/${UNKNOWN_ID}/confirmation`)).statusCode).toBe(404);
    const channels = (await get(other.apiKey, CHANNELS)).json().data;
    expect(
      channels.map((c: { enabled: boolean; credentials_set: string[] }) => [c.enabled, c.credentials_set]),
    ).toEqual([
      [false, []],
      [false, []],
      [false, []],
    ]);
    expect((await get(other.apiKey, POLICY)).json().data.mode).toBe('off');
    // Another account's webhook URL, signed with this account's secret, reaches nothing of this account.
    const body = buttonReplyWebhook(BUYER, `cancel:${booked.shipment_id}`, 'Cancel');
    expect((await inbound(other.id, body, hubSignature(body))).statusCode).toBe(404);
    expect(await eventTypes(other.apiKey, booked.shipment_id)).toEqual([]);
  });
});
