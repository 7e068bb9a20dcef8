import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { ORDER_TRACKING, post, STORES } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';

// The tracking page as customers see it: Debian's chromium (apt, as .ci/run installs it) driven by
// playwright-core, against the app listening on 127.0.0.1. Screenshots are kept in test-artifacts/.

const ARTIFACTS = path.resolve('test-artifacts', 'tracking-page', process.env.DAKIYA_TEST_ENGINE ?? 'pglite');

let ctx: TestContext;
let browser: Browser;
let origin: string;
let apiKey: string;
let warehouseId: string;
let carrierToken: string;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  // One browser for the file (its start is most of a browser test's cost); each test opens its own contexts.
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Acme Retail')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
  // A real 48×48 PNG, so the browser has an image to decode (the size it reports proves it loaded).
  const logo = await pngOf(48, 48);
  await post(ctx, apiKey, STORES, {
    store_name: 'acme-apparel',
    brand_name: 'Acme Apparel',
    logo,
    support_phone: '1800-123-4567',
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

/** A solid PNG made by chromium itself (a canvas), base64. */
async function pngOf(width: number, height: number): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // A string: the code runs in the browser, whose DOM types this project does not compile against.
    const dataUrl: string = await page.evaluate(`(() => {
      const canvas = document.createElement('canvas');
      canvas.width = ${width};
      canvas.height = ${height};
      const g = canvas.getContext('2d');
      g.fillStyle = '#1f4e8c';
      g.fillRect(0, 0, ${width}, ${height});
      return canvas.toDataURL('image/png');
    })()`);
    return dataUrl.split(',')[1]!;
  } finally {
    await context.close();
  }
}

/** Courier scans recorded 4 hours after booking (intake refuses scans from the future), the clock then put back. */
async function scans(
  booked: Booked,
  events: { status: string; minutes: number; location: string; ndr_reason?: string }[],
) {
  ctx.clock.set(at(240));
  try {
    await sendEvents(
      ctx,
      carrierToken,
      events.map((e) => ({
        awb: booked.awb_code!,
        status: e.status,
        event_time: at(e.minutes),
        location: e.location,
        ...(e.ndr_reason && { ndr_reason: e.ndr_reason }),
      })),
    );
  } finally {
    ctx.clock.set(at(0));
  }
}

const pageUrl = (booked: Booked, query = '') => `${origin}${new URL(booked.track_url!).pathname}${query}`;

describe('the tracking page in chromium', () => {
  it('shows brand, loaded logo, status and the journey newest first, readable at 360 px and 1280 px, and in Hindi', async () => {
    const booked = await book(ctx, apiKey, warehouseId, { storeName: 'acme-apparel', customer: 'Asha' });
    await scans(booked, [
      { status: 'in_transit', minutes: 60, location: 'Okhla Hub' },
      { status: 'out_for_delivery', minutes: 120, location: 'Andheri DC' },
    ]);
    for (const width of [360, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
      const page = await context.newPage();
      // The kit's customer is in Maharashtra (a Marathi page by default): English asked for.
      const response = await page.goto(pageUrl(booked, '?lang=en'));
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toBe('Acme Apparel');
      const logo = page.locator('header img');
      expect(await logo.getAttribute('alt')).toBe('Acme Apparel logo');
      // naturalWidth is 0 for an image that failed to load; script is off for the page, not for evaluate.
      expect(
        await page.evaluate(
          "(() => { const img = document.querySelector('header img'); return img.complete && img.naturalWidth; })()",
        ),
      ).toBe(48);
      expect(await page.locator('#status').textContent()).toBe('Out for delivery');
      expect(await page.locator('#timeline + ol li strong').allTextContents()).toEqual([
        'Out for delivery',
        'On its way',
        'Courier booked',
        'Order placed',
      ]);
      // Nothing wider than the screen: no sideways scrolling on a small phone.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(ARTIFACTS, `in-transit-${width}.png`), fullPage: true });
      await context.close();
    }
    const context = await browser.newContext({
      viewport: { width: 360, height: 800 },
      locale: 'hi-IN',
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(pageUrl(booked));
    expect(await page.locator('html').getAttribute('lang')).toBe('hi');
    expect(await page.locator('#status').textContent()).toBe('डिलीवरी के लिए निकला');
    await page.screenshot({ path: path.join(ARTIFACTS, 'in-transit-360-hi.png'), fullPage: true });
    await page.getByRole('link', { name: 'English', exact: true }).click();
    expect(await page.locator('#status').textContent()).toBe('Out for delivery');
    await context.close();
  });

  it('takes a reattempt request from the form, end to end, without JavaScript', async () => {
    const booked = await book(ctx, apiKey, warehouseId, { storeName: 'acme-apparel' });
    await scans(booked, [
      { status: 'in_transit', minutes: 60, location: 'Okhla Hub' },
      { status: 'ndr_raised', minutes: 120, location: 'Andheri DC', ndr_reason: 'customer_unavailable' },
    ]);
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(pageUrl(booked, '?lang=en'));
    expect(await page.locator('#status').textContent()).toBe('Delivery attempt failed');
    await page.getByLabel('Monday, 23 November').check();
    await page.getByLabel(/^Landmark/).fill('Opposite Sundance Cafe');
    await page.getByLabel(/^Phone number for the courier/).fill('98765 43210');
    await page.screenshot({ path: path.join(ARTIFACTS, 'ndr-form-360.png'), fullPage: true });
    await page.getByRole('button', { name: 'Request delivery' }).click();
    await page.waitForURL(pageUrl(booked, '?lang=en'));
    expect(await page.getByRole('status').textContent()).toBe('Another attempt is requested for Monday, 23 November.');
    await page.screenshot({ path: path.join(ARTIFACTS, 'ndr-requested-360.png'), fullPage: true });
    await context.close();

    const tracked = (await post(ctx, apiKey, ORDER_TRACKING, { awbs: [booked.awb_code] })).json().result[
      booked.awb_code!
    ].tracking_data;
    expect(tracked.ndr_actions).toEqual([
      expect.objectContaining({
        action: 'reattempt',
        requested_by: 'customer',
        details: {
          reattempt_date: '2026-11-23',
          updated_address: { landmark: 'Opposite Sundance Cafe' },
          updated_phone_number: '+919876543210',
        },
      }),
    ]);
  });
});
