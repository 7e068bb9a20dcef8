import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../base/db/client.js';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, HOUR, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../../../test/msg91-simulator.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { NOW, PICKED_UP } from '../../../test/ndr.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { until } from '../../../test/webhook-receiver.js';
import {
  buttonReplyWebhook,
  hubSignature,
  startWhatsAppSimulator,
  WA_APP_SECRET,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
  type WhatsAppSimulator,
} from '../../../test/whatsapp-simulator.js';
import { eventsSettled } from '../../../test/databases.js';

// The buyer's NDR message (docs/rto.md, NDR messages): an NDR rule's message_buyer goes out on
// WhatsApp with Reattempt tomorrow, Change address and Cancel order; the buyer's signed reply goes
// through the NDR path and stops the rule's RTO fallback. The clock is Friday 20 November 2026,
// 15:30 India time: the next working day is Saturday 21.

const BUYER = '919123456780';
const OTHER_SECRET = '0123456789abcdef0123456789abcdef';
const REFUSED_COD = {
  name: 'Refused COD: ask, then RTO',
  when: { ndr_reasons: ['refused'], payment: 'cod' },
  action: 'message_buyer',
  rto_after_hours: 24,
};

let wa: WhatsAppSimulator;
let sms: Awaited<ReturnType<typeof startMsg91Simulator>>;
let smtp: SmtpServer;
let ctx: TestContext;
let shadowfax: string;
let account: { id: string; apiKey: string };
let other: { id: string; apiKey: string };

const put = (apiKey: string, url: string, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload: payload as object });
const inbound = (accountId: string, body: string, secret: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/public/v1/whatsapp/${accountId}/webhook`,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(body, secret) },
    payload: body,
  });

async function shipmentOf(apiKey: string, awb: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: SHIPMENTS,
    headers: authed(apiKey),
    payload: { search: awb },
  });
  return response.json().data[0].attributes;
}

async function ruleActions(apiKey: string) {
  await eventsSettled(ctx.database);
  const response = await ctx.app.inject({
    method: 'GET',
    url: `${V1}/events?type[]=shipment.ndr_action_taken`,
    headers: authed(apiKey),
  });
  return (response.json().data as { data: { action: string; outcome: string } }[]).map((e) => [
    e.data.action,
    e.data.outcome,
  ]);
}

/** The NDR rules' rounds until their consumer has read every event (on PostgreSQL, once no older transaction can commit). */
async function rulesRound() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    await ctx.app.ndrRules.runOnce();
    const [row] = await queryRows<{ caught_up: boolean }>(
      ctx.database.db,
      sql`select coalesce((select (c.after_txid, c.after_position) >= (e.txid, e.position)
            from event_consumers c, (select txid, position from events order by txid desc, position desc limit 1) e
           where c.name = 'ndr-rules'), true) as caught_up`,
    );
    if (row!.caught_up) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the NDR rules did not catch up with the event log');
}

/** A COD shipment of `owner`'s, picked up, refused at the door; the rule's round, and its message sent and recorded. */
async function refusedParcel(
  owner = account,
  sends: () => number = () => wa.sends.length,
  email?: string,
  outcome: 'sent' | 'failed' = 'sent',
) {
  ctx.clock.set(at(0));
  const booked = await book(ctx, owner.apiKey, await createCityWarehouse(ctx, owner.apiKey), {
    cod: true,
    value: 1499,
    ...(email && { email }),
  });
  const awb = booked.awb_code!;
  ctx.clock.set(NOW);
  const before = sends();
  await sendEvents(ctx, shadowfax, [
    ...PICKED_UP.map((e) => ({ ...e, awb })),
    { awb, status: 'out_for_delivery', event_time: at(30) },
    { awb, status: 'ndr_raised', ndr_reason: 'refused', event_time: at(35) },
  ]);
  await rulesRound();
  await until(() => sends() > before, 'the NDR message to go out');
  const messages = async () =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
        headers: authed(owner.apiKey),
      })
    ).json().data.messages;
  await until(async () => (await messages())[0]?.status === outcome, `the ${outcome} message to be recorded`);
  return { booked, awb, send: wa.sends.at(-1)!, messages: await messages() };
}

/** The shipment's buyer message events, as GET /events lists them, once one is listed. */
async function messageEvents(apiKey: string, shipmentId: string) {
  let found: { type: string; data: { shipment: { id: string }; message: Record<string, unknown> } }[] = [];
  await until(async () => {
    await eventsSettled(ctx.database);
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?limit=100&type[]=shipment.buyer_message_sent&type[]=shipment.buyer_message_failed`,
      headers: authed(apiKey),
    });
    found = (response.json().data as typeof found).filter((e) => e.data.shipment.id === shipmentId);
    return found.length > 0;
  }, 'the buyer message event');
  return found.map((e) => ({ type: e.type, message: e.data.message }));
}

