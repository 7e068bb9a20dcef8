import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, post, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { labelPath, popplerRead } from '../../../test/kit/labels.js';
import { eventsSettled } from '../../../test/databases.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
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

let wa: WhatsAppSimulator;
let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let warehouseId: string;
let asked: Booked;
let prepaid: Booked;

const put = (url: string, payload: unknown) =>
  ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload: payload as object });
const confirmationOf = async (shipmentId: string) =>
  (
    await ctx.app.inject({ method: 'GET', url: `${SHIPMENTS}/${shipmentId}/confirmation`, headers: authed(apiKey) })
  ).json().data;
const listed = async (filters: Record<string, unknown>, key = apiKey) =>
  ((await post(ctx, key, SHIPMENTS, filters)).json().data as { id: string; attributes: Record<string, unknown> }[])
    .map((s) => s.id)
    .sort();

/** A signed label link, as GET /shipments/{id}/label answers it. */
const labelLink = async (shipmentId: string) =>
  (await ctx.app.inject({ method: 'GET', url: `${SHIPMENTS}/${shipmentId}/label`, headers: authed(apiKey) })).json()
    .label_url as string;
/** The label behind a signed link, as pdftotext reads it (the printer's fetch). */
async function labelText(link: string) {
  const response = await ctx.app.inject({ method: 'GET', url: labelPath(link) });
  expect(response.statusCode, response.body).toBe(200);
  return (await popplerRead(response.rawPayload)).pageTexts.join('\n');
}
const printedAt = async (shipmentId: string) => {
  const [row] = await queryRows<{ at: Date | null }>(
    ctx.database.db,
    sql`select label_printed_at as at from shipments where id = ${shipmentId}`,
  );
  return row!.at && new Date(row!.at).toISOString();
};
/** The shipment's events of one type, as GET /events lists them (read until the feed has caught up). */
async function shipmentEvents(shipmentId: string, type: string, atLeast = 0) {
  let found: { data: Record<string, unknown> & { shipment: { id: string } } }[] = [];
  await until(async () => {
    await eventsSettled(ctx.database);
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/events?limit=100&type[]=${type}`,
      headers: authed(apiKey),
    });
    found = (response.json().data as typeof found).filter((e) => e.data.shipment.id === shipmentId);
    return found.length >= atLeast;
  }, `${atLeast} ${type} events`);
  return found;
}

beforeAll(async () => {
  wa = await startWhatsAppSimulator();
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 50 },
      messaging: { whatsappBaseUrl: wa.baseUrl, retryDelaysSeconds: [0.05], timeoutMs: 5000 },
    },
    delivery: ['messaging'],
  });
  apiKey = (await ctx.createAccount('Chai Co')).apiKey;
  otherKey = (await ctx.createAccount()).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  expect(
    (
      await put(`${V1}/messaging/channels/whatsapp`, {
        enabled: true,
        phone_number_id: WA_PHONE_NUMBER_ID,
        access_token: WA_TOKEN,
        app_secret: WA_APP_SECRET,
        confirmation_template: { en: 'cod_confirm_en' },
      })
    ).statusCode,
  ).toBe(200);
  expect(
    (
      await put(`${V1}/messaging/confirmation-policy`, {
        mode: 'all_cod',
        payment_link_template: 'https://pay.example.in/cod?order={order_id}&amount={amount}',
      })
    ).statusCode,
  ).toBe(200);
  // As the merchant registers it in WhatsApp Manager: Confirm, Cancel, and Pay online to their link template up to its first placeholder.
  wa.registerTemplate('cod_confirm_en', [
    { type: 'quick_reply' },
    { type: 'quick_reply' },
    { type: 'url', url: 'https://pay.example.in/cod?order={{1}}' },
  ]);
  prepaid = await book(ctx, apiKey, warehouseId, { cod: false });
  asked = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
  await until(
    async () => (await confirmationOf(asked.shipment_id)).messages[0]?.status === 'sent',
    'the confirmation to go out',
  );
});
afterAll(async () => {
  await ctx.close();
  await wa.close();
});

describe('the WhatsApp confirmation', () => {
  it("carries the payment link as its third button, a URL button whose suffix completes the template's URL", async () => {
    const send = wa.sends.find((s) => s.messageId !== null && s.body.template.name === 'cod_confirm_en')!;
    const link = `https://pay.example.in/cod?order=${encodeURIComponent(asked.channel_order_id)}&amount=998`;
    expect(send.body.template.components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Chai Co' },
          { type: 'text', text: asked.channel_order_id },
          { type: 'text', text: '998' },
        ],
      },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: '0',
        parameters: [{ type: 'payload', payload: `confirm:${asked.shipment_id}` }],
      },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: '1',
        parameters: [{ type: 'payload', payload: `cancel:${asked.shipment_id}` }],
      },
      {
        type: 'button',
        sub_type: 'url',
        index: '2',
        parameters: [{ type: 'text', text: `${encodeURIComponent(asked.channel_order_id)}&amount=998` }],
      },
    ]);
    // The button opens the very link the confirmation offers.
    expect(send.buttonUrls).toEqual({ '2': link });
    expect((await confirmationOf(asked.shipment_id)).confirmation.payment_link).toBe(link);
  });
});

