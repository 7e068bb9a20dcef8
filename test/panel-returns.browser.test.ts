import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { queryRows } from '../src/base/db/client.js';
import { expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { authed, STORES, V1 } from './kit/http.js';
import { deliveredForward } from './kit/returns.js';
import { photoPart, sendReturnForm } from './kit/return-page.js';
import { createStore } from './kit/stores.js';
import { createCityWarehouse } from './kit/warehouses.js';

// The panel's queue of buyers' return requests (Returns → Return requests), in chromium: each
// request with its items, reason, comment, what the buyer wants and where the courier collects;
// where a refund goes (masked); approve one (its return booked), reject another with a message (refused blank, beside the field).
// axe-core on each state.

const PASSWORD = 's3cret-pass';
const ITEMS = [{ name: 'Cotton Kurta', sku: 'KURTA-M-BLUE', units: 1, selling_price: 499 }];
let ctx: TestContext;
let browser: Browser;
let page: Page;
let apiKey: string;
let accountId: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp();
  const origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  const account = await ctx.createAccount('Kurta Co', { username: 'kurta', password: PASSWORD });
  apiKey = account.apiKey;
  accountId = account.id;
  ctx.clock.set('2026-11-20T06:30:00.000Z');
  const warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub');
  const store = await createStore(ctx, apiKey, { store_name: 'kurta-co' });
  const policy = await ctx.app.inject({
    method: 'PUT',
    url: `${STORES}/${store.id}/return-policy`,
    headers: authed(apiKey),
    payload: {
      window_days: 7,
      reasons: ['size_issue', 'damaged'],
      non_returnable_skus: [],
      non_returnable_categories: [],
    },
  });
  expect(policy.statusCode).toBe(200);
  const m = { apiKey, warehouseId };
  // The exchange as the buyer asks on the tracking page, with a photo; the refund through the API.
  const exchange = await deliveredForward(ctx, m, { storeName: 'kurta-co', items: ITEMS });
  const photo = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#3c64c8' } })
    .jpeg()
    .toBuffer();
  const sent = await sendReturnForm(
    ctx,
    new URL(exchange.track_url!).pathname,
    {
      item_0: '1',
      reason: 'size_issue',
      resolution: 'exchange',
      exchange_for: 'Size L',
      comment: 'Too tight at the shoulders',
    },
    [photoPart(photo)],
  );
  expect(sent.statusCode, sent.body).toBe(303);
  ctx.clock.advance(60_000);
  const refund = await deliveredForward(ctx, m, { storeName: 'kurta-co', items: ITEMS, cod: true });
  const asked = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/return-requests`,
    headers: authed(apiKey),
    payload: {
      shipment_id: refund.shipment_id,
      items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
      reason: 'damaged',
      resolution: 'refund',
      comment: 'The seam is torn',
      refund_to: {
        method: 'bank_transfer',
        account_holder: 'Asha Menon',
        account_number: '501004321904521',
        ifsc: 'HDFC0000001',
      },
    },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(`${origin}/app/returns`);
  await page.getByLabel('Username').fill('kurta');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

const statuses = async () =>
  (
    (await ctx.app.inject({ method: 'GET', url: `${V1}/return-requests`, headers: authed(apiKey) })).json().data as {
      status: string;
      decision_note: string | null;
    }[]
  ).map((r) => [r.status, r.decision_note]);

describe('the return requests queue in chromium', () => {
  it('shows each request, approves one and rejects the other with a message', async () => {
    await page.getByRole('link', { name: 'Return requests' }).click();
    const queue = page.getByRole('list', { name: 'Requests waiting for a decision' });
    await queue.waitFor();
    // The cards only: a card's photos are a list of their own.
    const cards = queue.locator(':scope > li');
    expect(await cards.count()).toBe(2);
    const first = cards.nth(0);
    expect(await first.textContent()).toContain('Size or fit is not right');
    expect(await first.textContent()).toContain('Too tight at the shoulders');
    expect(await first.textContent()).toContain('An exchange for Size L');
    // The same buyer asked for both: each card counts the other.
    expect(await first.textContent()).toContain(
      "Buyer's history2 orders delivered · 0 RTOs · 1 other return request (0 approved)",
    );
    // The buyer's photo, fetched with the panel's session.
    const thumbnail = first.getByRole('img', { name: 'Sent by the buyer, 1 of 1' });
    await expect
      .poll(() => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(120);
    expect(await cards.nth(1).textContent()).toContain(
      'Their money back, to HDFC Bank account XXXXXXXXXXX4521 (HDFC0000001)',
    );
    await expectAccessible(page, 'the return requests queue');

    // Approved with the courier's check of the kurta against its picture.
    await first.getByLabel('Have the courier check the item at pickup (QC)').check();
    await first.getByLabel('Picture of Cotton Kurta (URL)').fill('https://cdn.kurta.example/kurta-blue.jpg');
    await expectAccessible(page, 'an approval with QC');
    await first.getByRole('button', { name: 'Approve and book the exchange' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Approved: the exchange of Cotton Kurta × 1 is booked.');
    await expect.poll(async () => cards.count()).toBe(1);

    const last = cards.nth(0);
    // Approving could give an exchange instead; this one is rejected.
    expect(await last.getByLabel('Give the buyer').inputValue()).toBe('refund');
    await last.getByRole('button', { name: 'Reject…' }).click();
    await last.getByRole('button', { name: 'Reject the request' }).click();
    await expect.poll(() => last.getByLabel('Message to the buyer').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'a rejection without its message');
    await last.getByLabel('Message to the buyer').fill('Torn seams are covered by the maker: please write to us.');
    await last.getByRole('button', { name: 'Reject the request' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Rejected: the buyer is told your message about Cotton Kurta × 1.');
    await page.getByText('No requests waiting').waitFor();
    await page.screenshot({ path: path.join(screenshotsDir(), 'return-requests-desktop.png'), fullPage: true });
    const [checked] = await queryRows<{ qc: Record<string, unknown> }>(
      ctx.database.db,
      sql`select ri.qc from return_items ri join return_requests rr on rr.return_id = ri.return_id
          where rr.account_id = ${accountId} and rr.resolution = 'exchange'`,
    );
    expect(checked!.qc).toMatchObject({ qc_product_image: 'https://cdn.kurta.example/kurta-blue.jpg' });
    expect(await statuses()).toEqual([
      ['approved', null],
      ['rejected', 'Torn seams are covered by the maker: please write to us.'],
    ]);
  });
});