beforeAll(async () => {
  wa = await startWhatsAppSimulator();
  sms = await startMsg91Simulator();
  smtp = await startSmtpServer();
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 50 },
      messaging: {
        whatsappBaseUrl: wa.baseUrl,
        smsBaseUrl: sms.baseUrl,
        retryDelaysSeconds: [0.05, 0.05, 0.05],
        timeoutMs: 5000,
      },
      mail: { smtpUrl: smtp.url, mailFrom: 'orders@dakiya.test' },
    },
    delivery: ['messaging'],
  });
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
  account = await ctx.createAccount('Kurta Kart');
  other = await ctx.createAccount('Other Store');
  for (const [owner, secret] of [
    [account, WA_APP_SECRET],
    [other, OTHER_SECRET],
  ] as const) {
    const channel = await put(owner.apiKey, `${V1}/messaging/channels/whatsapp`, {
      enabled: true,
      phone_number_id: WA_PHONE_NUMBER_ID,
      access_token: WA_TOKEN,
      app_secret: secret,
      ndr_template: { en: 'ndr_choice_en', hi: 'ndr_choice_hi' },
    });
    expect(channel.statusCode, channel.body).toBe(200);
  }
  expect((await put(account.apiKey, `${V1}/ndr-rules`, { rules: [REFUSED_COD] })).statusCode).toBe(200);
});
afterAll(async () => {
  await ctx.close();
  await wa.close();
  await sms.close();
  await smtp.close();
});

