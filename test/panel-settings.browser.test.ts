import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../src/demo/simulators/delhivery-simulator.js';
import { DELHIVERY_AIR, DTDC, ratesWith, SHADOWFAX } from './kit/couriers.js';
import { RETURNS, SHIPMENTS } from './kit/http.js';
import { orchestrate, orderBody } from './kit/orders.js';
import { deliveredForward } from './kit/returns.js';
import { createStore, listStores } from './kit/stores.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';

// The panel's returns and the rest of its settings in chromium, against a listening server whose
// Delhivery Air books through a local simulator of Delhivery's API: a return created from a
// delivered shipment (its field errors beside their fields), booked, then its quality check as the
// courier reports it; a store's customer e-mails turned off and on; the courier connections with
// the health the connectors recorded (a call answered, a call failed). axe-core on every page.

const PASSWORD = 's3cret-pass';
const TRACK = '/api/v1/packages/json';
/** A 1280 x 800 viewport, not the full page: enough to show the screen, small enough to commit. */
const shot = (name: string, fullPage = false) =>
  page.screenshot({ path: path.join(screenshotsDir(), `${name}-desktop.png`), fullPage });

let ctx: TestContext;
let sim: DelhiverySimulator;
let browser: Browser;
let origin: string;
let page: Page;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  sim = await startDelhiverySimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [DELHIVERY_AIR]: 'delhivery', [DTDC]: 'sandbox' }),
    settings: {
      couriers: {
        delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl },
        timeoutMs: 2000,
        pollSeconds: 60,
      },
    },
  });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Kavya Crafts', { username: 'kavya', password: PASSWORD })).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub');
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true })).newPage();
  await page.goto(`${origin}/app/returns`);
  await page.getByLabel('Username').fill('kavya');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await sim?.close();
});

const invalid = (label: string) => page.getByLabel(label, { exact: true }).getAttribute('aria-invalid');

describe('returns in chromium', () => {
  it('creates a return from a delivered shipment: field errors beside their fields, then booked, then its quality check', async () => {
    const forward = await deliveredForward(ctx, { apiKey, warehouseId });
    const orderId = forward.channel_order_id;
    const listed = (
      await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: { authorization: apiKey }, payload: {} })
    ).json().data[0];
    const forwardName: string = listed.attributes.shipping_address.name;
    await page.goto(`${origin}/app/shipments/${forward.shipment_id}?order=${encodeURIComponent(orderId)}`);
    await page.getByRole('link', { name: 'Create a return' }).click();
    await page.getByRole('heading', { name: `Return of order ${orderId}` }).waitFor();
    expect(await page.getByLabel('Customer name').inputValue()).toBe(forwardName);
    expect(await page.getByLabel('Pickup pincode').inputValue()).toBe('400001');
    expect(await page.getByLabel('Return id').inputValue()).toBe(`RET-${orderId}`);
    await page.getByLabel('Quality check of Cotton Kurta at pickup').check();
    await page.getByLabel('Weight (kg)').fill('');
    await page.getByRole('button', { name: 'Book the return' }).click();
    // No street address and no weight: both named beside their fields in one answer.
    await expect.poll(() => invalid('Pickup street address')).toBe('true');
    expect(await invalid('Weight (kg)')).toBe('true');
    expect(await invalid('Customer name')).toBeNull();
    await expectAccessible(page, 'return form with errors');
    await page.getByLabel('Pickup street address').fill('12 Marine Drive');
    await page.getByLabel('Weight (kg)').fill('0.5');
    await page.getByRole('button', { name: 'Book the return' }).click();
    // Then the quality check's own rule: a product image to check against.
    await expect.poll(() => invalid('Cotton Kurta: product image URL')).toBe('true');
    expect(await invalid('Pickup street address')).toBeNull();
    await shot('return-create', true);
    expect(
      (await ctx.app.inject({ method: 'POST', url: RETURNS, headers: { authorization: apiKey }, payload: {} })).json()
        .meta.total,
    ).toBe(0);

    await page.getByLabel('Cotton Kurta: product image URL').fill('https://cdn.acme.example/kurta-blue.jpg');
    await page.getByRole('button', { name: 'Book the return' }).click();
    const card = page.getByRole('article', { name: 'Return booked' });
    await card.waitFor();
    const [made] = (
      await ctx.app.inject({ method: 'POST', url: RETURNS, headers: { authorization: apiKey }, payload: {} })
    ).json().data;
    const awb: string = made.attributes.tracking_number;
    expect(made.attributes).toMatchObject({
      qc_enabled: true,
      qc_status: null,
      forward_shipment_id: forward.shipment_id,
    });
    expect(made.attributes.pickup_address).toMatchObject({ name: forwardName, zip: '400001' });
    expect(await card.textContent()).toContain(`AWB${awb}`);
    expect(await card.textContent()).toContain('Quality checkAt pickup, by the courier');
    await expectAccessible(page, 'return booked');

    await card.getByRole('link', { name: 'See it in Returns' }).click();
    const row = page.getByRole('table', { name: 'Returns, newest first' }).getByRole('row').nth(1);
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toBe('Awaiting');
    // The courier reports the pickup with its check: the screen shows the outcome.
    const token = await issueCarrierToken(ctx, made.attributes.carrier.id);
    const later = new Date(ctx.clock.now().getTime() + 60_000).toISOString();
    expect(
      (
        await sendEvents(ctx, token, [
          { awb, status: 'return_picked_up', event_time: later, qc_status: 'passed' } as never,
        ])
      )[0]!.accepted,
    ).toBe(true);
    await page.reload();
    await expect.poll(() => row.getByRole('cell').nth(4).textContent()).toBe('Passed');
    await expectAccessible(page, 'returns');
    await shot('returns');
  });
});

