import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { expectAccessible, launchChromium } from '../../../test/browser.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, ORCHESTRATE, post, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { pdfText } from '../../../test/kit/labels.js';
import { orderBodyFromFields } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { MSG91_AUTH_KEY, startMsg91Simulator } from '../../../test/msg91-simulator.js';
import { until } from '../../../test/webhook-receiver.js';

// The buyer's "update your address" form and the NDR page's refusal, in chromium, opened from the
// link the SMS carried; axe checks each page as the buyer sees it. The pages carry no script (their
// CSP allows none), so the browser's JavaScript is left on: axe runs in it, and its timers would
// never fire with it off.

const ARTIFACTS = path.resolve('test-artifacts', 'tracking-page', process.env.DAKIYA_TEST_ENGINE ?? 'pglite');

let sms: Awaited<ReturnType<typeof startMsg91Simulator>>;
let ctx: TestContext;
let browser: Browser;
let origin: string;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  sms = await startMsg91Simulator();
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 50 },
      messaging: { smsBaseUrl: sms.baseUrl, retryDelaysSeconds: [0.05], timeoutMs: 5000 },
    },
    delivery: ['messaging'],
  });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Chai Co')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  for (const [url, payload] of [
    [
      `${V1}/messaging/channels/sms`,
      { enabled: true, sender: 'CHAICO', auth_key: MSG91_AUTH_KEY, address_template: { en: '1107168000000000009' } },
    ],
    [`${V1}/messaging/confirmation-policy`, { mode: 'off', language: 'en', address_update_for: ['incomplete'] }],
  ] as const) {
    const response = await ctx.app.inject({ method: 'PUT', url, headers: authed(apiKey), payload });
    expect(response.statusCode, response.body).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await sms?.close();
});

const listed = async (shipmentId: string) =>
  ((await post(ctx, apiKey, SHIPMENTS, {})).json().data as { id: string; attributes: Record<string, unknown> }[]).find(
    (s) => s.id === shipmentId,
  )!.attributes;

describe('the "update your address" form in chromium', () => {
  it('opened from the SMS link: a bad pincode is named beside its field; a good answer is confirmed and changes the shipment', async () => {
    // No house number or street word: incomplete, so the buyer is asked.
    const body = {
      ...orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, cod: true }),
      billing_address: 'Asha Sharma Colaba',
    };
    const booked = await post(ctx, apiKey, ORCHESTRATE, body);
    expect(booked.statusCode, booked.body).toBe(200);
    const { shipment_id: shipmentId, awb_code: awb, channel_order_id: orderId } = booked.json().payload;
    await until(() => sms.sends.some((s) => s.body.recipients?.[0]?.order_id === orderId), 'the SMS');
    const link = new URL(
      sms.sends.find((s) => s.body.recipients?.[0]?.order_id === orderId)!.body.recipients![0]!.update_url!,
    );
    expect(link.pathname).toMatch(/^\/t\/[A-Za-z0-9_-]{22}\/address$/);

    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    // The link as the buyer's phone opens it, on this test server's origin.
    expect((await page.goto(`${origin}${link.pathname}${link.search}`))?.status()).toBe(200);
    expect(await page.locator('h1, h2').allTextContents()).toContain('Update your delivery address');
    await expectAccessible(page, 'the address form');
    await page.getByLabel('House or flat number, building and street').fill('14, Shivaji Marg');
    await page.getByLabel(/^Landmark/).fill('Near Colaba Market');
    await page.getByLabel('Pincode').fill('999999');
    await page.getByLabel('City').fill('Mumbai');
    await page.getByLabel('State').fill('Maharashtra');
    await page.getByLabel(/^Another phone number/).fill('98765 43210');
    await page.getByRole('button', { name: 'Save the address' }).click();
    // Beside the field: its own message, tied to it for screen readers; and in the summary at the top.
    expect(await page.locator('#pincode-error').textContent()).toBe('Pincode: this pincode does not exist');
    expect(await page.getByLabel('Pincode').getAttribute('aria-describedby')).toBe('pincode-error');
    expect(await page.getByLabel('Pincode').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').textContent()).toContain('Pincode: this pincode does not exist');
    await expectAccessible(page, 'the form with a refused pincode');
    await page.screenshot({ path: path.join(ARTIFACTS, 'address-form-refused-360.png'), fullPage: true });
    expect(await listed(shipmentId)).toMatchObject({ address_validity: 'incomplete' });

    // The other answers were kept: only the pincode is put right.
    expect(await page.getByLabel('House or flat number, building and street').inputValue()).toBe('14, Shivaji Marg');
    await page.getByLabel('Pincode').fill('400001');
    await page.getByRole('button', { name: 'Save the address' }).click();
    expect(await page.getByRole('status').textContent()).toBe('Thank you: your address is updated.');
    await expectAccessible(page, 'the confirmation');
    await page.screenshot({ path: path.join(ARTIFACTS, 'address-form-saved-360.png'), fullPage: true });
    await context.close();

    expect(await listed(shipmentId)).toMatchObject({
      address_validity: 'valid',
      address_reasons: [],
      rto_risk: 'low',
      shipping_address: expect.objectContaining({
        alternate_phone: '+919876543210',
        city: 'Mumbai',
        state: 'Maharashtra',
        zip: '400001',
      }),
    });
    // The label is drawn from the shipment as it stands: the new address and landmark.
    const label = await ctx.app.inject({
      method: 'GET',
      url: `${SHIPMENTS}/${awb}/label?format=pdf`,
      headers: authed(apiKey),
    });
    expect(label.statusCode).toBe(200);
    const text = await pdfText(label.rawPayload);
    expect(text).toContain('14, Shivaji Marg');
    expect(text).toContain('Near Colaba Market');
  });

  it('after a failed delivery the buyer refuses the parcel: the box, the button, the RTO', async () => {
    const shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
    const booked = (
      await post(ctx, apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX, cod: true }))
    ).json().payload;
    ctx.clock.set(at(240));
    await sendEvents(ctx, shadowfax, [
      { awb: booked.awb_code, status: 'in_transit', event_time: at(60), location: 'Okhla Hub' },
      {
        awb: booked.awb_code,
        status: 'ndr_raised',
        ndr_reason: 'refused',
        event_time: at(120),
        location: 'Andheri DC',
      },
    ]);
    ctx.clock.set(at(0));
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const url = `${origin}${new URL(booked.track_url).pathname}?lang=en`;
    await page.goto(url);
    await expectAccessible(page, 'the NDR page with its two forms');
    await page.getByLabel('Yes, I do not want this parcel: send it back to the store').check();
    await page.getByRole('button', { name: 'Refuse the delivery' }).click();
    await page.waitForURL(url);
    expect(await page.locator('#status').textContent()).toBe('Returning to the seller');
    await expectAccessible(page, 'the page after the refusal');
    await page.screenshot({ path: path.join(ARTIFACTS, 'ndr-refused-360.png'), fullPage: true });
    await context.close();
    expect(await listed(booked.shipment_id)).toMatchObject({ status: 'rto_initiated', ndr_all_outcomes: ['rto'] });
  });
});