describe('the NDR message', () => {
  it('goes out on WhatsApp with the store, the order, the AWB and the three buttons, and is recorded with the provider id', async () => {
    const { booked, awb, send, messages } = await refusedParcel();
    const token = booked.track_url!.split('/t/')[1];
    expect(send.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: BUYER,
      type: 'template',
      template: {
        name: 'ndr_choice_en',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Kurta Kart' },
              { type: 'text', text: booked.channel_order_id },
              { type: 'text', text: awb },
            ],
          },
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '0',
            parameters: [{ type: 'payload', payload: `ndr_reattempt:${booked.shipment_id}:1` }],
          },
          { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: `${token}?lang=en` }] },
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '2',
            parameters: [{ type: 'payload', payload: `ndr_cancel:${booked.shipment_id}:1` }],
          },
        ],
      },
    });
    expect(messages).toEqual([
      expect.objectContaining({
        channel: 'whatsapp',
        purpose: 'ndr',
        template: 'ndr_choice_en',
        language: 'en',
        recipient: '********6780',
        status: 'sent',
        attempts: 1,
        provider_message_id: send.messageId,
        last_error: null,
      }),
    ]);
    expect(`${PUBLIC_BASE_URL}/t/${token}`).toBe(booked.track_url);
    expect(await messageEvents(account.apiKey, booked.shipment_id)).toEqual([
      { type: 'shipment.buyer_message_sent', message: messages[0] },
    ]);
  });

  it('a refusal that will not pass is recorded as failed, and as a shipment.buyer_message_failed event with the recipient masked', async () => {
    wa.failNext('bad-template');
    const { booked, messages } = await refusedParcel(account, () => wa.sends.length, undefined, 'failed');
    expect(messages[0]).toMatchObject({
      purpose: 'ndr',
      channel: 'whatsapp',
      template: 'ndr_choice_en',
      status: 'failed',
      attempts: 1,
      recipient: '********6780',
      provider_message_id: null,
    });
    expect(await messageEvents(account.apiKey, booked.shipment_id)).toEqual([
      { type: 'shipment.buyer_message_failed', message: messages[0] },
    ]);
  });

  it("the signed Reattempt reply asks for tomorrow's reattempt as the customer, and no RTO follows after rto_after", async () => {
    const { booked, awb } = await refusedParcel();
    const reply = buttonReplyWebhook(BUYER, `ndr_reattempt:${booked.shipment_id}:1`, 'Reattempt tomorrow');
    const answered = await inbound(account.id, reply, WA_APP_SECRET);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toEqual({ answered: 1 });
    const shipment = await shipmentOf(account.apiKey, awb);
    expect(
      shipment.ndr_actions.map((a: { action: string; requested_by: string; details: unknown }) => [
        a.action,
        a.requested_by,
        a.details,
      ]),
    ).toEqual([['reattempt', 'customer', { reattempt_date: '2026-11-21' }]]);
    // A second tap changes nothing: the reattempt for this failed attempt is asked.
    expect((await inbound(account.id, reply, WA_APP_SECRET)).json()).toEqual({ answered: 0 });
    ctx.clock.advance(25 * HOUR);
    await rulesRound();
    const later = await shipmentOf(account.apiKey, awb);
    expect(later.status).toBe('ndr_raised');
    expect(later.ndr_actions).toHaveLength(1);
  });

  it('the Cancel order reply turns the parcel back at once, as the customer', async () => {
    const { booked, awb } = await refusedParcel();
    const answered = await inbound(
      account.id,
      buttonReplyWebhook(BUYER, `ndr_cancel:${booked.shipment_id}:1`, 'Cancel order'),
      WA_APP_SECRET,
    );
    expect(answered.json()).toEqual({ answered: 1 });
    const shipment = await shipmentOf(account.apiKey, awb);
    expect(shipment.status).toBe('rto_initiated');
    expect(
      shipment.ndr_actions.map((a: { action: string; requested_by: string }) => [a.action, a.requested_by]),
    ).toEqual([['rto', 'customer']]);
  });

  it('without an answer, the RTO is initiated when rto_after comes', async () => {
    const { awb } = await refusedParcel();
    ctx.clock.advance(23 * HOUR);
    await rulesRound();
    expect((await shipmentOf(account.apiKey, awb)).status).toBe('ndr_raised');
    ctx.clock.advance(HOUR);
    await rulesRound();
    const shipment = await shipmentOf(account.apiKey, awb);
    expect(shipment.status).toBe('rto_initiated');
    expect(
      shipment.ndr_actions.map((a: { action: string; requested_by: string }) => [a.action, a.requested_by]),
    ).toEqual([['rto', 'rule']]);
    expect((await ruleActions(account.apiKey)).at(-1)).toEqual(['rto_fallback', 'done']);
  });

  it("another account's buyer cannot act: a reply signed for that account naming this shipment changes nothing, nor a forged one", async () => {
    const { booked, awb } = await refusedParcel();
    const reply = buttonReplyWebhook(BUYER, `ndr_reattempt:${booked.shipment_id}:1`, 'Reattempt tomorrow');
    expect((await inbound(other.id, reply, OTHER_SECRET)).json()).toEqual({ answered: 0 });
    expect((await inbound(account.id, reply, OTHER_SECRET)).statusCode).toBe(403);
    const shipment = await shipmentOf(account.apiKey, awb);
    expect(shipment.ndr_actions).toEqual([]);
    expect(shipment.status).toBe('ndr_raised');
  });

  it("on SMS, in the account's language: the tracking page link, where the buyer picks the day; a 429 is retried", async () => {
    const chai = await ctx.createAccount('Chai Co');
    const channel = await put(chai.apiKey, `${V1}/messaging/channels/sms`, {
      enabled: true,
      sender: 'CHAICO',
      auth_key: MSG91_AUTH_KEY,
      ndr_template: { hi: '1107168000000000009' },
    });
    expect(channel.statusCode, channel.body).toBe(200);
    expect(
      (await put(chai.apiKey, `${V1}/messaging/confirmation-policy`, { mode: 'off', language: 'hi' })).statusCode,
    ).toBe(200);
    expect((await put(chai.apiKey, `${V1}/ndr-rules`, { rules: [REFUSED_COD] })).statusCode).toBe(200);
    sms.failNext('429');
    const { booked, awb, messages } = await refusedParcel(
      chai,
      () => sms.sends.filter((s) => s.requestId !== null).length,
    );
    const sent = sms.sends.at(-1)!;
    expect(sent.body).toEqual({
      template_id: '1107168000000000009',
      sender: 'CHAICO',
      short_url: '1',
      unicode: 1,
      recipients: [
        {
          mobiles: BUYER,
          brand: 'Chai Co',
          order_id: booked.channel_order_id,
          awb,
          tracking_url: `${booked.track_url}?lang=hi`,
        },
      ],
    });
    expect(messages).toEqual([
      expect.objectContaining({
        channel: 'sms',
        purpose: 'ndr',
        template: '1107168000000000009',
        language: 'hi',
        status: 'sent',
        attempts: 2,
        provider_message_id: sent.requestId,
        last_error: 'MSG91 refused (429): Too many requests',
      }),
    ]);
  });

  it("by e-mail, from the store's brand, with the tracking page link", async () => {
    const saree = await ctx.createAccount('Saree Studio');
    expect((await put(saree.apiKey, `${V1}/messaging/channels/email`, { enabled: true })).statusCode).toBe(200);
    expect((await put(saree.apiKey, `${V1}/ndr-rules`, { rules: [REFUSED_COD] })).statusCode).toBe(200);
    const { booked, awb, messages } = await refusedParcel(
      saree,
      () => smtp.to('meera@example.com').length,
      'meera@example.com',
    );
    const { mail } = smtp.to('meera@example.com')[0]!;
    expect(mail.from?.value).toEqual([{ name: 'Saree Studio', address: 'orders@dakiya.test' }]);
    expect(mail.subject).toBe(`Saree Studio: we could not deliver your order ${booked.channel_order_id}`);
    expect(mail.text).toBe(
      [
        `The courier could not deliver your Saree Studio order ${booked.channel_order_id} (AWB ${awb}).`,
        'Tell us what to do: choose a day to try again, and correct the address or phone if they need it.',
        '',
        `Choose on the tracking page: ${booked.track_url}?lang=en`,
        '',
        'Saree Studio',
      ].join('\n'),
    );
    expect(messages).toEqual([
      expect.objectContaining({
        channel: 'email',
        purpose: 'ndr',
        template: 'email_ndr',
        recipient: 'm****@example.com',
        status: 'sent',
        attempts: 1,
      }),
    ]);
    const [event] = await messageEvents(saree.apiKey, booked.shipment_id);
    expect(event).toEqual({ type: 'shipment.buyer_message_sent', message: messages[0] });
    expect(JSON.stringify(event)).not.toContain('meera@');
  });
});
