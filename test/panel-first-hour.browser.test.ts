import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSimulatedCouriers } from '../src/couriers/with-connectors.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../src/demo/simulators/delhivery-simulator.js';
import { parseCsv } from '../src/domain/csv.js';
import { createTestApp, type TestContext } from './app.js';
import { descriptionOf, expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { DELHIVERY_SURFACE, ratesWith, SHADOWFAX } from './kit/couriers.js';
import { authed, CANCEL, post, RATES, SHIPMENTS, V1 } from './kit/http.js';
import { book } from './kit/orders.js';
import { createStore } from './kit/stores.js';
import { at, issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { until } from './webhook-receiver.js';
import { FAILED_ONCE, NOW, PICKED_UP } from './ndr.js';
import type { CarrierEvent } from '../src/couriers/carrier-event.js';

// What a new merchant meets in the first hour, in Debian's chromium at a 1366 px laptop and a
// 390 px phone: a shipments list that fits with every status on a tab, a CSV export whose
// formula-like cells stay text, an order form that speaks its own words and lets the allocation
// rules choose unless told otherwise, NDR reasons in words, a courier picker for allocation rules,
// a shipment page with the street address and the buyer's e-mails, and a phone's menu and tabs.

const PASSWORD = 's3cret-pass';
/** The page's globals these tests read, typed here: the tests' TypeScript has no DOM library. */
interface PageGlobals {
  getComputedStyle(element: unknown, pseudo?: string): { backgroundColor: string; opacity: string };
}
const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Customer names a spreadsheet would run as formulas (OWASP's starting characters). */
const FORMULAS = ['=HYPERLINK("https://evil.example","Refund")', '+SUM(1,2)', '-2+3', '@SUM(1,1)'];

let ctx: TestContext;
let sim: DelhiverySimulator;
let browser: Browser;
let origin: string;
let apiKey: string;
let warehouseId: string;
let laptop: { context: BrowserContext; page: Page };
/** The shipments by what happened to them. */
const seeded: Record<'pending' | 'lost' | 'ndr' | 'delivered' | 'cancelled', string> = {
  pending: '',
  lost: '',
  ndr: '',
  delivered: '',
  cancelled: '',
};

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  sim = await startDelhiverySimulator();
  ctx = await createTestApp({
    // Delhivery Surface books through its connector against a simulator of Delhivery's API, as the demo's does.
    rates: withSimulatedCouriers(ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }), [DELHIVERY_SURFACE]),
    settings: {
      couriers: { delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl }, timeoutMs: 2000 },
      workers: { pollIntervalMs: 100 },
    },
    delivery: ['notifications'],
  });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Chai Point Retail', { username: 'chai', password: PASSWORD })).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub');
  await createStore(ctx, apiKey, { store_name: 'chai-point', brand_name: 'Chai Point' });

  // A shipment in each state a merchant meets first, and four whose buyer's name looks like a formula:
  // all booked at the clock's start, then moved by the courier's scans an hour or more later.
  const token = await issueCarrierToken(ctx, SHADOWFAX);
  const booked: Record<string, string> = {};
  const shipment = async (orderId: string, customer = 'Asha') => {
    const made = await book(ctx, apiKey, warehouseId, { orderId, customer, storeName: 'chai-point' });
    booked[made.shipment_id] = made.awb_code!;
    return made.shipment_id;
  };
  seeded.pending = await shipment('ORD-PENDING');
  seeded.lost = await shipment('ORD-LOST');
  seeded.ndr = await shipment('ORD-NDR', 'Ravi');
  seeded.delivered = await shipment('ORD-DELIVERED');
  seeded.cancelled = await shipment('ORD-CANCELLED');
  for (const [i, name] of FORMULAS.entries()) await shipment(`ORD-CSV-${i + 1}`, name);
  expect((await post(ctx, apiKey, CANCEL, { shipment_id: seeded.cancelled })).statusCode).toBe(200);
  ctx.clock.set(NOW);
  const scans: [string, CarrierEvent[]][] = [
    [seeded.lost, [...PICKED_UP, { awb: '', status: 'others', sub_status: 'lost', event_time: at(120) }]],
    [seeded.ndr, FAILED_ONCE],
    [
      seeded.delivered,
      [
        ...PICKED_UP,
        { awb: '', status: 'out_for_delivery', event_time: at(60) },
        { awb: '', status: 'delivered', event_time: at(90) },
      ],
    ],
  ];
  for (const [id, events] of scans)
    await sendEvents(
      ctx,
      token,
      events.map((e) => ({ ...e, awb: booked[id]! })),
    );
  // The buyer's e-mails are written by the notifications worker in the background, after the events
  // settle; on PostgreSQL that waits for every writing transaction of the server to end, whichever
  // database is its (events/events.repository.ts), so with other suites writing beside this one it
  // takes a while. Waited for here, within this hook's time-out, not by a test's own deadline.
  await until(
    async () => {
      const answer = await api('GET', `${V1}/shipments/${seeded.lost}/notifications`);
      return answer.json().data.some((n: { status: string }) => n.status !== 'pending');
    },
    "the lost shipment's first e-mail",
    Number.POSITIVE_INFINITY,
  );

  laptop = await open(LAPTOP);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await sim?.close();
});

