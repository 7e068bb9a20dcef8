import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { expectAccessible, launchChromium } from '../../../test/browser.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { ORCHESTRATE, post } from '../../../test/kit/http.js';
import { book, type Booked, orderBodyFromFields } from '../../../test/kit/orders.js';
import { createStore } from '../../../test/kit/stores.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';

// The buyer's language, in the browser a buyer has (issue 46): the choice made on the page (?lang,
// then the cookie it leaves) wins; then the merchant's, on the order or the store; then the
// browser's among ours, English included; only then the shipping state's. And an AWB typed on a
// store's page shows where the parcel is, read-only, and opens nothing without the order's phone.
// Debian's chromium through playwright-core, one browser and one app for the file; the kit's
// buyers are in Mumbai, Maharashtra, whose language is Marathi.

const ARTIFACTS = path.resolve('test-artifacts', 'page-language');

let ctx: TestContext;
let browser: Browser;
let origin: string;
let apiKey: string;
let warehouseId: string;
let carrierToken: string;
let plainStoreId: string;
/** Booked in the store without a language, its journey at the destination hub, on the hour. */
let mumbai: Booked;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Acme Retail')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
  plainStoreId = (await createStore(ctx, apiKey, { store_name: 'acme-plain', brand_name: 'Acme Plain' })).id;
  await createStore(ctx, apiKey, { store_name: 'acme-hindi', brand_name: 'Acme Hindi', language: 'hi' });
  mumbai = await book(ctx, apiKey, warehouseId, { storeName: 'acme-plain', customer: 'Asha', phone: '9123456780' });
  // 08:30Z and 11:30Z: two in the afternoon and five in the evening in India.
  ctx.clock.set(at(360));
  try {
    await sendEvents(ctx, carrierToken, [
      { awb: mumbai.awb_code!, status: 'in_transit', event_time: at(120), location: 'Origin hub' },
      { awb: mumbai.awb_code!, status: 'in_transit', event_time: at(300), location: 'Destination hub' },
    ]);
  } finally {
    ctx.clock.set(at(0));
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

const pageUrl = (booked: Booked, query = '') => `${origin}${new URL(booked.track_url!).pathname}${query}`;

/** A phone's browser: 360 px, asking for `locale` first (script on only for axe: the pages have none). */
async function phone(locale: string, run: (context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 }, locale, javaScriptEnabled: true });
  context.setDefaultTimeout(10_000);
  try {
    await run(context);
  } finally {
    await context.close();
  }
}

const languageCookies = async (context: BrowserContext) =>
  (await context.cookies())
    .filter((c) => c.name === 'dakiya_lang')
    .map((c) => `${c.path}=${c.value}`)
    .sort();

