import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { expectAccessible, launchChromium } from '../../../test/browser.js';
import { authed, STORES, V1 } from '../../../test/kit/http.js';
import { deliveredForward } from '../../../test/kit/returns.js';
import { createStore } from '../../../test/kit/stores.js';
import { merchant } from '../../../test/kit/warehouses.js';

// The buyer asks for a return on a phone (390 px wide), in chromium, from the tracking link: the
// link on the delivered shipment's page, the form, a pickup pincode no courier serves named beside
// its field, a photo, the request sent and followed on the same page; axe checks each page.

const ARTIFACTS = path.resolve('test-artifacts', 'tracking-page', process.env.DAKIYA_TEST_ENGINE ?? 'pglite');

let ctx: TestContext;
let browser: Browser;
let origin: string;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

describe('the return form in chromium at 390 px', () => {
  it('from the delivered page to a request the store sees, with its photo', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const m = await merchant(ctx);
    const store = await createStore(ctx, m.apiKey, { store_name: 'kurta-co', brand_name: 'Kurta Co' });
    const policy = await ctx.app.inject({
      method: 'PUT',
      url: `${STORES}/${store.id}/return-policy`,
      headers: authed(m.apiKey),
      payload: {
        window_days: 7,
        reasons: ['size_issue', 'damaged'],
        non_returnable_skus: [],
        non_returnable_categories: [],
      },
    });
    expect(policy.statusCode).toBe(200);
    const forward = await deliveredForward(ctx, m, {
      storeName: store.store_name,
      items: [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 2, selling_price: 499 }],
    });
    ctx.clock.set('2026-11-22T05:00:00.000Z');

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: true });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    expect((await page.goto(`${origin}${new URL(forward.track_url!).pathname}?lang=en`))?.status()).toBe(200);
    await page.getByRole('link', { name: 'Return or exchange items' }).click();
    expect(await page.locator('h2#return-title').textContent()).toBe('Return or exchange items');
    await expectAccessible(page, 'the return form');
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    await page.getByLabel('How many of Cotton Kurta').selectOption('1');
    await page.getByLabel('Reason').selectOption({ label: 'Size or fit is not right' });
    await page.getByLabel('Another size or colour').check();
    await page.getByLabel(/^Which size or colour/).fill('Size L');
    await page.getByLabel('Pincode').fill('900099');
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#c83c3c' } })
      .jpeg()
      .toBuffer();
    await page
      .getByLabel(/^Photos of the items/)
      .setInputFiles({ name: 'kurta.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Send the request' }).click();
    const refusal =
      'No courier can collect from this pincode. Please give another pickup address or contact the seller.';
    expect(await page.locator('#pickup-pincode-error').textContent()).toBe(refusal);
    expect(await page.getByLabel('Pincode').getAttribute('aria-describedby')).toBe('pickup-pincode-error');
    expect(await page.getByRole('alert').textContent()).toContain(refusal);
    // The choices were kept; a photo is chosen again (a browser never refills a file input).
    expect(await page.getByLabel('How many of Cotton Kurta').inputValue()).toBe('1');
    expect(await page.getByLabel(/^Which size or colour/).inputValue()).toBe('Size L');
    await expectAccessible(page, 'the form with a refused pincode');
    await page.screenshot({ path: path.join(ARTIFACTS, 'return-form-refused-390.png'), fullPage: true });

    await page.getByLabel('Pincode').fill('400005');
    await page
      .getByLabel(/^Photos of the items/)
      .setInputFiles({ name: 'kurta.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByRole('button', { name: 'Send the request' }).click();
    expect(await page.getByRole('status').textContent()).toBe(
      'Your request is sent. The store will look at it and tell you what it decides.',
    );
    expect(await page.locator('li.request').textContent()).toBe(
      'Being reviewed by the storeAsked on Sunday, 22 NovemberCotton Kurta × 1 · Exchange for Size L',
    );
    await expectAccessible(page, 'the request sent');
    await page.screenshot({ path: path.join(ARTIFACTS, 'return-form-sent-390.png'), fullPage: true });
    await context.close();

    const listed = await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(m.apiKey) });
    expect(listed.json().data).toEqual([
      expect.objectContaining({
        status: 'pending',
        items: [{ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', quantity: 1 }],
        resolution: 'exchange',
        exchange_for: 'Size L',
        pickup_address: expect.objectContaining({ pincode: '400005' }),
        photos: [expect.objectContaining({ content_type: 'image/jpeg', width: 1200, height: 900 })],
      }),
    ]);
  });
});