describe('settings: e-mail notifications and courier connections in chromium', () => {
  it("turns a store's customer e-mails off and on, with the support address's field error beside it", async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'kavya-crafts', brand_name: 'Kavya Crafts' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'E-mail notifications' })
      .click();
    const form = page.getByRole('form', { name: 'Kavya Crafts' });
    await form.waitFor();
    for (const label of ['Out for delivery', 'Delivered', 'Delivery failed'])
      expect(await form.getByLabel(label, { exact: true }).isChecked()).toBe(true);
    await expectAccessible(page, 'e-mail notifications');

    await form.getByLabel('Out for delivery').uncheck();
    await form.getByLabel('Delivered', { exact: true }).uncheck();
    await form.getByLabel('Support e-mail of Kavya Crafts').fill('not an address');
    await form.getByRole('button', { name: "Save Kavya Crafts's e-mails" }).click();
    await expect
      .poll(() => form.getByLabel('Support e-mail of Kavya Crafts').getAttribute('aria-invalid'))
      .toBe('true');
    expect((await listStores(ctx, apiKey))[0]!.notify_events).toEqual(store.notify_events);
    await expectAccessible(page, 'e-mail notifications with an error');

    await form.getByLabel('Support e-mail of Kavya Crafts').fill('help@kavya.example');
    await form.getByRole('button', { name: "Save Kavya Crafts's e-mails" }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Saved.');
    expect((await listStores(ctx, apiKey))[0]).toMatchObject({
      notify_events: [
        'shipped',
        'ndr_raised',
        'rto_delivered',
        'return_requested',
        'return_approved',
        'return_rejected',
      ],
      support_email: 'help@kavya.example',
    });
    await page.reload();
    await form.waitFor();
    expect(await form.getByLabel('Out for delivery').isChecked()).toBe(false);
    expect(await form.getByLabel('Shipped (booked, with the courier and AWB)').isChecked()).toBe(true);
    await shot('notifications');
  });

  it('sets what booking an order over the e-way bill limit without its number does (docs/paperwork.md)', async () => {
    const read = async () =>
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/custom/api/v1/paperwork-settings',
          headers: { authorization: apiKey },
        })
      ).json().data;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Paperwork' }).click();
    const form = page.getByRole('form', { name: 'E-way bills' });
    await form.waitFor();
    expect(await form.getByLabel('Refuse to book it').isChecked()).toBe(true);
    await expectAccessible(page, 'paperwork');
    await form.getByLabel('Book it with a warning').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form.getByRole('status').textContent()).toBe('Saved.');
    expect(await read()).toEqual({ eway_bill_check: 'warn' });
    await page.reload();
    await form.waitFor();
    expect(await form.getByLabel('Book it with a warning').isChecked()).toBe(true);
    await shot('paperwork');
  });

  it('sets how long finished shipments keep their buyer, and erases a buyer on their request (docs/data-lifecycle.md)', async () => {
    const delivered = await deliveredForward(
      ctx,
      { apiKey, warehouseId },
      { phone: '9000033333', customer: 'Ottoline' },
    );
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: "Buyers' data" }).click();
    const period = page.getByRole('form', { name: 'Anonymisation' });
    await period.waitFor();
    expect(await period.getByLabel('Days after a shipment finishes').inputValue()).toBe('180');
    await expectAccessible(page, 'privacy');
    await period.getByLabel('Days after a shipment finishes').fill('365');
    await period.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => period.getByRole('status').textContent()).toBe('Saved.');
    const settings = await ctx.app.inject({
      method: 'GET',
      url: '/custom/api/v1/privacy-settings',
      headers: { authorization: apiKey },
    });
    expect(settings.json().data).toEqual({ anonymise_buyers_after_days: 365, default: false });

    const erase = page.getByRole('form', { name: 'Erase a buyer' });
    await erase.getByLabel('Phone').fill('+91 90000 33333');
    page.once('dialog', (dialog) => void dialog.accept());
    await erase.getByRole('button', { name: 'Erase' }).click();
    await expect
      .poll(() => erase.getByRole('status').locator('p').textContent())
      .toBe('Erased from 1 order, 0 returns and 0 return requests.');
    expect(await erase.getByRole('list', { name: 'Rows erased' }).getByRole('listitem').allTextContents()).toContain(
      'orders: 1',
    );
    const order = await ctx.app.inject({
      method: 'POST',
      url: SHIPMENTS,
      headers: { authorization: apiKey },
      payload: { search: delivered.awb_code },
    });
    expect(JSON.stringify(order.json())).not.toContain('Ottoline');

    // The account's export: started, followed while the server writes it, then downloaded.
    await page.getByRole('button', { name: 'Export the account' }).click();
    const exports = page.getByRole('list', { name: 'Exports' });
    await expect.poll(() => exports.getByRole('listitem').first().textContent()).toContain('being written');
    expect(await page.getByRole('button', { name: 'Export being written…' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'privacy, an export being written');
    await ctx.app.accountExports.runPending();
    const download = exports.getByRole('link', { name: /^Download \(\d+ KB\)$/ });
    await download.waitFor();
    const archive = await page.request.get(new URL((await download.getAttribute('href'))!, page.url()).toString());
    expect([archive.status(), archive.headers()['content-type']]).toEqual([200, 'application/gzip']);
    expect((await archive.body()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    await shot('privacy');
  });

  it("shows each courier service's connector and its health: a call answered, then one failed", async () => {
    const answeredAt = ctx.clock.now();
    const shipment = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_AIR }));
    expect(sim.packages.has(shipment.awb_code!)).toBe(true);
    ctx.clock.advance(5 * 60_000);
    const failedAt = ctx.clock.now();
    sim.failNext(TRACK, '500');
    await ctx.app.courierPoller.runOnce();

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Courier connections' }).click();
    const table = page.getByRole('table', { name: 'Courier services and their connections' });
    await table.waitFor();
    const cells = async (service: string) =>
      table.getByRole('row').filter({ hasText: service }).first().getByRole('cell').allTextContents();
    const india = (at: Date) =>
      new Intl.DateTimeFormat('en-IN', {
        timeZone: 'Asia/Kolkata',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }).format(at);
    await expect
      .poll(() => cells('Delhivery Air'))
      .toEqual([
        'Delhivery Air',
        "Delhivery's API",
        "The server's",
        india(answeredAt),
        `${india(failedAt)}: HTTP 500`,
        'No token',
        'None',
      ]);
    expect(await cells('DTDC')).toEqual([
      'DTDC StandardTest bookings',
      'Sandbox: simulated, test bookings',
      'Not needed',
      'None yet',
      'None',
      'No token',
      'None',
    ]);
    expect((await cells('Shadowfax Standard')).slice(1)).toEqual([
      'Push: the courier sends its scans to Dakiya',
      'Not needed',
      'Dakiya does not call this courier; it posts its scans to Dakiya.',
      'None',
    ]);
    await expect.poll(() => page.getByRole('heading', { name: 'No kept scans' }).isVisible()).toBe(true);

    // A pushed scan stamped an hour before its booking (India time sent as UTC): kept, counted, listed as sent.
    const pushed = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: SHADOWFAX }));
    const early = {
      awb: pushed.awb_code!,
      status: 'in_transit',
      event_time: new Date(ctx.clock.now().getTime() - 60 * 60_000).toISOString(),
    };
    expect((await sendEvents(ctx, await issueCarrierToken(ctx, SHADOWFAX), [early]))[0]!.accepted).toBe(false);
    await page.reload();
    await expect.poll(async () => (await cells('Shadowfax Standard')).at(-1)).toBe('1 to look at');
    const kept = page.getByRole('table', { name: 'Kept scans, oldest first' });
    expect(await kept.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe(pushed.awb_code);
    expect(await kept.getByRole('row').nth(1).getByRole('cell').nth(2).textContent()).toMatch(
      /^Stamped before the booking: event_time .* is more than 15 minutes before the shipment was booked/,
    );
    await page.getByRole('button', { name: 'Read them again' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Read 1 again' }).textContent())
      .toBe('Read 1 again: 0 applied, 1 still kept.');
    await expectAccessible(page, 'courier connections');
    await shot('couriers', true);

    // The merchant's own Delhivery contract: the missing field named beside it, then stored, then forgotten.
    const own = page.getByRole('form', { name: 'Store your courier credentials' });
    await own.getByRole('button', { name: 'Store credentials' }).click();
    await expect.poll(() => own.getByLabel('API token').getAttribute('aria-invalid')).toBe('true');
    expect(await own.getByRole('alert').textContent()).toBe('api_token is required for delhivery');
    await expectAccessible(page, 'own courier credentials with an error');
    await own.getByLabel('API token').fill(SIM_TOKEN);
    await own.getByRole('button', { name: 'Store credentials' }).click();
    await expect
      .poll(() => own.getByRole('status').textContent())
      .toBe('Your Delhivery credentials are stored; your parcels with it use them from now on.');
    await expect.poll(async () => (await cells('Delhivery Air'))[2]).toMatch(/^Your own \(set \d/);
    expect(await own.getByLabel('API token').inputValue()).toBe('');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: "Use the server's credentials for Delhivery" }).click();
    await expect.poll(async () => (await cells('Delhivery Air'))[2]).toBe("The server's");
    await expectAccessible(page, 'own courier credentials forgotten');
  });
});

