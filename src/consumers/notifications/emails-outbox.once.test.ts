import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, STORES, post, UNKNOWN_ID } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { until } from '../../../test/webhook-receiver.js';

// Without SMTP_URL (the default), customer e-mails are composed and kept in an outbox the merchant
// reads at GET /shipments/{id or AWB}/emails.

let ctx: TestContext;
let apiKey: string;
let otherKey: string;
let warehouseId: string;

beforeAll(async () => {
  ctx = await createTestApp({ settings: { workers: { pollIntervalMs: 100 } }, delivery: ['notifications'] });
  apiKey = (await ctx.createAccount('Outbox Traders')).apiKey;
  otherKey = (await ctx.createAccount()).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  const store = await post(ctx, apiKey, STORES, {
    store_name: 'outbox-kurtas',
    brand_name: 'Outbox Kurtas',
    support_email: 'help@outbox.example',
  });
  expect(store.statusCode, store.body).toBe(201);
});
afterAll(() => ctx?.close());

const emails = (idOrAwb: string, key: string | null = apiKey) =>
  ctx.app.inject({
    method: 'GET',
    url: `/custom/api/v1/shipments/${encodeURIComponent(idOrAwb)}/emails`,
    headers: key ? authed(key) : {},
  });
const notifications = async (shipmentId: string) =>
  (
    await ctx.app.inject({
      method: 'GET',
      url: `/custom/api/v1/shipments/${shipmentId}/notifications`,
      headers: authed(apiKey),
    })
  ).json().data;

describe('the e-mail outbox', () => {
  it('keeps the booked e-mail as composed: subject, recipient, text and HTML, by shipment id and by AWB', async () => {
    const booked = await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, { store_name: 'outbox-kurtas', order_id: 'OUTBOX-1', carrier_id: SHADOWFAX }),
    );
    await until(
      async () => (await emails(booked.shipment_id)).json().data.length === 1,
      'the booked e-mail in the outbox',
    );
    const byId = await emails(booked.shipment_id);
    expect(byId.statusCode).toBe(200);
    const [email] = byId.json().data;
    expect(email).toEqual({
      id: expect.any(String),
      event_id: expect.any(String),
      notify_event: 'shipped',
      status: 'outbox',
      to: 'asha@example.com',
      subject: 'Your Outbox Kurtas order OUTBOX-1 has shipped',
      text: expect.stringContaining(booked.track_url!),
      html: expect.stringContaining('Outbox Kurtas'),
      created_at: expect.any(String),
      composed_at: expect.any(String),
      sent_at: null,
    });
    expect(email.text.split('\n')[0]).toBe('Outbox Kurtas');
    expect(email.html).toMatch(/^<!doctype html>/);
    expect(email.html).toContain(`href="${booked.track_url}"`);
    expect((await emails(booked.awb_code!)).json()).toEqual(byId.json());
    // The notifications list tells the same e-mail apart from a sent one.
    expect(await notifications(booked.shipment_id)).toMatchObject([
      { id: email.id, status: 'outbox', skip_reason: null, sent_at: null },
    ]);
  });

  it('an order without an e-mail address is skipped as no_email_address (no recipient), and nothing is in the outbox', async () => {
    const booked = await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, { billing_email: undefined, carrier_id: SHADOWFAX }),
    );
    await until(async () => (await notifications(booked.shipment_id)).length === 1, 'the booked notification');
    expect(await notifications(booked.shipment_id)).toMatchObject([
      { status: 'skipped', skip_reason: 'no_email_address', recipient: null },
    ]);
    expect((await emails(booked.shipment_id)).json()).toEqual({ data: [] });
  });

  it("answers only the account's own shipments: another account's id or AWB and unknown ones are 404, no credential 401", async () => {
    const booked = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    for (const [id, key] of [
      [booked.shipment_id, otherKey],
      [booked.awb_code!, otherKey],
      [UNKNOWN_ID, apiKey],
      ['NO-SUCH-AWB', apiKey],
    ] as const) {
      const response = await emails(id, key);
      expect(response.statusCode, id).toBe(404);
      expect(response.json()).toEqual({
        code: 'shipment_not_found',
        message: 'Shipment not found',
        errors: ['Shipment not found'],
      });
    }
    expect((await emails(booked.shipment_id, null)).statusCode).toBe(401);
    // A malformed id is a shipment that is not there; a NUL byte is bad input, naming the field.
    expect((await emails('X'.repeat(65))).statusCode).toBe(404);
    const nul = await ctx.app.inject({
      method: 'GET',
      url: '/custom/api/v1/shipments/abc%00def/emails',
      headers: authed(apiKey),
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().details[0].field).toBe('id');
  });
});
