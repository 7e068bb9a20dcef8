import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, post, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';
import { startWhatsAppSimulator, WA_APP_SECRET, WA_PHONE_NUMBER_ID, WA_TOKEN, type WhatsAppSimulator } from '../../../test/whatsapp-simulator.js';
import { pumpConsumer } from '../../events/outbox.js';

let wa: WhatsAppSimulator;
let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let warehouseId: string;
let asked: Booked;
let prepaid: Booked;

const put = (url: string, payload: unknown) => ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload: payload as object });
const confirmationOf = async (shipmentId: string) => (await ctx.app.inject({ method: 'GET', url: `${SHIPMENTS}/${shipmentId}/confirmation`, headers: authed(apiKey) })).json().data;
const listed = async (filters: Record<string, unknown>, key = apiKey) =>
  ((await post(ctx, key, SHIPMENTS, filters)).json().data as { id: string; attributes: Record<string, unknown> }[]).map((s) => s.id).sort();

beforeAll(async () => {
  wa = await startWhatsAppSimulator();
  ctx = await createTestApp({ messaging: { worker: true, pollIntervalMs: 50, whatsappBaseUrl: wa.baseUrl, retryDelaysSeconds: [0.05], timeoutMs: 5000 } });
  await pumpConsumer(ctx.database.db, { name: 'buyer-messaging', handle: async () => {} }, new Date());
  apiKey = (await ctx.createAccount('Chai Co')).apiKey;
  otherKey = (await ctx.createAccount()).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  expect((await put(`${V1}/messaging/channels/whatsapp`, { enabled: true, phone_number_id: WA_PHONE_NUMBER_ID, access_token: WA_TOKEN, app_secret: WA_APP_SECRET, confirmation_template: { en: 'cod_confirm_en' } })).statusCode).toBe(200);
  expect(
    (await put(`${V1}/messaging/confirmation-policy`, { mode: 'all_cod', payment_link_template: 'https://pay.example.in/cod?order={order_id}&amount={amount}' })).statusCode,
  ).toBe(200);
  // As the merchant registers it in WhatsApp Manager: Confirm, Cancel, and Pay online to their link template up to its first placeholder.
  wa.registerTemplate('cod_confirm_en', [{ type: 'quick_reply' }, { type: 'quick_reply' }, { type: 'url', url: 'https://pay.example.in/cod?order={{1}}' }]);
  prepaid = await book(ctx, apiKey, warehouseId, { cod: false });
  asked = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
  await until(async () => (await confirmationOf(asked.shipment_id)).messages[0]?.status === 'sent', 'the confirmation to go out');
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
      { type: 'body', parameters: [{ type: 'text', text: 'Chai Co' }, { type: 'text', text: asked.channel_order_id }, { type: 'text', text: '998' }] },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: `confirm:${asked.shipment_id}` }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: `cancel:${asked.shipment_id}` }] },
      { type: 'button', sub_type: 'url', index: '2', parameters: [{ type: 'text', text: `${encodeURIComponent(asked.channel_order_id)}&amount=998` }] },
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
    const byId = new Map((page.data as { id: string; attributes: Record<string, unknown> }[]).map((s) => [s.id, s.attributes]));
    expect(byId.get(asked.shipment_id)!.order_confirmation).toEqual({ outcome: 'pending', held: false, channel: 'whatsapp', cod_to_prepaid: 'offered' });
    expect(byId.get(prepaid.shipment_id)!.order_confirmation).toBeNull();
    expect(page.meta.total).toBe(2);
  });
});

describe('COD to prepaid', () => {
  const paid = (shipmentId: string, body: unknown, key = apiKey) => post(ctx, key, `${SHIPMENTS}/${shipmentId}/cod-to-prepaid`, body);

  it('refuses an amount that is not the one to collect (422), another account (404) and bad input (400 naming every field)', async () => {
    const wrong = await paid(asked.shipment_id, { payment_reference: 'pay_1', amount: 500 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details).toEqual([{ field: 'amount', message: 'amount 500 is not the 998 to collect on this order' }]);
    expect((await paid(asked.shipment_id, { payment_reference: 'pay_1', amount: 998 }, otherKey)).statusCode).toBe(404);
    const bad = await paid(asked.shipment_id, { payment_reference: '', amount: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['amount', 'payment_reference']);
    expect((await confirmationOf(asked.shipment_id)).confirmation.cod_to_prepaid).toBe('offered');
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
      confirmation: { outcome: 'confirmed', held: false, answered_via: 'payment', cod_to_prepaid: 'paid', payment_reference: 'pay_NkP2x9QwErTy12', paid_at: ctx.clock.now().toISOString() },
    });
    expect(data.label_url).toMatch(/^https:\/\/dakiya\.test\/public\/v1\/labels\//);
    const after = (await post(ctx, apiKey, SHIPMENTS, { 'cod_to_prepaid[]': ['paid'] })).json().data;
    expect(after).toHaveLength(1);
    expect(after[0].attributes).toMatchObject({ is_cod: false, cod_amount: 0, order_confirmation: { outcome: 'confirmed', cod_to_prepaid: 'paid' } });
    expect(after[0].attributes.fare_breakup.cod_charges).toBe(0);
    // On PostgreSQL the feed shows an event once no older transaction anywhere on the server is open
    // (other test files share it), so it is read until it appears rather than at once.
    const listed = async () => (await ctx.app.inject({ method: 'GET', url: `${V1}/events?type[]=shipment.cod_to_prepaid`, headers: authed(apiKey) })).json().data;
    await until(async () => (await listed()).length > 0, 'the shipment.cod_to_prepaid event listed');
    const events = await listed();
    expect(events).toHaveLength(1);
    expect(events[0].data.shipment.attributes.is_cod).toBe(false);
    const again = await paid(asked.shipment_id, { payment_reference: 'pay_again', amount: 998 });
    expect(again.statusCode).toBe(409);
  });
});

describe('a template registered without the Pay online button', () => {
  it("is refused by the Cloud API (132000: the parameters do not match), for good, and recorded as failed", async () => {
    wa.registerTemplate('cod_confirm_en', [{ type: 'quick_reply' }, { type: 'quick_reply' }]);
    try {
      const booked = await book(ctx, apiKey, warehouseId, { cod: true, value: 998 });
      await until(async () => (await confirmationOf(booked.shipment_id)).messages[0]?.status === 'failed', 'the refusal');
      expect((await confirmationOf(booked.shipment_id)).messages[0]).toMatchObject({
        attempts: 1,
        last_error: 'WhatsApp refused (400, code 132000): (#132000) Number of parameters does not match the expected number of params',
      });
    } finally {
      wa.registerTemplate('cod_confirm_en', [{ type: 'quick_reply' }, { type: 'quick_reply' }, { type: 'url', url: 'https://pay.example.in/cod?order={{1}}' }]);
    }
  });
});
