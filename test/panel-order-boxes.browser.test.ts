import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import { createTestApp, type TestContext } from './app.js';
import { descriptionOf, expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { validGstin } from './kit/invoices.js';
import { createCityWarehouse } from './kit/warehouses.js';

// The panel's order form for an order in several boxes (Dakiya's packages; docs/paperwork.md, "In
// the panel"), in Debian's chromium against the app listening with the panel built as `npm start`
// builds it: two boxes with the items each holds, the form's own error beside a box's input, the
// API's refusal of a box's line beside the input of the item it is, the boxes' quotes compared,
// the order booked with an AWB per box and the buyer's GSTIN. The form's one-box path is
// test/panel.browser.test.ts's; this file is apart to keep each under 400 lines.

const PASSWORD = 's3cret-pass';
const ORDER_ID = 'ORD-BOXES-1';
const BUYER_GSTIN = validGstin('29', 'AAACR5055K');

let ctx: TestContext;
let browser: Browser;
let page: Page;
let accountId: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp();
  const origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  const account = await ctx.createAccount('Kavya Crafts', { username: 'kavya', password: PASSWORD });
  accountId = account.id;
  await createCityWarehouse(ctx, account.apiKey, 'delhi', 'Okhla Hub');
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${origin}/app`);
  await page.getByLabel('Username').fill('kavya');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

const field = (label: string) => page.getByLabel(label, { exact: true });

describe('the order form in several boxes, in chromium', () => {
  it("shows a box's errors beside its inputs (the form's, then the API's), then books 2 boxes with an AWB each", async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create shipment' }).click();
    await page.getByRole('heading', { name: 'Create shipment' }).waitFor();
    await field('Order id').fill(ORDER_ID);
    // The test app's clock is not the browser's: the form's own "now" may be the app's future.
    await field('Order date').fill('2026-11-20 11:00');
    await field('First name').fill('Priya');
    await field('Phone').fill('9123456780');
    await field('Address').fill('42, 5th Cross, Koramangala 4th Block');
    await field("Buyer's GSTIN").fill(BUYER_GSTIN.toLowerCase());
    await field('Pincode').fill('560034');
    await expect.poll(() => field('City').inputValue()).toBe('Bengaluru');
    await field('Item 1 name').fill('Cotton Kurta');
    await field('Item 1 SKU').fill('KURTA-M-BLUE');
    await field('Item 1 units').fill('2');
    await field('Item 1 price (₹)').fill('449');
    await page.getByRole('button', { name: 'Add item' }).click();
    await field('Item 2 name').fill('Silk Scarf');
    await field('Item 2 SKU').fill('SCARF-RED');
    await field('Item 2 price (₹)').fill('100');
    await page.getByRole('radio', { name: 'Prepaid' }).check();

    await page.getByRole('button', { name: 'Ship in several boxes' }).click();
    for (const [label, value] of [
      ['Box 1 weight (kg)', '1.2'],
      ['Box 1 length (cm)', '30'],
      ['Box 1 breadth (cm)', '20'],
      ['Box 1 height (cm)', '15'],
      ['Box 2 length (cm)', '25'],
      ['Box 2 breadth (cm)', '20'],
      ['Box 2 height (cm)', '10'],
    ] as const)
      await field(label).fill(value);
    await page.getByRole('checkbox', { name: /^Say which items go in each box/ }).check();
    await field('Box 1 units of item 1').fill('2');
    // Box 2 holds 2 scarves of the order's 1: only the API knows that is one too many.
    await field('Box 2 units of item 2').fill('2');

    // The form's own check first: box 2 has no weight.
    await page.getByRole('button', { name: 'Book shipment' }).click();
    await expect.poll(() => field('Box 2 weight (kg)').getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(field('Box 2 weight (kg)'))).toBe('Box 2 weight (kg) must be a number above 0');
    expect(await page.getByRole('alert').textContent()).toBe('Box 2 weight (kg) must be a number above 0');

    await field('Box 2 weight (kg)').fill('0.8');
    expect(await field('Weight (kg)').inputValue()).toBe('2');
    expect(await field('Weight (kg)').getAttribute('readonly')).toBe('');
    await page.getByRole('button', { name: 'Book shipment' }).click();
    // The API names box 2's first line (packages.1.items.0.units): the form shows it beside item 2's input.
    const refused = 'Box 2 units of item 2 puts 2 units of SCARF-RED in the boxes up to box 2: the order has 1';
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(refused);
    expect(await field('Box 2 units of item 2').getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(field('Box 2 units of item 2'))).toBe(`${refused} SCARF-RED`);
    expect(await field('Box 2 weight (kg)').getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'order form with boxes and a refused box');

    await field('Box 2 units of item 2').fill('1');
    await page.getByRole('button', { name: 'Compare rates' }).click();
    await page.getByRole('table', { name: 'Couriers for this parcel' }).waitFor();
    await page.screenshot({ path: path.join(screenshotsDir(), 'create-shipment-boxes-desktop.png'), fullPage: true });
    await page.getByRole('button', { name: 'Book shipment' }).click();
    // A key of its own: the refused booking's key is kept with its refusal, and this body differs.
    await page.getByRole('heading', { name: 'Shipment booked' }).waitFor();
    const boxes = await page.getByText(/^In 2 boxes, each with its own AWB and label page: /).textContent();
    const awbs = /box 1 (\S+), box 2 (\S+)\.$/.exec(boxes ?? '');
    expect(awbs).not.toBeNull();
    expect(await page.getByRole('status').locator('strong').nth(1).textContent()).toBe(awbs![1]);
    expect(awbs![2]).not.toBe(awbs![1]);
    await expectAccessible(page, 'booked in 2 boxes');

    const [order] = await queryRows<{ weight_grams: number; buyer_gstin: string; packages: unknown }>(
      ctx.database.db,
      sql`select weight_grams, buyer_gstin, packages from orders
          where account_id = ${accountId} and merchant_order_id = ${ORDER_ID}`,
    );
    expect(order).toEqual({
      weight_grams: 2000,
      buyer_gstin: BUYER_GSTIN,
      packages: [
        { weightGrams: 1200, lengthCm: 30, breadthCm: 20, heightCm: 15, items: [{ sku: 'KURTA-M-BLUE', units: 2 }] },
        { weightGrams: 800, lengthCm: 25, breadthCm: 20, heightCm: 10, items: [{ sku: 'SCARF-RED', units: 1 }] },
      ],
    });
  });
});