describe("the buyer's language in chromium", () => {
  it('shows a Maharashtra buyer whose browser asks for en-IN the page in English, Marathi the first link at the top', async () => {
    await phone('en-IN', async (context) => {
      const page = await context.newPage();
      const response = await page.goto(pageUrl(mumbai));
      expect(await response?.request().headerValue('accept-language')).toBe('en-IN');
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.locator('#status').textContent()).toBe('On its way');
      const first = page.locator('nav a').first();
      expect(await first.textContent()).toBe('मराठी (Marathi)');
      expect(await first.getAttribute('href')).toBe(`${new URL(mumbai.track_url!).pathname}?lang=mr`);
      // The journey's places and times in English; nothing chosen, so nothing remembered.
      expect(await page.locator('#timeline + ol li .muted').allTextContents()).toEqual([
        '20 Nov 2026, 5:00 pm · Destination hub',
        '20 Nov 2026, 2:00 pm · Origin hub',
        '20 Nov 2026, 12:00 pm',
        '20 Nov 2026, 12:00 pm',
      ]);
      expect(await languageCookies(context)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'en-IN-maharashtra.png'), fullPage: true });

      // One tap: Marathi, the places and the time of day in Marathi too, and the choice remembered.
      await first.click();
      expect(await page.locator('html').getAttribute('lang')).toBe('mr');
      expect(await page.locator('#status').textContent()).toBe('वाटेत आहे');
      expect(await page.locator('#timeline + ol li .muted').first().textContent()).toBe(
        '२० नोव्हें, २०२६, संध्याकाळ ५:०० · गंतव्य हब',
      );
      expect(await page.locator('#timeline + ol li .muted').nth(1).textContent()).toBe(
        '२० नोव्हें, २०२६, दुपार २:०० · मूळ हब',
      );
      expect(await page.locator('nav a').first().textContent()).toBe('English');
      expect(await languageCookies(context)).toEqual(['/t=mr', '/track=mr']);
      await expectAccessible(page, 'the Marathi page');
      await page.screenshot({ path: path.join(ARTIFACTS, 'mr-picked.png'), fullPage: true });
    });
  });

  it('takes ?lang=mr over the browser and remembers it: the next visit without ?lang, and the store page, stay Marathi', async () => {
    await phone('en-IN', async (context) => {
      const page = await context.newPage();
      await page.goto(pageUrl(mumbai, '?lang=mr'));
      expect(await page.locator('html').getAttribute('lang')).toBe('mr');
      const cookies = (await context.cookies())
        .filter((c) => c.name === 'dakiya_lang')
        .sort((a, b) => a.path.localeCompare(b.path));
      expect(cookies.map((c) => [c.path, c.value, c.sameSite, c.httpOnly])).toEqual([
        ['/t', 'mr', 'Lax', true],
        ['/track', 'mr', 'Lax', true],
      ]);
      // A year, give or take the seconds the test took (the cookie's expiry is the browser's clock).
      for (const cookie of cookies) expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);

      await page.goto(pageUrl(mumbai));
      expect(page.url()).toBe(pageUrl(mumbai));
      expect(await page.locator('html').getAttribute('lang')).toBe('mr');
      await page.goto(`${origin}/track/${plainStoreId}`);
      expect(await page.locator('html').getAttribute('lang')).toBe('mr');
      expect(await page.locator('#track-title').textContent()).toBe('तुमची ऑर्डर ट्रॅक करा');
      // Another pick replaces it.
      await page.getByRole('link', { name: 'English', exact: true }).click();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await page.goto(pageUrl(mumbai));
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await languageCookies(context)).toEqual(['/t=en', '/track=en']);
    });
  });

  it("puts the store's language, and the order's over it, above the browser's; the buyer's pick above both", async () => {
    const storeSet = await book(ctx, apiKey, warehouseId, { storeName: 'acme-hindi' });
    const ordered = await post(ctx, apiKey, ORCHESTRATE, {
      ...orderBodyFromFields(warehouseId, { storeName: 'acme-hindi', carrierId: SHADOWFAX }),
      language: 'ta',
    });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const orderSet: Booked = ordered.json().payload;
    await phone('en-IN', async (context) => {
      const page = await context.newPage();
      await page.goto(pageUrl(storeSet));
      expect(await page.locator('html').getAttribute('lang')).toBe('hi');
      // The state's language is still the first link.
      expect(await page.locator('nav a').first().textContent()).toBe('मराठी (Marathi)');
      await page.goto(pageUrl(orderSet));
      expect(await page.locator('html').getAttribute('lang')).toBe('ta');
      expect(await page.locator('#status').textContent()).toBe('ஆர்டர் உறுதி செய்யப்பட்டது');
      await page.getByRole('link', { name: 'English', exact: true }).click();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await page.goto(pageUrl(storeSet));
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
    });
  });

  it("falls to the shipping state's language when the browser asks only for languages Dakiya lacks", async () => {
    await phone('fr-FR', async (context) => {
      const page = await context.newPage();
      const response = await page.goto(pageUrl(mumbai));
      expect(await response?.request().headerValue('accept-language')).toBe('fr-FR');
      expect(await page.locator('html').getAttribute('lang')).toBe('mr');
      expect(await page.locator('nav a').first().textContent()).toBe('English');
    });
  });
});

describe("an AWB on the store's page in chromium", () => {
  it("shows the parcel read-only, no link to the buyer's page, and opens it for the order's phone", async () => {
    await phone('en-IN', async (context) => {
      const page = await context.newPage();
      await page.goto(`${origin}/track/${plainStoreId}`);
      await page.getByLabel('AWB (tracking number)').fill(mumbai.awb_code!);
      await page.getByRole('button', { name: 'Track' }).first().click();
      expect(page.url()).toBe(`${origin}/track/${plainStoreId}?awb=${mumbai.awb_code}`);
      expect(await page.locator('#status').textContent()).toBe('On its way');
      expect(await page.locator('.awb').textContent()).toBe(mumbai.awb_code);
      const token = new URL(mumbai.track_url!).pathname.slice('/t/'.length);
      const html = await page.content();
      for (const secret of [token, '/t/', 'Asha', 'Mumbai', '9123456780', 'Marine Drive'])
        expect(html).not.toContain(secret);
      expect(await page.locator('form').count()).toBe(1);
      // The state's language first here too: the parcel is going to Maharashtra.
      expect(await page.locator('nav a').first().textContent()).toBe('मराठी (Marathi)');
      await expectAccessible(page, "an AWB's page");
      await page.screenshot({ path: path.join(ARTIFACTS, 'awb-read-only.png'), fullPage: true });

      await page.getByLabel('Phone number on the order').fill('91234 56780');
      await page.getByRole('button', { name: 'Continue' }).click();
      expect(page.url()).toBe(pageUrl(mumbai));
      expect(await page.locator('.muted').first().textContent()).toBe('Hello Asha · Delivering to Mumbai');
    });
  });
});
