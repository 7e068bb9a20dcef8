import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../test/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { post, STORES } from '../../../test/kit/http.js';
import { book, type Booked } from '../../../test/kit/orders.js';
import { at, issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { type SmtpServer, startSmtpServer } from '../../../test/smtp-server.js';
import { until } from '../../../test/webhook-receiver.js';

// The customer's page and e-mail on a 360 px phone, in Debian's chromium (as .ci/run installs it),
// against the app listening on 127.0.0.1. Chromium here has no Indic system fonts, like the phones
// that showed boxes: every script it draws comes from the fonts the server sends.

const ARTIFACTS = path.resolve('test-artifacts', 'tracking-page-phone');
const WIDTH = 360;

/** Each page language, the font family its page loads and a test of its script. */
const SCRIPTS = {
  en: { family: null, script: /\p{Script=Latin}/u },
  hi: { family: 'Dakiya Noto Sans Devanagari', script: /\p{Script=Devanagari}/u },
  mr: { family: 'Dakiya Noto Sans Devanagari', script: /\p{Script=Devanagari}/u },
  bn: { family: 'Dakiya Noto Sans Bengali', script: /\p{Script=Bengali}/u },
  gu: { family: 'Dakiya Noto Sans Gujarati', script: /\p{Script=Gujarati}/u },
  ta: { family: 'Dakiya Noto Sans Tamil', script: /\p{Script=Tamil}/u },
  te: { family: 'Dakiya Noto Sans Telugu', script: /\p{Script=Telugu}/u },
  kn: { family: 'Dakiya Noto Sans Kannada', script: /\p{Script=Kannada}/u },
  ml: { family: 'Dakiya Noto Sans Malayalam', script: /\p{Script=Malayalam}/u },
} as const;

let smtp: SmtpServer;
let ctx: TestContext;
let browser: Browser;
let origin: string;
let apiKey: string;
let warehouseId: string;
let carrierToken: string;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  smtp = await startSmtpServer();
  ctx = await createTestApp({
    settings: {
      workers: { pollIntervalMs: 100 },
      mail: { smtpUrl: smtp.url, mailFrom: 'updates@dakiya.test' },
      notifications: { timeoutMs: 5000 },
    },
    delivery: ['notifications'],
  });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Acme Retail')).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey);
  carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
  const store = await post(ctx, apiKey, STORES, {
    store_name: 'acme-apparel',
    brand_name: 'Acme Apparel',
    support_email: 'customer.support@acmeapparel.in',
    support_phone: '1800-123-4567',
  });
  expect(store.statusCode, store.body).toBe(201);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await smtp?.close();
});

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

// Runs in the page (a string: this project does not compile against the DOM's types). For each
// element holding a value, walks its text grapheme by grapheme and reports every place where the
// next grapheme starts a new line without a space between: a word broken in two.
const BROKEN_WORDS = `(() => {
  const broken = [];
  const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const element of document.querySelectorAll('h1, h2, p, dt, dd, li strong, li span, label, legend, nav a, button')) {
    let previous = null;
    let space = false;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const { segment, index } of graphemes.segment(node.data)) {
        if (/^\\s+$/.test(segment)) { space = true; continue; }
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + segment.length);
        const rect = range.getBoundingClientRect();
        if (rect.width === 0 && rect.height === 0) continue;
        if (previous && rect.top >= previous.bottom - 1 && !space) broken.push(element.tagName + ': ' + previous.text + ' | ' + segment + ' in "' + element.textContent + '"');
        previous = { bottom: rect.bottom, text: segment };
        space = false;
      }
    }
  }
  return broken;
})()`;

/** Lines the AWB's text takes, and how wide the page is. */
const LAYOUT = `(() => {
  const awb = document.querySelector('dd.awb');
  let awbLines = null;
  if (awb) {
    const range = document.createRange();
    range.selectNodeContents(awb);
    awbLines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  }
  return { awbLines, scrollWidth: document.scrollingElement.scrollWidth };
})()`;

const LOADED_FONTS = `document.fonts.ready.then(() => [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '') + ' ' + f.weight).sort())`;

interface FontFetch {
  url: string;
  status: number;
  headers: Record<string, string>;
}

async function open(
  url: string,
  locale?: string,
): Promise<{ page: Page; fonts: FontFetch[]; close: () => Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width: WIDTH, height: 800 },
    javaScriptEnabled: false,
    ...(locale && { locale }),
  });
  const page = await context.newPage();
  const fonts: FontFetch[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/public/v1/fonts/'))
      fonts.push({ url: response.url(), status: response.status(), headers: response.headers() });
  });
  const response = await page.goto(url, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return { page, fonts, close: () => context.close() };
}

const pageUrl = (booked: Booked, query = '') => `${origin}${new URL(booked.track_url!).pathname}${query}`;