async function open(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${origin}/app`);
  await page.getByLabel('Username').fill('chai');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return { context, page };
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(screenshotsDir(), `${name}.png`), fullPage: false });
const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: authed(apiKey), ...(payload && { payload }) });
const listed = async (search: string) => (await api('POST', SHIPMENTS, { search })).json().data[0].attributes;
/** Whether the box lies within [left, right] of the viewport, all of it. */
const within = async (locator: Locator, left: number, right: number) => {
  const box = (await locator.boundingBox())!;
  return box.x >= left - 0.5 && box.x + box.width <= right + 0.5;
};
const pageWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

describe('the first hour at 1366 px', () => {
  it('shows the shipments list within its card, every status on a visible tab, the tabs adding up to All, a lost parcel named', async () => {
    const { page } = laptop;
    await nav(page, 'Shipments');
    const table = page.getByRole('table', { name: 'Shipments, newest first' });
    await expect.poll(() => table.getByRole('row').count()).toBe(10);
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      '',
      'Order',
      'AWB',
      'Customer',
      'Destination',
      'Status',
      'Courier',
      'Payment',
      'Created',
    ]);
    // The table needs no sideways scrolling inside its box, and the page none either.
    expect(await table.evaluate((t) => t.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(LAPTOP.width);
    const tabs = page.getByRole('tab');
    await expect.poll(async () => (await tabs.allTextContents()).some((t) => t.includes('…'))).toBe(false);
    const labels = (await tabs.allTextContents()).map((t) => t.replace(/ \d+$/, ''));
    expect(labels).toEqual([
      'All',
      'Pending',
      'In transit',
      'Out for delivery',
      'Delivered',
      'NDR raised',
      'RTO initiated',
      'RTO in transit',
      'RTO delivered',
      'Lost, damaged or held',
      'Cancelled',
    ]);
    for (const tab of await tabs.all())
      expect(await within(tab, 0, LAPTOP.width), (await tab.textContent()) ?? '').toBe(true);
    expect(await page.getByRole('tablist', { name: 'Status' }).evaluate((l) => l.scrollWidth <= l.clientWidth)).toBe(
      true,
    );
    const counts = (await tabs.allTextContents()).map((t) => Number(/(\d+)$/.exec(t)![1]));
    expect(counts[0]).toBe(9);
    expect(counts.slice(1).reduce((a, b) => a + b, 0)).toBe(counts[0]);
    expect(Object.fromEntries(labels.map((l, i) => [l, counts[i]]))).toMatchObject({
      Pending: 5,
      Delivered: 1,
      'NDR raised': 1,
      'Lost, damaged or held': 1,
      Cancelled: 1,
    });
    expect(await table.getByRole('row').filter({ hasText: 'ORD-LOST' }).locator('.status').textContent()).toBe('Lost');
    await page.getByRole('tab', { name: /^Lost, damaged or held/ }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('link').allTextContents()).toEqual(['ORD-LOST']);
    await expectAccessible(page, 'shipments at 1366 px');
    await page.getByRole('tab', { name: /^All/ }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(10);
    await shot(page, 'shipments-1366');
  });

  it("exports the selected rows as CSV with the server's cell writer: =, +, - and @ cells start with an apostrophe", async () => {
    const { page } = laptop;
    for (let i = 1; i <= FORMULAS.length; i++)
      await page.getByRole('checkbox', { name: `Select ORD-CSV-${i}` }).check();
    const bulk = page.getByRole('region', { name: 'Selected shipments' });
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      bulk.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const { records } = parseCsv(readFileSync((await csv.path())!, 'utf8'));
    const [header, ...rows] = records.map((r) => r.fields);
    const customer = header!.indexOf('customer');
    expect(rows.map((r) => r[customer]).sort()).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    // No cell of the file starts as a formula would.
    expect(rows.flat().filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    for (let i = 1; i <= FORMULAS.length; i++)
      await page.getByRole('checkbox', { name: `Select ORD-CSV-${i}` }).uncheck();
  });

  it('names every bad field of the order form at once, in its own words beside each field', async () => {
    const { page } = laptop;
    await nav(page, 'Create shipment');
    await page.getByRole('heading', { name: 'Create shipment' }).waitFor();
    // The account's one store is chosen to begin with.
    expect(await page.getByLabel('Store').inputValue()).toBe('chai-point');
    // Comparing rates with no pincode and no price: each named beside its field, not as shipment_value.
    await page.getByRole('button', { name: 'Compare rates' }).click();
    await expect.poll(() => descriptionOf(page.getByLabel('Item 1 price (₹)'))).toBe('Item 1 price (₹) is needed');
    expect(await descriptionOf(page.getByLabel('Pincode'))).toBe(
      'Pincode must be the 6 digits of an Indian pincode City and state fill in from the pincode',
    );
    await page.getByRole('button', { name: 'Book shipment' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.locator('li').count()).toBe(9);
    const invalid = ['First name', 'Phone', 'Address', 'Pincode', 'City', 'State', 'Item 1 name', 'Item 1 SKU'];
    for (const label of [...invalid, 'Item 1 price (₹)'])
      expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'), label).toBe('true');
    expect(await page.getByLabel('Last name').getAttribute('aria-invalid')).toBeNull();
    expect(await descriptionOf(page.getByLabel('First name'))).toBe("First name is needed: the buyer's first name");
    // Not one API field name: the merchant's words throughout.
    expect((await alert.locator('li').allTextContents()).filter((m) => /[a-z]+_[a-z]+/.test(m))).toEqual([]);
    await expectAccessible(page, 'order form with every problem');
    // A phone the form can tell is wrong, with the rest right, is named alone.
    await page.getByLabel('First name').fill('Priya');
    await page.getByLabel('Phone').fill('12345');
    await page.getByLabel('Address').fill('42, 5th Cross, Koramangala 4th Block');
    await page.getByLabel('Pincode').fill('560034');
    // The pincode's city, as addresses write it, not its district.
    await expect.poll(() => page.getByLabel('City').inputValue()).toBe('Bengaluru');
    expect(await page.getByLabel('State').inputValue()).toBe('Karnataka');
    expect(await descriptionOf(page.getByLabel('Pincode'))).toContain(
      'Bengaluru, Karnataka (Bengaluru Urban district)',
    );
    await page.getByLabel('Item 1 name').fill('Masala Chai Tin');
    await page.getByLabel('Item 1 SKU').fill('CHAI-250');
    await page.getByLabel('Item 1 price (₹)').fill('349');
    await page.getByRole('button', { name: 'Book shipment' }).click();
    await expect
      .poll(() => descriptionOf(page.getByLabel('Phone')))
      .toBe('Phone must be a 10-digit Indian phone number, e.g. 98765 43210');
    expect(await page.getByRole('alert').textContent()).toBe(
      'Phone must be a 10-digit Indian phone number, e.g. 98765 43210',
    );
    await page.getByLabel('Phone').fill('9123456780');
  });

  it("books with the courier the allocation rules choose unless a compared rate is chosen, and says which; the confirmation names the merchant's order id", async () => {
    const { page } = laptop;
    // A rule that chooses a courier other than the cheapest: comparing rates must not quietly undo it.
    const quotes = (
      await api('POST', RATES, {
        journey_type: 'forward',
        origin_pincode: '110001',
        destination_pincode: '560034',
        dead_weight: 500,
        length: 20,
        width: 15,
        height: 10,
        payment_method: 'cod',
        shipment_value: 349,
      })
    ).json().result.serviceable_couriers as {
      carrier_id: string;
      carrier_name: string;
      charges: { total_forward_charges: number };
    }[];
    const byPrice = [...quotes].sort((a, b) => a.charges.total_forward_charges - b.charges.total_forward_charges);
    const cheapest = byPrice[0]!;
    const ruled = byPrice.at(-1)!;
    expect(ruled.carrier_id).not.toBe(cheapest.carrier_id);
    const rule = await api('POST', `${V1}/allocation/rules`, {
      name: 'COD: our contract first',
      priority: 1,
      strategy: 'priority',
      carrier_ids: [ruled.carrier_id],
      conditions: { payment_methods: ['cod'] },
    });
    expect(rule.statusCode, rule.body).toBe(201);

    await page.getByLabel('Order id').fill('CHAI-1001');
    await page.getByLabel('Order date').fill('2026-11-20 11:00');
    await page.getByRole('button', { name: 'Compare rates' }).click();
    const choice = page.getByRole('group', { name: 'Courier' });
    await choice.getByRole('table', { name: 'Couriers for this parcel' }).waitFor();
    const byRules = choice.getByRole('radio', { name: /^As your allocation rules choose/ });
    expect(await byRules.isChecked()).toBe(true);
    expect(await choice.locator('label').first().textContent()).toContain(
      `As your allocation rules choose: ${ruled.carrier_name} (rule “COD: our contract first”:`,
    );
    const ruledRow = choice.getByRole('row').filter({ hasText: ruled.carrier_name });
    expect(await ruledRow.textContent()).toContain("Your rules' choice");
    expect(await choice.getByRole('row').filter({ hasText: 'Cheapest' }).getByRole('radio').isChecked()).toBe(false);
    await expectAccessible(page, 'order form with the rules and the rates');
    await shot(page, 'create-shipment-1366');
    await page.getByRole('button', { name: 'Book shipment', exact: true }).click();
    await page.getByRole('heading', { name: 'Shipment booked' }).waitFor();
    const booked = await listed('CHAI-1001');
    expect(booked.carrier.id).toBe(ruled.carrier_id);
    const said = (await page.getByRole('status').textContent())!;
    expect(said).toContain(`Order CHAI-1001 is booked with ${ruled.carrier_name}: AWB ${booked.tracking_number}.`);
    expect(said).toContain('Your allocation rule “COD: our contract first” chose it');
    expect(said).not.toContain(booked.order.id);
    await expectAccessible(page, 'booked by the rules');

    // The same order again, the cheapest booked on purpose.
    await page.getByRole('button', { name: 'Book another' }).click();
    await page.getByLabel('Order id').fill('CHAI-1002');
    await page.getByLabel('Order date').fill('2026-11-20 11:05');
    await page.getByLabel('First name').fill('Priya');
    await page.getByLabel('Phone').fill('9123456780');
    await page.getByLabel('Address').fill('42, 5th Cross, Koramangala 4th Block');
    await page.getByLabel('Pincode').fill('560034');
    await expect.poll(() => page.getByLabel('City').inputValue()).toBe('Bengaluru');
    await page.getByRole('button', { name: 'Compare rates' }).click();
    await page.getByRole('radio', { name: `Ship with ${cheapest.carrier_name}` }).check();
    await page.getByRole('button', { name: `Book with ${cheapest.carrier_name}` }).click();
    await page.getByRole('heading', { name: 'Shipment booked' }).waitFor();
    expect((await listed('CHAI-1002')).carrier.id).toBe(cheapest.carrier_id);
    expect(await page.getByRole('status').textContent()).toContain('You chose this courier from the rate comparison.');
  });

  it('tells NDR reasons in words and the reattempt refusals by the form’s labels', async () => {
    const { page } = laptop;
    await nav(page, 'NDR');
    const queue = page.getByRole('table', { name: '1 shipment awaiting your decision' });
    await queue.waitFor();
    const row = queue.getByRole('row').filter({ hasText: 'ORD-NDR' });
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('Customer not available');
    await row.getByRole('button', { name: 'Reattempt ORD-NDR' }).click();
    const form = page.getByRole('form', { name: 'Reattempt ORD-NDR' });
    await form.getByLabel('New phone number').fill('12345');
    await form.getByRole('button', { name: 'Ask for another attempt' }).click();
    await expect
      .poll(() => descriptionOf(form.getByLabel('New phone number')))
      .toBe('New phone number must be a 10-digit Indian mobile number');
    expect(await form.getByRole('alert').textContent()).toBe(
      'New phone number must be a 10-digit Indian mobile number',
    );
    await form.getByRole('button', { name: 'Close' }).click();
    // The NDR rules offer the reasons by their words too.
    await page.getByRole('button', { name: 'Add a rule' }).click();
    const reasons = page.getByRole('group', { name: 'Rule 1: NDR reasons' });
    expect(await reasons.getByRole('checkbox').count()).toBe(8);
    expect(await reasons.getByLabel('Customer not available').count()).toBe(1);
    await expectAccessible(page, 'NDR queue in words');
  });

  it('picks allocation couriers by name, shows states as written and overlaps as information', async () => {
    const { page } = laptop;
    const south = await api('POST', `${V1}/allocation/rules`, {
      name: 'South: the fastest',
      priority: 2,
      strategy: 'fastest',
      carrier_ids: [SHADOWFAX, DELHIVERY_SURFACE],
      conditions: { states: ['karnataka', 'TAMIL NADU'] },
    });
    expect(south.statusCode, south.body).toBe(201);
    await nav(page, 'Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Courier allocation' }).click();
    const table = page.getByRole('table', { name: 'Rules, in the order they are tried' });
    const southRow = table.getByRole('row').filter({ hasText: 'South: the fastest' });
    await southRow.waitFor();
    expect(await southRow.getByRole('cell').nth(3).textContent()).toBe('Shadowfax Standard, Delhivery Surface');
    expect(await southRow.getByRole('cell').nth(4).textContent()).toBe('states Karnataka, Tamil Nadu');
    // The overlap is said as information, calmly: not an alert, not the warnings' yellow.
    const notes = page.getByRole('region', { name: 'Notes on these rules' });
    expect(await notes.getByRole('listitem').allTextContents()).toEqual([
      "Rule 'South: the fastest' overlaps rule 'COD: our contract first' (priority 1): orders matching both go to 'COD: our contract first'",
    ]);
    expect(
      await notes.evaluate((n) => (globalThis as unknown as PageGlobals).getComputedStyle(n).backgroundColor),
    ).toBe('rgb(238, 244, 251)');
    expect(await page.getByRole('alert').count()).toBe(0);

    const add = page.getByRole('form', { name: 'Add a rule' });
    await add.getByLabel('Rule name').fill('Heavy: Delhivery');
    await add.getByLabel('Priority').fill('ten');
    await add.getByLabel('Add a courier service').selectOption({ label: 'Delhivery Surface' });
    await add.getByRole('button', { name: 'Add courier' }).click();
    await add.getByLabel('Add a courier service').selectOption({ label: 'Shadowfax Standard' });
    await add.getByRole('button', { name: 'Add courier' }).click();
    await add.getByRole('button', { name: 'Move Shadowfax Standard up' }).click();
    expect(
      await add
        .getByRole('list', { name: /^Chosen courier services/ })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual([
      'Shadowfax StandardMove Shadowfax Standard upRemove Shadowfax Standard',
      'Delhivery SurfaceMove Delhivery Surface upRemove Delhivery Surface',
    ]);
    await add.getByRole('button', { name: 'Add rule' }).click();
    // The API's refusal, told by the field's label.
    await expect.poll(async () => (await descriptionOf(add.getByLabel('Priority'))).startsWith('Priority ')).toBe(true);
    expect(await add.getByRole('alert').textContent()).toMatch(/^Priority /);
    await add.getByLabel('Priority').fill('5');
    await add.getByRole('button', { name: 'Add rule' }).click();
    const heavy = table.getByRole('row').filter({ hasText: 'Heavy: Delhivery' });
    await heavy.waitFor();
    expect(await heavy.getByRole('cell').nth(3).textContent()).toBe('Shadowfax Standard, Delhivery Surface');
    const saved = (await api('GET', `${V1}/allocation/rules`))
      .json()
      .data.find((r: { name: string }) => r.name === 'Heavy: Delhivery');
    expect(saved.carrier_ids).toEqual([SHADOWFAX, DELHIVERY_SURFACE]);
    await expectAccessible(page, 'allocation rules with notes');
    await shot(page, 'allocation-1366');
  });

  it('says in Settings that a courier API service books through a simulator, as test bookings', async () => {
    const { page } = laptop;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Courier connections' }).click();
    const row = page
      .getByRole('table', { name: 'Courier services and their connections' })
      .getByRole('row')
      .filter({ hasText: 'Delhivery Surface' })
      .first();
    await row.waitFor();
    expect((await row.getByRole('cell').allTextContents()).slice(0, 2)).toEqual([
      'Delhivery SurfaceTest bookings',
      "Simulator of Delhivery's API: test bookings",
    ]);
  });

  it("shows a shipment's street address and the buyer's e-mails; a lost parcel promises no delivery date", async () => {
    const { page } = laptop;
    await page.goto(`${origin}/app/shipments/${seeded.lost}?order=ORD-LOST`);
    await page.getByRole('heading', { name: 'Order ORD-LOST' }).waitFor();
    expect(await page.getByRole('status', { name: 'Shipment status' }).textContent()).toBe('Lost');
    const summary = page.getByRole('article', { name: 'Shipment', exact: true });
    expect(await summary.getByRole('definition').nth(3).textContent()).toBe('None: the parcel is lost');
    expect(await page.getByRole('article', { name: 'Addresses' }).textContent()).toContain(
      'Asha12 Marine DriveMumbai, Maharashtra 400001',
    );
    const emails = page.getByRole('article', { name: 'E-mails to the buyer' });
    await emails.getByRole('listitem').first().waitFor();
    const shipped = emails.getByRole('listitem').first();
    expect(await shipped.textContent()).toContain('Shipped');
    expect(await shipped.textContent()).toContain('Kept in the outbox: this server sends no e-mail (no SMTP_URL)');
    expect(await shipped.locator('summary').textContent()).toBe('Your Chai Point order ORD-LOST has shipped');
    await expectAccessible(page, 'lost shipment page');
    await shot(page, 'shipment-1366');
    // The buyer's tracking page it links to promises no date either, though the booking promised one
    // (the link names PUBLIC_BASE_URL, which is not this test server's origin: opened here by its path).
    const lost = await listed('ORD-LOST');
    expect(lost.expected_delivery_date).not.toBeNull();
    const href = (await page.getByRole('link', { name: 'Tracking page' }).getAttribute('href'))!;
    expect(href).toBe(lost.track_url);
    const buyer = await page.context().newPage();
    await buyer.goto(`${origin}${new URL(href).pathname}`);
    // In whichever language the page picks: its facts are the courier and the AWB, no date.
    const facts = buyer.locator('section[aria-labelledby="status"] dl');
    expect(await facts.locator('dt').count()).toBe(2);
    expect(await facts.locator('dd.awb').textContent()).toBe(lost.tracking_number);
    await buyer.close();
  });
});

describe('the first hour on a 390 px phone', () => {
  let phone: { context: BrowserContext; page: Page };
  beforeAll(async () => {
    phone = await open(PHONE);
  });
  afterAll(() => phone?.context.close());

  it('folds the navigation into a menu that opens, leads, and closes again', async () => {
    const { page } = phone;
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    // The header is one short line: the brand and the menu.
    expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThan(60);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').count()).toBe(9);
    await expectAccessible(page, 'menu open at 390 px');
    await shot(page, 'menu-390');
    await nav(page, 'NDR');
    await page.getByRole('heading', { name: 'Failed deliveries (NDR)' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
  });

  it("gives the NDR queue's caption the card's whole width", async () => {
    const { page } = phone;
    const queue = page.getByRole('table', { name: /awaiting your decision$/ });
    await queue.waitFor();
    const caption = queue.locator('caption');
    const [captionBox, tableBox] = [(await caption.boundingBox())!, (await queue.boundingBox())!];
    expect(captionBox.width).toBeGreaterThanOrEqual(tableBox.width * 0.9);
    // One line of text, not a word a line.
    expect(captionBox.height).toBeLessThan(40);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'NDR queue at 390 px');
    await shot(page, 'ndr-390');
  });

  it('scrolls the status tabs sideways and shows that there is more, at either end', async () => {
    const { page } = phone;
    await page.getByRole('button', { name: 'Menu' }).click();
    await nav(page, 'Shipments');
    const list = page.getByRole('tablist', { name: 'Status' });
    await list.waitFor();
    const scroller = page.locator('.tab-scroller');
    expect(await list.evaluate((l) => l.scrollWidth > l.clientWidth)).toBe(true);
    const hint = (side: '::before' | '::after') =>
      scroller.evaluate(
        (s, pseudo) => (globalThis as unknown as PageGlobals).getComputedStyle(s, pseudo).opacity,
        side,
      );
    await expect.poll(() => scroller.getAttribute('data-more-after')).toBe('true');
    expect(await scroller.getAttribute('data-more-before')).toBe('false');
    await expect.poll(() => hint('::after')).toBe('1');
    expect(await hint('::before')).toBe('0');
    await list.scrollIntoViewIfNeeded();
    await shot(page, 'shipments-tabs-390');
    await list.evaluate((l) => l.scrollTo({ left: l.scrollWidth }));
    await expect.poll(() => scroller.getAttribute('data-more-after')).toBe('false');
    expect(await scroller.getAttribute('data-more-before')).toBe('true');
    await expect.poll(() => hint('::before')).toBe('1');
    expect(await within(page.getByRole('tab', { name: /^Cancelled/ }), 0, PHONE.width)).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
  });

  it('shows the shipment page without sideways scrolling', async () => {
    const { page } = phone;
    await page.goto(`${origin}/app/shipments/${seeded.ndr}?order=ORD-NDR`);
    await page.getByRole('heading', { name: 'Order ORD-NDR' }).waitFor();
    expect(await page.getByRole('article', { name: 'Delivery failed' }).textContent()).toContain(
      'Customer not available · 1 attempt',
    );
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page, 'shipment page at 390 px');
  });
});
