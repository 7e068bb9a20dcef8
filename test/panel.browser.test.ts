import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import {
  descriptionOf,
  expectAccessible,
  hasFocus,
  launchChromium,
  pressUntilFocused,
  screenshotsDir,
  showsFocus,
} from './browser.js';
import { SHADOWFAX } from './kit/couriers.js';
import { FORWARD_ORDER, post, SHIPMENTS, WAREHOUSES } from './kit/http.js';
import { popplerRead } from './kit/labels.js';
import { book, orderBody } from './kit/orders.js';
import { bookReturn } from './kit/returns.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { FAILED_ONCE, NOW } from './ndr.js';

// The merchant's panel in Debian's chromium, against the app listening on 127.0.0.1 with the
// panel built as `npm start` builds it: sign in, book from the order form after comparing rates,
// find the shipment by search and filter, open it, download its label, cancel it, select 3 and
// download their labels as one PDF, re-issue a label, sign out; two
// accounts; a phone's width. Every screen is checked with axe-core, and fields are found by their
// labels and roles. Screenshots go to test-artifacts/dashboard/, or with UPDATE_SCREENSHOTS=1 to
// docs/dashboard/ (docs/dashboard.md shows them).

const SCREENSHOTS = screenshotsDir();
const PASSWORD = 's3cret-pass';
const ORDER_ID = 'ORD-PANEL-1';

let ctx: TestContext;
let browser: Browser;
let origin: string;
let acmeKey: string;
let warehouseId: string;
let cspViolations: string[];
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  acmeKey = (await ctx.createAccount('Acme Retail', { username: 'acme', password: PASSWORD })).apiKey;
  warehouseId = await createCityWarehouse(ctx, acmeKey, 'delhi', 'Okhla Hub');
  await ctx.createAccount('Bharat Mart', { username: 'bharat', password: PASSWORD });
  cspViolations = [];
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

async function open(width: number, height: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(`${origin}/app`);
  return { context, page };
}

async function signIn(page: Page, username: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in: the screen under the header (on a phone, Sign out is behind the menu).
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

const listing = async () =>
  (await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: { authorization: acmeKey }, payload: {} })).json();