describe('the tracking page on a 360 px phone', () => {
  it('breaks no value inside a word, keeps the AWB on one line and never scrolls sideways, in each of the 9 languages, drawing each script with the served Noto font', async () => {
    const booked = await book(ctx, apiKey, warehouseId, { storeName: 'acme-apparel', customer: 'Asha' });
    await scans(booked, [{ status: 'in_transit', minutes: 60, location: 'Okhla Sorting Hub, New Delhi' }]);
    for (const [language, { family, script }] of Object.entries(SCRIPTS)) {
      const { page, fonts, close } = await open(pageUrl(booked, `?lang=${language}`));
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await page.locator('#status').textContent()).toMatch(script);
      const loaded: string[] = await page.evaluate(LOADED_FONTS);
      await page.screenshot({ path: path.join(ARTIFACTS, `in-transit-${language}.png`), fullPage: true });
      expect(await page.evaluate(BROKEN_WORDS), language).toEqual([]);
      expect(await page.evaluate(LAYOUT), language).toEqual({ awbLines: 1, scrollWidth: WIDTH });
      if (family === null) {
        expect(loaded).toEqual([]);
        expect(fonts).toEqual([]);
      } else {
        // Regular for the text, bold for the headings: both fetched, both drawn.
        expect(loaded, language).toEqual([`${family} 400`, `${family} 700`]);
        expect(fonts.map((f) => f.status)).toEqual([200, 200]);
        for (const fetched of fonts) {
          expect(fetched.url).toMatch(/\/public\/v1\/fonts\/noto-sans-[a-z]+-(400|700)\.[0-9a-f]{16}\.ttf$/);
          expect(fetched.headers).toMatchObject({
            'content-type': 'font/ttf',
            'content-encoding': 'gzip',
            'cache-control': 'public, max-age=31536000, immutable',
          });
        }
      }
      await close();
    }
  });

  it("lays out the failed-delivery form without a broken word, in the shipping state's language", async () => {
    // Kochi is in Kerala: a browser asking only for a language the page lacks gets Malayalam, with
    // a link to English (one asking for English gets English: page-language.browser.once.test.ts).
    const booked = await book(ctx, apiKey, warehouseId, { storeName: 'acme-apparel', to: 'kochi' });
    await scans(booked, [
      { status: 'in_transit', minutes: 60, location: 'Okhla Hub' },
      { status: 'ndr_raised', minutes: 120, location: 'Ernakulam DC', ndr_reason: 'customer_unavailable' },
    ]);
    const { page, close } = await open(pageUrl(booked), 'fr-FR');
    expect(await page.locator('html').getAttribute('lang')).toBe('ml');
    expect(await page.locator('#status').textContent()).toBe('ഡെലിവറി നടന്നില്ല');
    expect(await page.evaluate(BROKEN_WORDS)).toEqual([]);
    expect(await page.evaluate(LAYOUT)).toEqual({ awbLines: 1, scrollWidth: WIDTH });
    await page.screenshot({ path: path.join(ARTIFACTS, 'ndr-form-ml.png'), fullPage: true });
    await page.getByRole('link', { name: 'English' }).click();
    expect(await page.locator('#status').textContent()).toBe('Delivery attempt failed');
    expect(await page.evaluate(BROKEN_WORDS)).toEqual([]);
    expect(await page.evaluate(LAYOUT)).toEqual({ awbLines: 1, scrollWidth: WIDTH });
    await close();
  });
});

describe("the customer's e-mail on a 360 px phone", () => {
  it('wraps the tracking link inside the card: nothing wider than the screen', async () => {
    const booked = await book(ctx, apiKey, warehouseId, { storeName: 'acme-apparel', email: 'asha.phone@example.com' });
    let html = '';
    await until(async () => {
      const mail = smtp
        .to('asha.phone@example.com')
        .find((m) => typeof m.mail.html === 'string' && m.mail.html.includes(new URL(booked.track_url!).pathname));
      html = mail ? String(mail.mail.html) : '';
      return html !== '';
    }, 'the shipped e-mail');
    const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.setContent(html);
    await page.screenshot({ path: path.join(ARTIFACTS, 'mail-shipped.png'), fullPage: true });
    const widths: { scrollWidth: number; linkRight: number; cardRight: number } = await page.evaluate(`(() => {
      const link = [...document.querySelectorAll('a')].find((a) => a.textContent.startsWith('https://'));
      const card = document.querySelectorAll('table')[1];
      return { scrollWidth: document.scrollingElement.scrollWidth, linkRight: Math.max(...[...link.getClientRects()].map((r) => r.right)), cardRight: card.getBoundingClientRect().right };
    })()`);
    expect(widths.scrollWidth).toBe(WIDTH);
    expect(widths.cardRight).toBeLessThanOrEqual(WIDTH - 16);
    expect(widths.linkRight).toBeLessThanOrEqual(widths.cardRight - 24);
    await context.close();
  });
});
