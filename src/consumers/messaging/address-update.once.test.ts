import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, ratesWith, SHADOWFAX } from '../../../test/kit/couriers.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../../demo/simulators/delhivery-simulator.js';
import { authed, ORCHESTRATE, post, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../../../test/msg91-simulator.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { until } from '../../../test/webhook-receiver.js';
import {
  startWhatsAppSimulator,
  WA_APP_SECRET,
  WA_PHONE_NUMBER_ID,
  WA_TOKEN,
  type WhatsAppSimulator,
} from '../../../test/whatsapp-simulator.js';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../base/db/client.js';
import { eventsSettled } from '../../../test/databases.js';

// "Update your address" (docs/rto.md, decision 94): the message, the buyer's form, the re-check.

let wa: WhatsAppSimulator;
let sms: Awaited<ReturnType<typeof startMsg91Simulator>>;
let smtp: SmtpServer;
let delhivery: DelhiverySimulator;
let ctx: TestContext;
let shadowfax: string;

interface Account {
  apiKey: string;
  warehouseId: string;
}
let whatsappAccount: Account;
let smsAccount: Account;
let emailAccount: Account;

const put = (apiKey: string, url: string, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload: payload as object });
const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
  const r = await response;
  expect(r.statusCode, r.body).toBe(200);
};

/** A COD booking to Mumbai; by default its address has no house number or street word: incomplete. */
async function bookTo(
  account: Account,
  address = 'Asha Sharma Colaba',
  email = 'asha@example.com',
  carrierId = SHADOWFAX,
) {
  const body = {
    ...orderBodyFromFields(account.warehouseId, { carrierId, cod: true, value: 998, email }),
    billing_address: address,
  };
  const response = await post(ctx, account.apiKey, ORCHESTRATE, body);
  expect(response.statusCode, response.body).toBe(200);
  const payload = response.json().payload;
  return { ...payload, token: new URL(payload.track_url).pathname.slice('/t/'.length) } as {
    shipment_id: string;
    awb_code: string;
    channel_order_id: string;
    token: string;
  };
}

async function makeAccount(name: string): Promise<Account> {
  const { apiKey } = await ctx.createAccount(name);
  return { apiKey, warehouseId: await createCityWarehouse(ctx, apiKey) };
}

