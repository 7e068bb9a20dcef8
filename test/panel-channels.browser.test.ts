import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIM_SHOPIFY_TOKEN,
  type ShopifySimulator,
  type SimShopifyOrder,
  startShopifySimulator,
} from '../src/demo/simulators/shopify-simulator.js';
import { createTestApp, PUBLIC_BASE_URL, type TestContext } from './app.js';
import { descriptionOf, expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { authed, V1 } from './kit/http.js';
import { listed } from './kit/shipments.js';
import { createStore } from './kit/stores.js';
import { createCityWarehouse } from './kit/warehouses.js';

// Settings → Sales channels in chromium (issue 49), against a listening server whose Shopify calls
// go to the Shopify simulator: a wrong Admin API token refused beside its own field, then the shop
// connected; after the intake's round, the channel's health and counts, the webhook URL to add, the
// order imported shown in the shipments list with the store's name of it ("Shopify #1201"), and the
// order with no weight in the problems list with its reason; a retry, the default weight saved (the
// refused order imported with it), and a disconnection after its confirmation. axe-core on the page.

const PASSWORD = 's3cret-pass';
const SECRET = 'shpss_panel_test_secret';
const page0 = JSON.parse(
  readFileSync(new URL('../src/channels/fixtures/shopify/graphql-orders-page.json', import.meta.url), 'utf8'),
);
const TOKEN_HINT =
  "The custom app's Admin API access token (shpat_…): Settings → Apps and sales channels → Develop apps → the app → API credentials. Scopes: read_orders, write_orders, read_merchant_managed_fulfillment_orders, write_merchant_managed_fulfillment_orders.";
const WEIGHT_REFUSAL =
  'weight is unknown: an item has no weight in the store, and the channel has no default package weight';

/** The fixture's first order (COD, Bengaluru, a 0.4 kg kurta) as #`number`; `weighed: false` drops the item's weight. */
function simOrder(number: number, weighed = true): SimShopifyOrder {
  const node = structuredClone(page0.data.orders.edges[0].node);
  const id = 8000000000 + number;
  const items = node.lineItems.edges.map((e: { node: Record<string, unknown> }) =>
    weighed ? e.node : { ...e.node, variant: null },
  );
  return {
    ...node,
    id: `gid://shopify/Order/${id}`,
    legacyResourceId: String(id),
    name: `#${number}`,
    lineItems: items,
  };
}

let ctx: TestContext;
let sim: ShopifySimulator;
let browser: Browser;
let origin: string;
let page: Page;
let apiKey: string;
let storeName: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  sim = await startShopifySimulator();
  ctx = await createTestApp({
    settings: { outbound: { allowHttp: true, allowPrivate: true }, channels: { shopifyBaseUrl: sim.baseUrl } },
  });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Meera Looms', { username: 'meera', password: PASSWORD })).apiKey;
  await createCityWarehouse(ctx, apiKey, 'mumbai', 'Andheri Hub');
  storeName = (await createStore(ctx, apiKey, { store_name: 'meera-looms' })).store_name as string;
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${origin}/app/settings/channels`);
  await page.getByLabel('Username').fill('meera');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await sim?.close();
});

const field = (label: string) => page.getByLabel(label, { exact: true });
const cells = (row: ReturnType<Page['getByRole']>) => row.getByRole('cell').allTextContents();

describe('sales channels in chromium', () => {
  it('connects a Shopify shop (a wrong token refused beside its field), shows its health, imported order and import problem', async () => {
    sim.addOrder(simOrder(1201));
    sim.addOrder(simOrder(1202, false));
    await page.getByRole('heading', { name: 'No sales channels yet' }).waitFor();
    const form = page.getByRole('form', { name: 'Connect a sales channel' });
    // Each credential says where it is found in Shopify's admin.
    expect(await descriptionOf(form.getByLabel('Shop domain', { exact: true }))).toBe(
      'The shop\'s myshopify.com domain ("acme.myshopify.com"): Settings → Domains in the admin.',
    );
    expect(await descriptionOf(form.getByLabel('Admin API access token', { exact: true }))).toBe(TOKEN_HINT);
    // WooCommerce asks for its own credentials.
    await form.getByLabel('Platform').selectOption('woocommerce');
    expect(await descriptionOf(form.getByLabel('Consumer key', { exact: true }))).toBe(
      'The REST API key (ck_…): WooCommerce → Settings → Advanced → REST API → Add key, with Read/Write permission.',
    );
    expect(await form.getByLabel('Shop domain', { exact: true }).count()).toBe(0);
    await form.getByLabel('Platform').selectOption('shopify');

    await field('Shop domain').fill(sim.shop.myshopifyDomain);
    await field('Admin API access token').fill('shpat_wrong');
    await field('API secret key').fill(SECRET);
    await page.getByRole('button', { name: 'Connect Shopify' }).click();
    await expect.poll(() => field('Admin API access token').getAttribute('aria-invalid')).toBe('true');
    const refusal = await descriptionOf(field('Admin API access token'));
    // The store's refusal beside the field, in the form's words, then where the token is found.
    expect(refusal).toBe(
      `Admin API access token was refused by the store: Shopify refused the access token: [API] Invalid API key or access token (unrecognized login or wrong password) ${TOKEN_HINT}`,
    );
    expect(await field('Shop domain').getAttribute('aria-invalid')).toBeNull();
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${V1}/channels`, headers: authed(apiKey) })).json().data,
    ).toEqual([]);
    await expectAccessible(page, 'connect form with a refused token');

    await field('Admin API access token').fill(SIM_SHOPIFY_TOKEN);
    await page.getByRole('button', { name: 'Connect Shopify' }).click();
    await page.getByRole('status').filter({ hasText: 'is connected' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'is connected' }).textContent()).toBe(
      `${sim.shop.name} is connected: its orders waiting to ship are being pulled. Add its webhooks (above) so new orders come in at once.`,
    );
    const [channel] = (await ctx.app.inject({ method: 'GET', url: `${V1}/channels`, headers: authed(apiKey) })).json()
      .data;
    expect(channel).toMatchObject({ store_name: storeName, shop_domain: sim.shop.myshopifyDomain, on_import: 'queue' });

    // The intake imports what the shop has waiting: one order, and one it cannot (no weight).
    await ctx.app.channelIntake.round();
    await page.reload();
    const summary = page.getByRole('table', { name: 'Your sales channels, newest first' });
    const row = summary.getByRole('row').nth(1);
    await expect.poll(() => row.getByRole('cell').nth(6).textContent()).toBe('1 imported, 1 refused, 0 waiting');
    const [platform, shop, store, status, lastSync, lastError] = await cells(row);
    expect([platform, shop, store, status, lastError]).toEqual([
      'Shopify',
      `${sim.shop.name} (${sim.shop.myshopifyDomain})`,
      storeName,
      'Connected',
      'None',
    ]);
    expect(lastSync).not.toBe('Not yet');

    const card = page.getByRole('article', { name: `Shopify: ${sim.shop.name}` });
    expect(await card.getByLabel(`Webhook URL of ${sim.shop.name}`).inputValue()).toBe(
      `${PUBLIC_BASE_URL}/public/v1/channels/${channel.id}/webhook`,
    );
    expect(await card.locator('.topics li').allTextContents()).toEqual([
      'orders/create',
      'orders/updated',
      'orders/cancelled',
    ]);
    const problems = card.getByRole('table', { name: `Orders of ${sim.shop.name} that could not be imported` });
    const problem = problems.getByRole('row').nth(1);
    const [name, reason, fields] = await cells(problem);
    expect([name, reason, fields]).toEqual(['#1202', WEIGHT_REFUSAL, 'weight']);
    expect(await problems.getByRole('row').count()).toBe(2);
    await expectAccessible(page, 'sales channels');
    await page.screenshot({ path: path.join(screenshotsDir(), 'channels-desktop.png'), fullPage: true });

    // The imported order in the shipments list, with the store's name of it beside the order id.
    const imported = (
      await ctx.app.inject({
        method: 'GET',
        url: `${V1}/channels/${channel.id}/orders?state=imported`,
        headers: authed(apiKey),
      })
    ).json().data;
    expect(imported.map((r: { channel_order_name: string }) => r.channel_order_name)).toEqual(['#1201']);
    const shipment = await listed(ctx, apiKey, imported[0].shipment_id);
    const displayId: string = shipment.attributes.order.display_id;
    await page.getByRole('link', { name: 'Shipments' }).first().click();
    const orderCell = page.getByRole('row').filter({ hasText: displayId }).getByRole('cell').nth(1);
    await expect.poll(() => orderCell.textContent()).toBe(`${displayId}Shopify #1201`);
    expect(await orderCell.locator('.store-order').textContent()).toBe('Shopify #1201');
    await orderCell.getByRole('link', { name: displayId }).click();
    const dl = page.getByRole('article', { name: 'Shipment', exact: true });
    await dl.getByText('Store order').waitFor();
    expect(await dl.locator('dt:has-text("Store order") + dd').textContent()).toBe('Shopify #1201');
  });

  it('retries a refused order, imports it once a default weight is saved, and disconnects after a confirmation', async () => {
    await page.goto(`${origin}/app/settings/channels`);
    const card = page.getByRole('article', { name: `Shopify: ${sim.shop.name}` });
    const problems = card.getByRole('table', { name: `Orders of ${sim.shop.name} that could not be imported` });
    await problems.waitFor();
    await card.getByRole('button', { name: 'Retry #1202' }).click();
    await expect
      .poll(() => card.getByRole('status').first().textContent())
      .toBe('Order #1202 is queued to be imported again.');
    await card.getByText('No import problems: every order seen came in.').waitFor();
    // Still no weight in the store: refused again.
    await ctx.app.channelIntake.round();
    await page.reload();
    await expect.poll(() => problems.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe('#1202');

    // A default weight: the refused orders are imported again with it.
    const settings = card.getByRole('form', { name: `Import settings of ${sim.shop.name}` });
    await settings.getByLabel('Default weight (kg)').fill('heavy');
    await settings.getByRole('button', { name: 'Save the settings' }).click();
    await expect
      .poll(() => descriptionOf(settings.getByLabel('Default weight (kg)')))
      .toBe(
        'Default weight (kg) must be a number above 0 The weight an order ships at when an item has no weight in the store; without it such an order is refused until fixed.',
      );
    await settings.getByLabel('Default weight (kg)').fill('0.5');
    await settings.getByRole('button', { name: 'Save the settings' }).click();
    await expect
      .poll(() => settings.getByRole('status').textContent())
      .toBe('Saved; the refused orders are imported again with them.');
    const saved = (await ctx.app.inject({ method: 'GET', url: `${V1}/channels`, headers: authed(apiKey) })).json()
      .data[0];
    expect(saved).toMatchObject({ default_weight: 0.5, on_import: 'queue', notify_customer: false });
    await ctx.app.channelIntake.round();
    await page.reload();
    await card.getByText('No import problems: every order seen came in.').waitFor();
    const row = page.getByRole('table', { name: 'Your sales channels, newest first' }).getByRole('row').nth(1);
    await expect.poll(() => row.getByRole('cell').nth(6).textContent()).toBe('2 imported, 0 refused, 0 waiting');

    // Disconnect asks first; keeping it changes nothing.
    await card.getByRole('button', { name: 'Disconnect' }).click();
    await card.getByRole('button', { name: 'Keep it connected' }).click();
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('Connected');
    await card.getByRole('button', { name: 'Disconnect' }).click();
    expect(await card.getByRole('group', { name: 'Confirm disconnecting' }).locator('p').textContent()).toBe(
      `Disconnect ${sim.shop.name}? No more orders come in from it; the orders already imported stay.`,
    );
    await card.getByRole('button', { name: 'Yes, disconnect' }).click();
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toMatch(/^Disconnected /);
    const gone = (await ctx.app.inject({ method: 'GET', url: `${V1}/channels`, headers: authed(apiKey) })).json()
      .data[0];
    expect(gone.status).toBe('disconnected');
    expect(await card.getByRole('button', { name: 'Sync now' }).count()).toBe(0);
    await expectAccessible(page, 'sales channels, disconnected');
  });
});