describe('listing', () => {
  it('filters on oc_all_outcomes[] and cod_to_prepaid[] and shows the confirmation on each shipment', async () => {
    expect(await listed({ 'oc_all_outcomes[]': ['pending'] })).toEqual([asked.shipment_id]);
    expect(await listed({ oc_all_outcomes: 'confirmed' })).toEqual([]);
    expect(await listed({ 'cod_to_prepaid[]': ['offered', 'paid'] })).toEqual([asked.shipment_id]);
    expect(await listed({ 'oc_all_outcomes[]': ['pending'] }, otherKey)).toEqual([]);
    const page = (await post(ctx, apiKey, SHIPMENTS, {})).json();
    const byId = new Map(
      (page.data as { id: string; attributes: Record<string, unknown> }[]).map((s) => [s.id, s.attributes]),
    );
    expect(byId.get(asked.shipment_id)!.order_confirmation).toEqual({
      outcome: 'pending',
      held: false,
      channel: 'whatsapp',
      cod_to_prepaid: 'offered',
    });
    expect(byId.get(prepaid.shipment_id)!.order_confirmation).toBeNull();
    expect(page.meta.total).toBe(2);
  });
});

describe('COD to prepaid', () => {
  const paid = (shipmentId: string, body: unknown, key = apiKey) =>
    post(ctx, key, `${SHIPMENTS}/${shipmentId}/cod-to-prepaid`, body);

  it('refuses an amount that is not the one to collect (422), another account (404) and bad input (400 naming every field)', async () => {
    const wrong = await paid(asked.shipment_id, { payment_reference: 'pay_1', amount: 500 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details).toEqual([
      { field: 'amount', message: 'amount 500 is not the 998 to collect on this order' },
    ]);
    expect((await paid(asked.shipment_id, { payment_reference: 'pay_1', amount: 998 }, otherKey)).statusCode).toBe(404);
    const bad = await paid(asked.shipment_id, { payment_reference: '', amount: -1 });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['amount', 'payment_reference']);
    expect((await confirmationOf(asked.shipment_id)).confirmation.cod_to_prepaid).toBe('offered');
  });

  let bookedLink: string;
  it('hands out label links without counting them as printed: only a fetched PDF is', async () => {
    bookedLink = await labelLink(asked.shipment_id);
    expect(await printedAt(asked.shipment_id)).toBeNull();
  });

  it('turns the order prepaid: nothing to collect, no COD fee, the confirmation confirmed and paid, an event, a fresh label link', async () => {
    const before = (await post(ctx, apiKey, SHIPMENTS, { 'oc_all_outcomes[]': ['pending'] })).json().data[0].attributes;
    expect(before).toMatchObject({ is_cod: true, cod_amount: 998 });
    expect(before.fare_breakup.cod_charges).toBeGreaterThan(0);
    const response = await paid(asked.shipment_id, { payment_reference: 'pay_NkP2x9QwErTy12', amount: 998 });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      shipment_id: asked.shipment_id,
      payment_method: 'prepaid',
      cod_collectible: 0,
      payment: { reference: 'pay_NkP2x9QwErTy12', amount: 998 },
      charges: { freight: before.fare_breakup.forward_charges, cod_charges: 0 },
      confirmation: {
        outcome: 'confirmed',
        held: false,
        answered_via: 'payment',
        cod_to_prepaid: 'paid',
        payment_reference: 'pay_NkP2x9QwErTy12',
        paid_at: ctx.clock.now().toISOString(),
      },
    });
    expect(data.label_url).toMatch(/^https:\/\/dakiya\.test\/public\/v1\/labels\//);
    // Never printed, so nothing to re-issue: any link, the booking's included, prints PREPAID.
    expect(data.label_reissued).toBe(false);
    expect(await labelText(data.label_url)).toContain('PREPAID');
    expect(await labelText(bookedLink)).toContain('PREPAID');
    expect(await shipmentEvents(asked.shipment_id, 'shipment.label_reissued')).toEqual([]);
    const after = (await post(ctx, apiKey, SHIPMENTS, { 'cod_to_prepaid[]': ['paid'] })).json().data;
    expect(after).toHaveLength(1);
    expect(after[0].attributes).toMatchObject({
      is_cod: false,
      cod_amount: 0,
      order_confirmation: { outcome: 'confirmed', cod_to_prepaid: 'paid' },
    });
    expect(after[0].attributes.fare_breakup.cod_charges).toBe(0);
    // On PostgreSQL the feed shows an event once no older transaction anywhere on the server is open
    // (other test files share it), so it is read until it appears rather than at once.
    const listed = async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: `${V1}/events?type[]=shipment.cod_to_prepaid`,
          headers: authed(apiKey),
        })
      ).json().data;
    await until(async () => (await listed()).length > 0, 'the shipment.cod_to_prepaid event listed');
    const events = await listed();
    expect(events).toHaveLength(1);
    expect(events[0].data.shipment.attributes.is_cod).toBe(false);
    const again = await paid(asked.shipment_id, { payment_reference: 'pay_again', amount: 998 });
    expect(again.statusCode).toBe(409);
  });

  it('re-issues a label already printed with the COD amount: the old link 410, the new one label 2 and PREPAID, shipment.label_reissued recorded', async () => {
    const printed = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
    await until(
      async () => (await confirmationOf(printed.shipment_id)).messages[0]?.status === 'sent',
      'the confirmation to go out',
    );
    const oldLink = await labelLink(printed.shipment_id);
    const first = await labelText(oldLink);
    expect(first).toContain('COD: collect');
    expect(first).not.toContain('PREPAID');
    expect(await printedAt(printed.shipment_id)).toBe(ctx.clock.now().toISOString());
    // Links are signed to the second: a re-issue refuses those signed in an earlier one.
    ctx.clock.advance(2000);
    const response = await paid(printed.shipment_id, { payment_reference: 'pay_Printed000001', amount: 998 });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ payment_method: 'prepaid', cod_collectible: 0, label_reissued: true });
    expect(data.label_url).not.toBe(oldLink);
    const old = await ctx.app.inject({ method: 'GET', url: labelPath(oldLink) });
    expect(old.statusCode).toBe(410);
    expect(old.json().message).toBe(
      `The label of ${printed.awb_code} was re-issued after this link was made: fetch the new label`,
    );
    const fresh = await labelText(data.label_url);
    expect(fresh).toContain('PREPAID');
    expect(fresh).toContain('Label 2, re-issued 2026-11-20 12:00 IST');
    expect(fresh).not.toContain('COD: collect');
    // The new version counts as printed from its own first fetch.
    expect(await printedAt(printed.shipment_id)).toBe(ctx.clock.now().toISOString());
    const reissued = await shipmentEvents(printed.shipment_id, 'shipment.label_reissued', 1);
    expect(reissued.map((e) => [e.data.label_version, e.data.previous_version, e.data.reason])).toEqual([
      [2, 1, 'COD order paid online: now prepaid'],
    ]);
    const [converted] = await shipmentEvents(printed.shipment_id, 'shipment.cod_to_prepaid', 1);
    expect(converted!.data).toMatchObject({ label_reissued: true, label_url: data.label_url });
  });
});

describe('a template registered without the Pay online button', () => {
  it('is refused by the Cloud API (132000: the parameters do not match), for good, and recorded as failed', async () => {
    wa.registerTemplate('cod_confirm_en', [{ type: 'quick_reply' }, { type: 'quick_reply' }]);
    try {
      const booked = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
      await until(
        async () => (await confirmationOf(booked.shipment_id)).messages[0]?.status === 'failed',
        'the refusal',
      );
      expect((await confirmationOf(booked.shipment_id)).messages[0]).toMatchObject({
        attempts: 1,
        last_error:
          'WhatsApp refused (400, code 132000): (#132000) Number of parameters does not match the expected number of params',
      });
    } finally {
      wa.registerTemplate('cod_confirm_en', [
        { type: 'quick_reply' },
        { type: 'quick_reply' },
        { type: 'url', url: 'https://pay.example.in/cod?order={{1}}' },
      ]);
    }
  });
});