/** The form as a browser gets it: its hidden token and the cookie it set. */
async function openForm(token: string, lang = 'en') {
  const page = await ctx.app.inject({ method: 'GET', url: `/t/${token}/address?lang=${lang}` });
  expect(page.statusCode, page.body).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  return { page, csrf: csrf!, cookie };
}
const submit = (token: string, fields: Record<string, string>, cookie: string, lang = 'en') =>
  ctx.app.inject({
    method: 'POST',
    url: `/t/${token}/address?lang=${lang}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'sec-fetch-site': 'same-origin' },
    payload: new URLSearchParams(fields).toString(),
  });
const GOOD = {
  address: '14, Shivaji Marg',
  landmark: 'Near Colaba Market',
  pincode: '400001',
  city: 'Mumbai',
  state: 'Maharashtra',
  alternate_phone: '98765 43210',
};

async function eventsOf(apiKey: string, type: string) {
  await eventsSettled(ctx.database);
  return (
    await ctx.app.inject({ method: 'GET', url: `${V1}/events?limit=100&type[]=${type}`, headers: authed(apiKey) })
  ).json().data as { data: Record<string, unknown> & { shipment: { id: string } } }[];
}
const listed = async (apiKey: string, shipmentId: string) =>
  ((await post(ctx, apiKey, SHIPMENTS, {})).json().data as { id: string; attributes: Record<string, unknown> }[]).find(
    (s) => s.id === shipmentId,
  )?.attributes;

beforeAll(async () => {
  wa = await startWhatsAppSimulator();
  sms = await startMsg91Simulator();
  smtp = await startSmtpServer();
  delhivery = await startDelhiverySimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
    settings: {
      couriers: {
        delhivery: { token: SIM_TOKEN, baseUrl: delhivery.baseUrl },
        timeoutMs: 5000,
        pollSeconds: 600,
      },
      workers: { pollIntervalMs: 50 },
      messaging: { whatsappBaseUrl: wa.baseUrl, smsBaseUrl: sms.baseUrl, retryDelaysSeconds: [0.05], timeoutMs: 5000 },
      mail: { smtpUrl: smtp.url, mailFrom: 'orders@dakiya.test' },
    },
    delivery: ['messaging'],
  });
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
  whatsappAccount = await makeAccount('Kurta Kart');
  smsAccount = await makeAccount('Chai Co');
  emailAccount = await makeAccount('Dhoop Store');
  await ok(
    put(whatsappAccount.apiKey, `${V1}/messaging/channels/whatsapp`, {
      enabled: true,
      phone_number_id: WA_PHONE_NUMBER_ID,
      access_token: WA_TOKEN,
      app_secret: WA_APP_SECRET,
      address_template: { en: 'address_fix_en', hi: 'address_fix_hi' },
    }),
  );
  await ok(
    put(whatsappAccount.apiKey, `${V1}/messaging/confirmation-policy`, {
      mode: 'off',
      address_update_for: ['incomplete'],
    }),
  );
  await ok(
    put(smsAccount.apiKey, `${V1}/messaging/channels/sms`, {
      enabled: true,
      sender: 'CHAICO',
      auth_key: MSG91_AUTH_KEY,
      address_template: { hi: '1107168000000000009' },
    }),
  );
  await ok(
    put(smsAccount.apiKey, `${V1}/messaging/confirmation-policy`, {
      mode: 'off',
      language: 'hi',
      address_update_for: ['incomplete', 'suspicious'],
    }),
  );
  await ok(put(emailAccount.apiKey, `${V1}/messaging/channels/email`, { enabled: true }));
  // E-mail enabled, but the policy asks no address updates (the default): nothing is sent.
  await ok(put(emailAccount.apiKey, `${V1}/messaging/confirmation-policy`, { mode: 'off' }));
});
afterAll(async () => {
  await ctx.close();
  await wa.close();
  await sms.close();
  await smtp.close();
  await delhivery.close();
});

describe('the "update your address" message', () => {
  it('an incomplete address sends the WhatsApp template with the form link; a valid one sends nothing', async () => {
    const before = wa.sends.length;
    await bookTo(whatsappAccount, '42, 5th Cross Road, Colaba');
    const booked = await bookTo(whatsappAccount);
    await until(() => wa.sends.length > before, 'the WhatsApp message');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(wa.sends.length).toBe(before + 1);
    const { body } = wa.sends.at(-1)!;
    expect(body.to).toBe('919123456780');
    expect(body.template).toEqual({
      name: 'address_fix_en',
      language: { code: 'en' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Kurta Kart' },
            { type: 'text', text: booked.channel_order_id },
          ],
        },
        {
          type: 'button',
          sub_type: 'url',
          index: '0',
          parameters: [{ type: 'text', text: `${booked.token}/address?lang=en` }],
        },
      ],
    });
    await until(async () => {
      const messages = (
        await ctx.app.inject({
          method: 'GET',
          url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
          headers: authed(whatsappAccount.apiKey),
        })
      ).json().data.messages;
      return messages.length === 1 && messages[0].status === 'sent' && messages[0].purpose === 'address_update';
    }, 'the message to be recorded as sent');
    await until(
      async () =>
        (await eventsOf(whatsappAccount.apiKey, 'shipment.buyer_message_sent')).some(
          (e) => e.data.shipment.id === booked.shipment_id,
        ),
      'the event',
    );
    const [message] = (
      await ctx.app.inject({
        method: 'GET',
        url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
        headers: authed(whatsappAccount.apiKey),
      })
    ).json().data.messages;
    const sent = (await eventsOf(whatsappAccount.apiKey, 'shipment.buyer_message_sent')).filter(
      (e) => e.data.shipment.id === booked.shipment_id,
    );
    expect(sent.map((e) => e.data.message)).toEqual([message]);
    expect(message).toMatchObject({
      purpose: 'address_update',
      channel: 'whatsapp',
      template: 'address_fix_en',
      recipient: '********6780',
      provider_message_id: wa.sends.at(-1)!.messageId,
    });
  });

  it('a send refused for good is recorded as failed, with a shipment.buyer_message_failed event', async () => {
    wa.failNext('bad-template');
    const booked = await bookTo(whatsappAccount);
    const messages = async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `${SHIPMENTS}/${booked.shipment_id}/confirmation`,
          headers: authed(whatsappAccount.apiKey),
        })
      ).json().data.messages;
    await until(async () => (await messages())[0]?.status === 'failed', 'the failure to be recorded');
    const [message] = await messages();
    expect(message).toMatchObject({
      purpose: 'address_update',
      status: 'failed',
      attempts: 1,
      provider_message_id: null,
      last_error: 'WhatsApp refused (404, code 132001): (#132001) Template name does not exist in the translation',
    });
    await until(
      async () =>
        (await eventsOf(whatsappAccount.apiKey, 'shipment.buyer_message_failed')).some(
          (e) => e.data.shipment.id === booked.shipment_id,
        ),
      'the event',
    );
    const failed = (await eventsOf(whatsappAccount.apiKey, 'shipment.buyer_message_failed')).filter(
      (e) => e.data.shipment.id === booked.shipment_id,
    );
    expect(failed.map((e) => e.data.message)).toEqual([message]);
    expect(
      (await eventsOf(whatsappAccount.apiKey, 'shipment.buyer_message_sent')).some(
        (e) => e.data.shipment.id === booked.shipment_id,
      ),
    ).toBe(false);
  });

  it('by SMS in Hindi with the link, and not at all where the policy does not ask', async () => {
    const booked = await bookTo(smsAccount);
    await until(() => sms.sends.some((s) => s.body.recipients?.[0]?.order_id === booked.channel_order_id), 'the SMS');
    const sent = sms.sends.find((s) => s.body.recipients?.[0]?.order_id === booked.channel_order_id)!;
    expect(sent.body).toMatchObject({ template_id: '1107168000000000009', sender: 'CHAICO', unicode: 1 });
    expect(sent.body.recipients).toEqual([
      {
        mobiles: '919123456780',
        brand: 'Chai Co',
        order_id: booked.channel_order_id,
        update_url: `${PUBLIC_BASE_URL}/t/${booked.token}/address?lang=hi`,
      },
    ]);
    await bookTo(emailAccount, 'Asha Sharma Colaba', 'dhoop.buyer@example.com');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to('dhoop.buyer@example.com')).toEqual([]);
  });
});

describe("the buyer's form", () => {
  it('shows the address as it stands, in English and Hindi, with a labelled field each', async () => {
    const booked = await bookTo(whatsappAccount);
    const { page } = await openForm(booked.token);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<label for="address">House or flat number, building and street</label>');
    expect(page.body).toContain('id="address" name="address"');
    expect(page.body).toContain('value="Asha Sharma Colaba"');
    expect(page.body).toContain('value="400001"');
    const hindi = await openForm(booked.token, 'hi');
    expect(hindi.page.body).toContain('<html lang="hi">');
    expect(hindi.page.body).toContain('अपना डिलीवरी पता अपडेट करें');
  });

  it('names every bad field, in the language of the page, and changes nothing', async () => {
    const booked = await bookTo(whatsappAccount);
    const { csrf, cookie } = await openForm(booked.token);
    const bad = await submit(
      booked.token,
      {
        csrf,
        address: 'a b',
        landmark: 'x'.repeat(101),
        pincode: '12',
        city: ' ',
        state: '',
        alternate_phone: '12345',
      },
      cookie,
    );
    expect(bad.statusCode).toBe(400);
    for (const text of [
      'House or flat number, building and street: please write the full address',
      'Landmark: this is too long',
      'Pincode: a pincode is 6 digits',
      'City: please fill this in',
      'State: please fill this in',
      'Another phone number: please give a 10-digit Indian mobile number',
    ]) {
      expect(bad.body).toContain(text);
    }
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="pincode-error"');
    const moved = await submit(booked.token, { csrf, ...GOOD, pincode: '400050' }, cookie, 'hi');
    expect(moved.statusCode).toBe(400);
    expect(moved.body).toContain('पिनकोड: कूरियर इसी पिनकोड के लिए बुक है');
    const unknown = await submit(booked.token, { csrf, ...GOOD, pincode: '999999' }, cookie);
    expect(unknown.body).toContain('Pincode: this pincode does not exist');
    expect(await listed(whatsappAccount.apiKey, booked.shipment_id)).toMatchObject({ address_validity: 'incomplete' });
  });

  it('refuses a forged, a missing and an expired form token, and a post from another site (403)', async () => {
    const booked = await bookTo(whatsappAccount);
    const { csrf, cookie } = await openForm(booked.token);
    const [nonce, expiry] = csrf.split('.');
    expect((await submit(booked.token, { csrf: `${nonce}.${expiry}.forged`, ...GOOD }, cookie)).statusCode).toBe(403);
    expect((await submit(booked.token, { ...GOOD }, cookie)).statusCode).toBe(403);
    expect((await submit(booked.token, { csrf, ...GOOD }, 'dakiya_form=another-nonce-of-22-chars')).statusCode).toBe(
      403,
    );
    const crossSite = await ctx.app.inject({
      method: 'POST',
      url: `/t/${booked.token}/address?lang=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'sec-fetch-site': 'cross-site' },
      payload: new URLSearchParams({ csrf, ...GOOD }).toString(),
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).toContain('This form has expired');
    // The form's token lasts two hours.
    ctx.clock.advance(3 * 60 * 60 * 1000);
    try {
      expect((await submit(booked.token, { csrf, ...GOOD }, cookie)).statusCode).toBe(403);
    } finally {
      ctx.clock.advance(-3 * 60 * 60 * 1000);
    }
    // A token of another shipment's form is not this one's.
    const other = await bookTo(whatsappAccount);
    expect((await submit(other.token, { csrf, ...GOOD }, cookie)).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/t/AAAAAAAAAAAAAAAAAAAAAA/address' })).statusCode).toBe(404);
    expect(await listed(whatsappAccount.apiKey, booked.shipment_id)).toMatchObject({ address_validity: 'incomplete' });
  });

  it('a good answer updates the shipment before pickup: valid now, risk re-scored, shipment.address_updated recorded', async () => {
    const booked = await bookTo(whatsappAccount);
    expect(await listed(whatsappAccount.apiKey, booked.shipment_id)).toMatchObject({
      address_validity: 'incomplete',
      rto_risk: 'medium',
      rto_risk_score: 35,
    });
    const { csrf, cookie } = await openForm(booked.token);
    const saved = await submit(booked.token, { csrf, ...GOOD }, cookie);
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`/t/${booked.token}/address?lang=en&saved=1`);
    const thanks = await ctx.app.inject({ method: 'GET', url: saved.headers.location as string });
    expect(thanks.body).toContain('Thank you: your address is updated.');
    expect(await listed(whatsappAccount.apiKey, booked.shipment_id)).toMatchObject({
      address_validity: 'valid',
      address_reasons: [],
      rto_risk: 'low',
      rto_risk_score: 20,
    });
    // The other phone is kept on the order, beside the buyer's own on the shipment, and the form shows it again.
    expect((await listed(whatsappAccount.apiKey, booked.shipment_id))!.shipping_address).toMatchObject({
      alternate_phone: '+919876543210',
      city: 'Mumbai',
      zip: '400001',
    });
    expect((await openForm(booked.token)).page.body).toContain('value="+919876543210"');
    await until(
      async () =>
        (await eventsOf(whatsappAccount.apiKey, 'shipment.address_updated')).some(
          (e) => e.data.shipment.id === booked.shipment_id,
        ),
      'the event',
    );
    const event = (await eventsOf(whatsappAccount.apiKey, 'shipment.address_updated')).find(
      (e) => e.data.shipment.id === booked.shipment_id,
    )!;
    expect(
      (event.data.shipment as unknown as { attributes: { shipping_address: { alternate_phone: string } } }).attributes
        .shipping_address.alternate_phone,
    ).toBe('+919876543210');
    expect(event.data).toMatchObject({
      previous: {
        address_validity: 'incomplete',
        address_reasons: ['no_house_or_street'],
        rto_risk: 'medium',
        rto_risk_score: 35,
      },
      address_validity: 'valid',
      rto_risk: 'low',
      rto_risk_score: 20,
      updated_by: 'buyer',
      changed: ['address', 'landmark', 'alternate_phone'],
      alternate_phone: '+919876543210',
      courier: { outcome: 'not_supported' },
    });
    // Labels are drawn from the order as it stands: its shipping address is the buyer's, the billing one kept.
    const [order] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select o.shipping_address, o.shipping_address_2, o.shipping_is_billing, o.billing_address, o.shipping_alternate_phone from orders o join shipments s on s.order_id = o.id where s.id = ${booked.shipment_id}`,
    );
    expect(order).toEqual({
      shipping_address: '14, Shivaji Marg',
      shipping_address_2: 'Near Colaba Market',
      shipping_is_billing: false,
      billing_address: 'Asha Sharma Colaba',
      shipping_alternate_phone: '+919876543210',
    });
    // Another account neither lists the shipment nor gets its event.
    expect(await listed(smsAccount.apiKey, booked.shipment_id)).toBeUndefined();
    expect(
      (await eventsOf(smsAccount.apiKey, 'shipment.address_updated')).some(
        (e) => e.data.shipment.id === booked.shipment_id,
      ),
    ).toBe(false);
  });

  it('after the pickup scan the form refuses, clearly, and changes nothing', async () => {
    const booked = await bookTo(whatsappAccount);
    const { csrf, cookie } = await openForm(booked.token);
    await sendEvents(ctx, shadowfax, [
      {
        awb: booked.awb_code,
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: ctx.clock.now().toISOString(),
      },
    ]);
    const refused = await submit(booked.token, { csrf, ...GOOD }, cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain(
      'The courier has already picked up your parcel, so the address can no longer be changed here.',
    );
    const page = await ctx.app.inject({ method: 'GET', url: `/t/${booked.token}/address?lang=hi` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('कूरियर आपका पार्सल ले जा चुका है');
    expect(page.body).not.toContain('<form');
    expect(await listed(whatsappAccount.apiKey, booked.shipment_id)).toMatchObject({ address_validity: 'incomplete' });
  });

  it('tells Delhivery the new address through its edit API, and says so in the event', async () => {
    const booked = await bookTo(whatsappAccount, 'Asha Sharma Colaba', 'asha@example.com', DELHIVERY_SURFACE);
    const { csrf, cookie } = await openForm(booked.token);
    expect((await submit(booked.token, { csrf, ...GOOD, alternate_phone: '' }, cookie)).statusCode).toBe(303);
    const [edit] = delhivery.callsTo('/api/p/edit');
    expect(JSON.parse(edit!.body)).toEqual({
      waybill: booked.awb_code,
      add: '14, Shivaji Marg, Near Colaba Market, Mumbai, Maharashtra',
    });
    expect(delhivery.packages.get(booked.awb_code)!.shipment.add).toBe(
      '14, Shivaji Marg, Near Colaba Market, Mumbai, Maharashtra',
    );
    await until(
      async () =>
        (await eventsOf(whatsappAccount.apiKey, 'shipment.address_updated')).some(
          (e) => e.data.shipment.id === booked.shipment_id,
        ),
      'the event',
    );
    const event = (await eventsOf(whatsappAccount.apiKey, 'shipment.address_updated')).find(
      (e) => e.data.shipment.id === booked.shipment_id,
    )!;
    expect(event.data).toMatchObject({
      courier: { outcome: 'told', message: null },
      changed: ['address', 'landmark'],
      alternate_phone: null,
      address_validity: 'valid',
    });
    expect((await listed(whatsappAccount.apiKey, booked.shipment_id))!.shipping_address).toMatchObject({
      alternate_phone: null,
    });
  });
});