describe("settings: a store's tracking page in chromium", () => {
  it("links each store to its tracking page, where a buyer's AWB shows the parcel, and with the order's phone (or an order id and phone) opens its page", async () => {
    const store = await createStore(ctx, apiKey, { store_name: 'kavya-home', brand_name: 'Kavya Home' });
    const booked = await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, { store_name: 'kavya-home', carrier_id: DTDC, billing_phone: '9812345670' }),
    );
    // Loaded afresh: the panel holds the stores it read when the earlier tests opened Settings.
    await page.goto(`${origin}/app/settings`);
    const link = page.getByRole('table', { name: 'Your stores' }).getByRole('link', { name: store.tracking_page_url });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/track/${store.id}`);
    await expectAccessible(page, 'stores with their tracking pages');

    await link.click();
    await page.waitForURL(`${origin}/track/${store.id}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Kavya Home');
    await expectAccessible(page, "the store's tracking page");
    const byAwb = page.getByRole('form', { name: 'Track by AWB' });
    await byAwb.getByLabel('AWB (tracking number)').fill('DTDC0000000000');
    await byAwb.getByRole('button', { name: 'Track' }).click();
    expect(await page.getByRole('alert').textContent()).toBe(
      'We could not find a Kavya Home shipment with these details. Check them against your order confirmation and try again; a parcel shows here once the courier is booked.',
    );
    await expectAccessible(page, "the store's tracking page, nothing found");
    // An AWB alone shows where the parcel is, read-only; the order's phone beside it opens its page.
    await byAwb.getByLabel('AWB (tracking number)').fill(booked.awb_code!);
    await byAwb.getByRole('button', { name: 'Track' }).click();
    await page.waitForURL(`${origin}/track/${store.id}?awb=${booked.awb_code}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Kavya Home');
    expect(await page.locator('.awb').textContent()).toBe(booked.awb_code);
    expect(await page.content()).not.toContain(new URL(booked.track_url!).pathname);
    await expectAccessible(page, "an AWB's read-only page");
    const manage = page.getByRole('form', { name: 'Is this your parcel?' });
    await manage.getByLabel('Phone number on the order').fill('98123 45670');
    await manage.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${origin}${new URL(booked.track_url!).pathname}`);
    expect(await page.locator('.awb').textContent()).toBe(booked.awb_code);

    await page.goto(`${origin}/track/${store.id}`);
    const byOrder = page.getByRole('form', { name: 'Track by order number' });
    await byOrder.getByLabel('Order number').fill(booked.channel_order_id);
    await byOrder.getByLabel('Phone number on the order').fill('98123 45670');
    await byOrder.getByRole('button', { name: 'Track' }).click();
    await page.waitForURL(`${origin}${new URL(booked.track_url!).pathname}`);
    await page.goto(`${origin}/app/settings`);
  });
});