describe('the panel in chromium', () => {
  let desktop: { context: BrowserContext; page: Page };
  let awb: string;

  it('signs in with the username and password, refusing a wrong password', async () => {
    desktop = await open(1280, 900);
    const { page } = desktop;
    await page.getByRole('heading', { name: 'Sign in to Dakiya' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await page.getByLabel('Username').fill('acme');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid username or password');
    await signIn(page, 'acme');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('img', { name: /^0 shipments booked and 0 delivered from/ }).waitFor();
    await expectAccessible(page, 'empty overview');
    await nav(page, 'Shipments');
    await page.getByRole('heading', { name: 'No shipments yet' }).waitFor();
    await expectAccessible(page, 'empty shipments');
    // The session cookie as the browser keeps it: out of the page's reach, never sent cross-site.
    const [cookie] = await desktop.context.cookies();
    expect(cookie).toMatchObject({
      name: 'dakiya_session',
      httpOnly: true,
      sameSite: 'Strict',
      secure: false,
      path: '/',
    });
    expect(await page.evaluate('document.cookie')).toBe('');
    expect(await page.evaluate('JSON.stringify(localStorage)')).toBe('{}');
  });

  it('shows every field error of the order form beside its field, all at once', async () => {
    const { page } = desktop;
    await nav(page, 'Create shipment');
    await page.getByRole('heading', { name: 'Create shipment' }).waitFor();
    await page.getByRole('button', { name: 'Book shipment' }).click();
    // Nine problems, each beside its field in the form's words (the summary above the form lists them too).
    await expect.poll(() => page.getByRole('alert').locator('li').count()).toBe(9);
    for (const label of [
      'First name',
      'Phone',
      'Address',
      'Pincode',
      'City',
      'State',
      'Item 1 name',
      'Item 1 SKU',
      'Item 1 price (₹)',
    ]) {
      expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'), label).toBe('true');
    }
    expect(await page.getByLabel('Last name').getAttribute('aria-invalid')).toBeNull();
    const firstName = page.getByLabel('First name');
    const describedBy = (await firstName.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
      "First name is needed: the buyer's first name",
    );
    await expectAccessible(page, 'order form with errors');
  });

  it('fills city and state from the pincode, compares rates (cheapest and fastest marked) and books', async () => {
    const { page } = desktop;
    await page.getByLabel('Order id').fill(ORDER_ID);
    await page.getByLabel('Order date').fill('2026-11-20 11:00');
    await page.getByLabel('First name').fill('Priya');
    await page.getByLabel('Last name').fill('Sharma');
    await page.getByLabel('Phone').fill('9123456780');
    await page.getByLabel('E-mail').fill('priya@example.com');
    await page.getByLabel('Address').fill('42, 5th Cross, Koramangala 4th Block');
    await page.getByLabel('Pincode').fill('560034');
    await expect.poll(() => page.getByLabel('City').inputValue()).toBe('Bengaluru');
    expect(await page.getByLabel('State').inputValue()).toBe('Karnataka');
    await page.getByLabel('Item 1 name').fill('Cotton Kurta');
    await page.getByLabel('Item 1 SKU').fill('KURTA-M-BLUE');
    await page.getByLabel('Item 1 price (₹)').fill('1299');
    await page.getByRole('button', { name: 'Compare rates' }).click();
    const rates = page.getByRole('table', { name: 'Couriers for this parcel' });
    await rates.waitFor();
    expect(await rates.getByText('Cheapest').count()).toBe(1);
    expect(await rates.getByText('Fastest').count()).toBe(1);
    expect(await rates.getByRole('radio').count()).toBeGreaterThan(1);
    // The allocation rules choose to begin with (without rules, the cheapest); a compared rate is picked on purpose.
    expect(await page.getByRole('radio', { name: /^As your allocation rules choose: / }).isChecked()).toBe(true);
    expect(await rates.getByRole('row').filter({ hasText: 'Cheapest' }).getByRole('radio').isChecked()).toBe(false);
    await expectAccessible(page, 'order form with rates');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'create-shipment-desktop.png'), fullPage: true });
    await page.getByRole('button', { name: 'Book shipment' }).click();
    await page.getByRole('heading', { name: 'Shipment booked' }).waitFor();
    await expectAccessible(page, 'booked');
    const [shipment] = (await listing()).data;
    expect(shipment.attributes.order.display_id).toBe(ORDER_ID);
    expect(shipment.attributes.status).toBe('pending');
    awb = shipment.attributes.tracking_number;
    expect(await page.getByRole('status').textContent()).toContain(`AWB ${awb}`);
    expect(await page.getByRole('link', { name: 'Print label' }).getAttribute('href')).toBe(
      `/custom/api/v1/shipments/${shipment.id}/label?format=pdf`,
    );
  });

  it('finds the shipment by search and by filter, with status tab counts', async () => {
    const { page } = desktop;
    await nav(page, 'Shipments');
    await page.getByLabel('Search').fill(awb);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const table = page.getByRole('table', { name: 'Shipments, newest first' });
    await expect.poll(() => table.getByRole('link', { name: ORDER_ID }).count()).toBe(1);
    await expect.poll(() => page.getByRole('tab', { name: /^Pending/ }).textContent()).toBe('Pending 1');
    // Each tab's count is its own request: the Delivered count may land after the Pending one.
    await expect.poll(() => page.getByRole('tab', { name: /^Delivered/ }).textContent()).toBe('Delivered 0');
    await page.getByRole('combobox', { name: 'Payment' }).selectOption('prepaid');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('heading', { name: 'No shipments match' }).waitFor();
    await page.getByRole('combobox', { name: 'Payment' }).selectOption('cod');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByRole('link', { name: ORDER_ID }).waitFor();
    await page.getByRole('tab', { name: /^Delivered/ }).click();
    await page.getByRole('heading', { name: 'No shipments match' }).waitFor();
    await page.getByRole('tab', { name: /^Pending/ }).click();
    await table.getByRole('link', { name: ORDER_ID }).waitFor();
    await expectAccessible(page, 'shipments list');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'shipments-desktop.png'), fullPage: true });
  });

  it('opens the shipment, downloads its label as a PDF and cancels it', async () => {
    const { page } = desktop;
    await page.getByRole('link', { name: ORDER_ID }).click();
    await page.getByRole('heading', { name: `Order ${ORDER_ID}` }).waitFor();
    expect(await page.getByText(awb, { exact: true }).count()).toBe(1);
    expect(await page.getByText(/Bengaluru, Karnataka 560034/).count()).toBe(1);
    await expectAccessible(page, 'shipment page');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'shipment-desktop.png'), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download label' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`label-${awb}.pdf`);
    const pdf = readFileSync((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
    await page.getByRole('button', { name: 'Cancel shipment' }).click();
    await page.getByRole('group', { name: 'Confirm cancellation' }).waitFor();
    await expectAccessible(page, 'cancel confirmation');
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect.poll(async () => (await listing()).data[0].attributes.status).toBe('cancelled');
    await expect.poll(() => page.getByRole('status', { name: 'Shipment status' }).textContent()).toBe('Cancelled');
  });

  it('is usable at 390 px: the list and the shipment page without sideways scrolling', async () => {
    const phone = await open(390, 844);
    try {
      await signIn(phone.page, 'acme');
      // A phone's navigation is behind the menu.
      await phone.page.getByRole('button', { name: 'Menu' }).click();
      await nav(phone.page, 'Shipments');
      const row = phone.page.getByRole('link', { name: ORDER_ID });
      await row.waitFor();
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectAccessible(phone.page, 'shipments list at 390 px');
      await phone.page.screenshot({ path: path.join(SCREENSHOTS, 'shipments-390.png'), fullPage: true });
      await row.click();
      await phone.page.getByRole('heading', { name: `Order ${ORDER_ID}` }).waitFor();
      expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await expectAccessible(phone.page, 'shipment page at 390 px');
      await phone.page.screenshot({ path: path.join(SCREENSHOTS, 'shipment-390.png'), fullPage: true });
    } finally {
      await phone.context.close();
    }
  });

  it("never shows one account another's shipments", async () => {
    const other = await open(1280, 900);
    try {
      await signIn(other.page, 'bharat');
      await nav(other.page, 'Shipments');
      await other.page.getByRole('heading', { name: 'No shipments yet' }).waitFor();
      await other.page.goto(`${origin}/app/shipments/${(await listing()).data[0].id}?order=${ORDER_ID}`);
      await other.page.getByRole('heading', { name: 'Shipment not found' }).waitFor();
      await expectAccessible(other.page, 'shipment not found');
    } finally {
      await other.context.close();
    }
  });

  it('takes a keyboard from sign-in through the navigation to a filtered list and a shipment, the focus always shown', async () => {
    const keyboard = await open(1280, 900);
    const { page } = keyboard;
    const press = (key: string) => page.keyboard.press(key);
    try {
      await page.getByRole('heading', { name: 'Sign in to Dakiya' }).waitFor();
      await press('Tab');
      await expect.poll(() => showsFocus(page.getByLabel('Username'))).toBe(true);
      await page.keyboard.type('acme');
      await press('Tab');
      await expect.poll(() => showsFocus(page.getByLabel('Password'))).toBe(true);
      await page.keyboard.type(PASSWORD);
      await press('Enter');
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      // A new screen puts the focus on its content; Shift+Tab walks back into the navigation.
      await expect.poll(() => hasFocus(page.getByRole('main'))).toBe(true);
      await press('Shift+Tab');
      await expect.poll(() => showsFocus(page.getByRole('button', { name: 'Sign out' }))).toBe(true);
      const shipmentsLink = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Shipments', exact: true });
      // Sign out, End every session, the account (your sign-in), then the navigation back to Shipments.
      expect(await pressUntilFocused(page, shipmentsLink, 'Shift+Tab')).toBe(10);
      await expect.poll(() => showsFocus(shipmentsLink)).toBe(true);
      await press('Enter');
      await page.getByRole('heading', { name: 'Shipments' }).waitFor();
      expect(await shipmentsLink.getAttribute('aria-current')).toBe('page');
      await expect.poll(() => hasFocus(page.getByRole('main'))).toBe(true);
      await press('Tab');
      await expect.poll(() => showsFocus(page.getByRole('link', { name: 'Create shipment' }).last())).toBe(true);
      await press('Tab');
      await expect.poll(() => showsFocus(page.getByLabel('Search'))).toBe(true);
      await page.keyboard.type(ORDER_ID);
      await press('Enter');
      const table = page.getByRole('table', { name: 'Shipments, newest first' });
      await table.getByRole('link', { name: ORDER_ID }).waitFor();
      // The status tabs are one stop; the arrow keys move between them (and show that tab).
      const all = page.getByRole('tab', { name: /^All/ });
      await pressUntilFocused(page, all);
      await expect.poll(() => showsFocus(all)).toBe(true);
      await press('ArrowRight');
      const pending = page.getByRole('tab', { name: /^Pending/ });
      await expect.poll(() => showsFocus(pending)).toBe(true);
      await expect.poll(() => pending.getAttribute('aria-selected')).toBe('true');
      await page.getByRole('heading', { name: 'No shipments match' }).waitFor();
      // Radix moves focus in a timer after the key, and Chromium runs input before timers: wait for
      // each move before the next key, or a busy machine sends both keys to Pending.
      await press('ArrowLeft');
      await expect.poll(() => showsFocus(all)).toBe(true);
      await press('ArrowLeft');
      const cancelled = page.getByRole('tab', { name: /^Cancelled/ });
      await expect.poll(() => showsFocus(cancelled)).toBe(true);
      await table.getByRole('link', { name: ORDER_ID }).waitFor();
      // Space ticks a row's box; Enter on its order opens the shipment.
      const select = page.getByRole('checkbox', { name: `Select ${ORDER_ID}` });
      await pressUntilFocused(page, select);
      await expect.poll(() => showsFocus(select)).toBe(true);
      await press('Space');
      expect(await select.isChecked()).toBe(true);
      await page.getByRole('region', { name: 'Selected shipments' }).getByText('1 selected').waitFor();
      const order = table.getByRole('link', { name: ORDER_ID });
      expect(await pressUntilFocused(page, order)).toBe(1);
      await expect.poll(() => showsFocus(order)).toBe(true);
      await press('Enter');
      await page.getByRole('heading', { name: `Order ${ORDER_ID}` }).waitFor();
      await expect.poll(() => hasFocus(page.getByRole('main'))).toBe(true);
      await press('Tab');
      const back = page.getByRole('link', { name: '← Shipments' });
      await expect.poll(() => showsFocus(back)).toBe(true);
      await press('Enter');
      await page.getByRole('heading', { name: 'Shipments' }).waitFor();
    } finally {
      await keyboard.context.close();
    }
  });

  it('queues a failed delivery with its reason and asks for another attempt with a new address and phone', async () => {
    const { page } = desktop;
    const carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
    const failed = await book(ctx, acmeKey, warehouseId, { orderId: 'ORD-NDR-1', customer: 'Ravi' });
    ctx.clock.set(NOW);
    await sendEvents(
      ctx,
      carrierToken,
      FAILED_ONCE.map((e) => ({ ...e, awb: failed.awb_code! })),
    );
    await nav(page, 'NDR');
    const queue = page.getByRole('table', { name: '1 shipment awaiting your decision' });
    await queue.waitFor();
    expect(await queue.getByRole('row').nth(1).textContent()).toContain('Customer not available');
    await expectAccessible(page, 'NDR queue');
    // The row opens its form by keyboard, the focus in its first field; Escape hands it back.
    const reattempt = queue.getByRole('button', { name: 'Reattempt ORD-NDR-1' });
    await reattempt.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Reattempt ORD-NDR-1' });
    expect(await reattempt.getAttribute('aria-expanded')).toBe('true');
    expect(await hasFocus(form.getByLabel('New address line'))).toBe(true);
    await page.keyboard.press('Escape');
    expect(await form.count()).toBe(0);
    expect(await hasFocus(reattempt)).toBe(true);
    await page.keyboard.press('Enter');
    await form.getByLabel('New address line').fill('Flat 4B, 5 MG Road, Bengaluru 560001');
    await form.getByLabel('Landmark').fill('Opposite Sundance Cafe');
    await form.getByLabel('New phone number').fill('12345');
    const send = form.getByRole('button', { name: 'Ask for another attempt' });
    await send.click();
    // The API's refusals beside their fields: the phone's first (400), then what the shipment refuses
    // (422), both of those at once.
    await expect
      .poll(() => descriptionOf(form.getByLabel('New phone number')))
      .toBe('New phone number must be a 10-digit Indian mobile number');
    expect(await form.getByLabel('New phone number').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('New phone number').fill('98765 01234');
    await form.getByLabel('Reattempt on').fill('2026-11-22');
    await send.click();
    // The phone's error goes as soon as it is edited; the 422's come with the answer, later on a busy machine.
    await expect
      .poll(() => descriptionOf(form.getByLabel('New address line')))
      .toBe(
        'New address line names pincode 560001 but the shipment goes to 400001: the pincode and city cannot be changed on a reattempt Same pincode: the pincode, city and state cannot change on a reattempt.',
      );
    expect(await form.getByLabel('New phone number').getAttribute('aria-invalid')).toBeNull();
    expect(await descriptionOf(form.getByLabel('Reattempt on'))).toBe(
      'Reattempt on must be one of the next 3 working days: 2026-11-21, 2026-11-23, 2026-11-25 One of the next 3 working days; empty: the courier picks.',
    );
    expect(await form.getByRole('alert').getByRole('listitem').count()).toBe(2);
    await expectAccessible(page, 'NDR reattempt form with errors');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'ndr-reattempt-desktop.png'), fullPage: true });
    expect(
      (await listing()).data.find((s: { id: string }) => s.id === failed.shipment_id).attributes.ndr_actions,
    ).toEqual([]);
    await form.getByLabel('New address line').fill('Flat 4B, Sea View Apartments, 12 Marine Drive');
    await form.getByLabel('Reattempt on').fill('2026-11-23');
    await send.click();
    await queue.getByText('Reattempt requested').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'ORD-NDR-1' }).textContent()).toBe(
      'Reattempt requested for order ORD-NDR-1.',
    );
    expect(
      (await listing()).data.find((s: { id: string }) => s.id === failed.shipment_id).attributes.ndr_actions,
    ).toMatchObject([
      {
        action: 'reattempt',
        requested_by: 'merchant',
        details: {
          updated_address: {
            address_line: 'Flat 4B, Sea View Apartments, 12 Marine Drive',
            landmark: 'Opposite Sundance Cafe',
          },
          updated_phone_number: '+919876501234',
          reattempt_date: '2026-11-23',
        },
      },
    ]);
  });

  it("returns a failed delivery to origin from the shipment's page, after a confirmation", async () => {
    const { page } = desktop;
    const carrierToken = await issueCarrierToken(ctx, SHADOWFAX);
    // Booked before the scans that fail it, as couriers send them.
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const failed = await book(ctx, acmeKey, warehouseId, { orderId: 'ORD-NDR-2', customer: 'Kiran' });
    ctx.clock.set(NOW);
    await sendEvents(
      ctx,
      carrierToken,
      FAILED_ONCE.map((e) => ({ ...e, awb: failed.awb_code! })),
    );
    await page.goto(`${origin}/app/shipments/${failed.shipment_id}?order=ORD-NDR-2`);
    await page.getByRole('heading', { name: 'Delivery failed' }).waitFor();
    expect(await page.getByRole('form', { name: 'Reattempt ORD-NDR-2' }).getByLabel('New address line').count()).toBe(
      1,
    );
    await page.getByRole('button', { name: 'RTO ORD-NDR-2' }).click();
    const confirm = page.getByRole('group', { name: 'Return ORD-NDR-2 to origin?' });
    // Asking sends nothing; the confirmation has the focus.
    expect(await hasFocus(confirm.getByRole('button', { name: 'Yes, return to origin' }))).toBe(true);
    expect((await listing()).data.find((s: { id: string }) => s.id === failed.shipment_id).attributes.status).toBe(
      'ndr_raised',
    );
    await expectAccessible(page, 'RTO confirmation');
    await confirm.getByRole('button', { name: 'Yes, return to origin' }).click();
    const status = page.getByRole('status', { name: 'Shipment status' });
    await expect.poll(() => status.textContent()).toBe('RTO initiated');
    expect(await hasFocus(status)).toBe(true);
    const shipment = (await listing()).data.find((s: { id: string }) => s.id === failed.shipment_id).attributes;
    expect(shipment.status).toBe('rto_initiated');
    expect(shipment.ndr_actions).toMatchObject([{ action: 'rto', requested_by: 'merchant' }]);
  });

  it('reports the counts and order values by status for a date range, with the overview', async () => {
    const { page } = desktop;
    await nav(page, 'Reports');
    await page.getByLabel('Orders from').fill('2026-11-01');
    await page.getByLabel('Orders to').fill('2026-11-30');
    await page.getByRole('button', { name: 'Show report' }).click();
    const report = page.getByRole('table', { name: 'Shipments by status, orders created 2026-11-01 to 2026-11-30' });
    await report.waitFor();
    expect(await report.getByRole('row', { name: /^Cancelled/ }).textContent()).toBe('Cancelled1₹0.00₹1,299.00');
    expect(await report.getByRole('row', { name: /^Total/ }).textContent()).toContain('Total3');
    await expectAccessible(page, 'reports');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'reports-desktop.png'), fullPage: true });
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text).toContain('status,count,prepaid_order_value_inr,cod_order_value_inr\n');
    expect(text).toContain('cancelled,1,0.00,1299.00\n');
    // An order without a courier yet: the overview's "Not yet labelled" opens the list of exactly it.
    expect(
      (await post(ctx, acmeKey, FORWARD_ORDER, orderBody(warehouseId, { order_id: 'ORD-UNLABELLED-1' }))).statusCode,
    ).toBe(200);
    await nav(page, 'Overview');
    await page.getByRole('link', { name: 'Failed deliveries (NDR): 1' }).waitFor();
    await expectAccessible(page, 'overview');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'overview-desktop.png'), fullPage: true });
    await page.getByRole('link', { name: 'Not yet labelled: 1' }).click();
    await page.getByText('Showing only: Not yet labelled.').waitFor();
    const table = page.getByRole('table', { name: 'Shipments, newest first' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('link').allTextContents()).toEqual(['ORD-UNLABELLED-1']);
    expect(await page.getByRole('tab', { name: /^Pending/ }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tab', { name: /^Pending/ }).textContent()).toBe('Pending 1');
    await expectAccessible(page, 'shipments not yet labelled');
    expect(await page.getByRole('link', { name: 'Show every shipment' }).getAttribute('href')).toBe('/app/shipments');
  });

  it('adds a store with a logo (previewed, then served) and a warehouse, showing the field errors', async () => {
    const { page } = desktop;
    await nav(page, 'Settings');
    await page.getByRole('heading', { name: 'No stores yet' }).waitFor();
    await page.getByLabel('Store name').fill('acme-shoes');
    await page.getByLabel('Brand name').fill('Acme Shoes');
    await page.getByLabel('Logo').setInputFiles('docs/examples/acme-logo.png');
    await page.getByRole('img', { name: 'Preview of the logo' }).waitFor();
    await page.getByRole('button', { name: 'Add store' }).click();
    const logo = page.getByRole('table', { name: 'Your stores' }).getByRole('img', { name: 'Acme Shoes logo' });
    await logo.waitFor();
    await expect
      .poll(() => logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Add warehouse' }).click();
    const warehouseForm = page.getByRole('form', { name: 'Add a warehouse' });
    await warehouseForm.getByRole('alert').waitFor();
    expect(await page.getByLabel('Warehouse name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Street address').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Warehouse name').fill('Andheri Hub');
    await page.getByLabel('Warehouse phone').fill('9876543210');
    await page.getByLabel('Street address').fill('Unit 5, Marol Industrial Area');
    await page.getByLabel('Warehouse pincode').fill('400059');
    await page.getByLabel('Warehouse city').fill('Mumbai');
    await page.getByLabel('Warehouse state').fill('Maharashtra');
    await page.getByRole('button', { name: 'Add warehouse' }).click();
    await page.getByRole('table', { name: 'Your warehouses' }).getByText('Andheri Hub').waitFor();
    await expectAccessible(page, 'settings');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'settings-desktop.png'), fullPage: true });
  });

  it('selects 3 shipments and downloads their labels as one PDF of 3 pages', async () => {
    const { page } = desktop;
    const made = [];
    for (const n of [1, 2, 3])
      made.push(await book(ctx, acmeKey, warehouseId, { orderId: `ORD-LABELS-${n}`, customer: `Label ${n}` }));
    await nav(page, 'Shipments');
    await page.getByRole('button', { name: 'Clear' }).click();
    for (const n of [1, 2, 3]) await page.getByRole('checkbox', { name: `Select ORD-LABELS-${n}` }).check();
    const bulk = page.getByRole('region', { name: 'Selected shipments' });
    expect(await bulk.getByText('3 selected').count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      bulk.getByRole('button', { name: 'Download labels' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('labels-3.pdf');
    const pdf = await popplerRead(readFileSync((await download.path())!));
    expect(pdf.pages).toBe(3);
    expect(pdf.pageSize).toBe('288 x 432 pts');
    // The selection in the listing's order (newest first), a page each.
    expect(pdf.pageTexts.map((text) => /AWB (\S+)/.exec(text)?.[1]).sort()).toEqual(made.map((m) => m.awb_code).sort());
    await bulk.getByRole('link', { name: 'labels-3.pdf (3 labels)' }).waitFor();
    await expectAccessible(page, 'shipments with labels made');
  });

  it("re-issues a shipment's label from its page: label 2, the old link refused", async () => {
    const { page } = desktop;
    const before = (await listing()).data.find(
      (s: { attributes: { order: { display_id: string } } }) => s.attributes.order.display_id === 'ORD-LABELS-1',
    );
    const oldLink = new URL(before.attributes.label_url);
    // Links are signed to the second: the re-issue comes a second after this one was made.
    ctx.clock.advance(2000);
    await page.getByRole('link', { name: 'ORD-LABELS-1' }).click();
    await page.getByRole('heading', { name: 'Order ORD-LABELS-1' }).waitFor();
    await page.getByRole('button', { name: 'Re-issue label' }).click();
    await page.getByRole('form', { name: 'Re-issue the label' }).waitFor();
    await expectAccessible(page, 're-issue confirmation');
    await page.getByLabel('Reason (optional)').fill('Label torn');
    await page.getByRole('button', { name: 'Re-issue', exact: true }).click();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /^Label / })
          .textContent(),
      )
      .toMatch(/^Label 2 issued .*: links to earlier labels no longer work\./);
    expect((await ctx.app.inject({ method: 'GET', url: oldLink.pathname + oldLink.search })).statusCode).toBe(410);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download label' }).click(),
    ]);
    expect((await popplerRead(readFileSync((await download.path())!))).pageTexts[0]).toContain('Label 2, re-issued');
    await expectAccessible(page, 'shipment with a re-issued label');
  });

  it('selects shipments in the list, exports them as CSV and cancels them together', async () => {
    const { page } = desktop;
    const extra = await book(ctx, acmeKey, warehouseId, { orderId: 'ORD-BULK-1', customer: 'Meera' });
    await nav(page, 'Shipments');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('checkbox', { name: 'Select ORD-BULK-1' }).check();
    const bulk = page.getByRole('region', { name: 'Selected shipments' });
    expect(await bulk.getByText('1 selected').count()).toBe(1);
    await expectAccessible(page, 'shipments with a selection');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      bulk.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const lines = readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('order_id,awb,status,customer,phone,city,pincode,courier,payment,amount_inr,created_at');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      `ORD-BULK-1,${extra.awb_code},pending`,
    ]);
    await bulk.getByRole('button', { name: 'Cancel selected' }).click();
    await expect.poll(() => bulk.getByRole('status').textContent()).toBe('1 of 1 shipment cancelled');
    expect((await listing()).data.find((s: { id: string }) => s.id === extra.shipment_id).attributes.status).toBe(
      'cancelled',
    );
  });

  it('lists returns with their quality check, and finds one by search', async () => {
    const { page } = desktop;
    await nav(page, 'Returns');
    await page.getByRole('heading', { name: 'No returns yet' }).waitFor();
    await expectAccessible(page, 'no returns');
    const booked = await bookReturn(ctx, acmeKey, warehouseId, { qc: true, orderId: 'RET-PANEL-1' });
    await page.getByLabel('Search returns').fill('RET-PANEL-1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByRole('table', { name: 'Returns, newest first' }).getByRole('row').nth(1);
    await row.waitFor();
    expect(await row.textContent()).toContain(`RET-PANEL-1${booked.awb_code}Asha Menon, Mumbai`);
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('Awaiting');
    await expectAccessible(page, 'returns');
  });

  it('signs out, ending the session on the server', async () => {
    const { page, context } = desktop;
    const [cookie] = await context.cookies();
    const headers = { cookie: `${cookie!.name}=${cookie!.value}` };
    expect((await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers })).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Dakiya' }).waitFor();
    expect((await ctx.app.inject({ method: 'GET', url: WAREHOUSES, headers })).statusCode).toBe(401);
    await context.close();
    // Every page ran under the Content-Security-Policy without breaking it.
    expect(cspViolations).toEqual([]);
  });
});
