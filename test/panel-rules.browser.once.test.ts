import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from './kit/couriers.js';
import { authed, SHIPMENTS, V1 } from './kit/http.js';
import { book, orderBodyFromFields } from './kit/orders.js';
import { issueCarrierToken, sendEvents } from './kit/tracking.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { FAILED_ONCE, NOW } from './ndr.js';

// The panel's rules in chromium, against a listening server: the listing's risk filter; an NDR
// rule set through the form (the API's message beside a bad field first), read back through the
// API, then acting on a failed delivery and shown among the automatic actions; the RTO risk
// thresholds; two courier allocation rules created on their screen, with the API's warnings, an
// order previewed (the courier and the reason the API gives), a rule moved up and one deleted.

const PASSWORD = 's3cret-pass';
const shot = (name: string) =>
  page.screenshot({ path: path.join(screenshotsDir(), `${name}-desktop.png`), fullPage: true });

let ctx: TestContext;
let browser: Browser;
let origin: string;
let page: Page;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Meera Home', { username: 'meera', password: PASSWORD })).apiKey;
  warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub');
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${origin}/app/overview`);
  await page.getByLabel('Username').fill('meera');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
const api = async (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: authed(apiKey),
    ...(payload !== undefined && { payload: payload as object }),
  });
/** The message shown beside a field: the element its aria-describedby names as its error. */
async function errorOf(label: string, scope: Pick<Page, 'getByLabel'> = page): Promise<string | null> {
  const described = (await scope.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  const id = described.split(' ').find((d) => d.endsWith('-error'));
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}

describe('the risk view of the shipments listing', () => {
  it('narrows the table to the chosen RTO risk and shows the risk columns', async () => {
    const risky = await book(ctx, apiKey, warehouseId, { orderId: 'ORD-RISK-COD', cod: true, value: 3500 });
    await book(ctx, apiKey, warehouseId, { orderId: 'ORD-RISK-PREPAID' });
    await nav('Shipments');
    const filters = page.getByRole('form', { name: 'Filters' });
    const table = page.getByRole('table', { name: 'Shipments, newest first' });
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    await filters.getByLabel('RTO risk').selectOption('medium');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    const cells = await table.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(cells[1]).toBe('ORD-RISK-COD');
    expect(cells.slice(-4)).toEqual(['Medium (35)', 'Valid', '—', '—']);
    const listed = (await api('POST', SHIPMENTS, { rto_risk: 'medium' })).json();
    expect(listed.data.map((s: { id: string }) => s.id)).toEqual([risky.shipment_id]);
    await filters.getByLabel('Address').selectOption('suspicious');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('heading', { name: 'No shipments match' }).waitFor();
    await expectAccessible(page, 'shipments with the risk filters');
    await page.getByRole('button', { name: 'Clear' }).click();
  });
});

describe('NDR rules and RTO thresholds in chromium', () => {
  it("sets an NDR rule through the form, showing the API's message beside a bad field, and reads it back", async () => {
    await nav('NDR');
    await page.getByRole('heading', { name: 'No NDR rules' }).waitFor();
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await page.getByLabel('Rule 1: name').fill('Unavailable: try again once');
    // The reasons are offered in words: the API's customer_unavailable is "Customer not available".
    await page.getByRole('group', { name: 'Rule 1: NDR reasons' }).getByLabel('Customer not available').check();
    await page.getByLabel('Rule 1: up to attempt').fill('0');
    await page.getByRole('button', { name: 'Save NDR rules' }).click();
    // The same list sent to the API directly: its message is the one beside the field.
    const refused = await api('PUT', `${V1}/ndr-rules`, {
      rules: [
        {
          name: 'Unavailable: try again once',
          when: { ndr_reasons: ['customer_unavailable'], attempt_max: 0 },
          action: 'reattempt',
        },
      ],
    });
    expect(refused.statusCode).toBe(400);
    const detail = refused.json().details.find((d: { field: string }) => d.field === 'rules.0.when.attempt_max');
    await expect.poll(() => errorOf('Rule 1: up to attempt')).toBe(detail.message);
    expect(await page.getByLabel('Rule 1: up to attempt').getAttribute('aria-invalid')).toBe('true');
    expect((await api('GET', `${V1}/ndr-rules`)).json()).toEqual({ data: { rules: [] } });
    await expectAccessible(page, 'NDR rules with an error');

    await page.getByLabel('Rule 1: up to attempt').fill('1');
    await page.getByRole('button', { name: 'Save NDR rules' }).click();
    await page.getByRole('form', { name: 'NDR rules' }).getByRole('status').getByText('Saved.').waitFor();
    expect((await api('GET', `${V1}/ndr-rules`)).json()).toEqual({
      data: {
        rules: [
          {
            name: 'Unavailable: try again once',
            when: { ndr_reasons: ['customer_unavailable'], attempt_max: 1 },
            action: 'reattempt',
          },
        ],
      },
    });
  });

  it('shows what the rule did on a failed delivery among the automatic actions', async () => {
    const failed = await book(ctx, apiKey, warehouseId, { orderId: 'ORD-RULE-1', customer: 'Ravi' });
    ctx.clock.set(NOW);
    await sendEvents(
      ctx,
      await issueCarrierToken(ctx, SHADOWFAX),
      FAILED_ONCE.map((e) => ({ ...e, awb: failed.awb_code! })),
    );
    const actionsOf = async () =>
      (await api('POST', SHIPMENTS, { search: failed.awb_code })).json().data[0].attributes.ndr_actions;
    // On PostgreSQL the rules' consumer reads the event a moment later: rounds until the action exists.
    await expect
      .poll(
        async () => {
          await ctx.app.ndrRules.runOnce();
          return (await actionsOf()).length;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(1);
    const [action] = await actionsOf();
    expect(action).toMatchObject({
      action: 'reattempt',
      requested_by: 'rule',
      details: { rule: 'Unavailable: try again once' },
    });
    await page.reload();
    const table = page.getByRole('table', { name: 'What the NDR rules did' });
    await table.waitFor();
    const india = new Intl.DateTimeFormat('en-IN', {
      timeZone: 'Asia/Kolkata',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    expect(await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual([
      'ORD-RULE-1',
      failed.awb_code,
      'Unavailable: try again once',
      'Reattempt',
      india.format(new Date(action.requested_at)),
      'Not yet',
      'NDR raised',
    ]);
    await expectAccessible(page, 'NDR with rules');
    await shot('ndr');
  });

  it('saves the RTO risk thresholds, with the API refusing medium above high beside its field', async () => {
    await page.getByLabel('Medium risk from score').fill('70');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    const refused = await api('PUT', `${V1}/rto-risk/thresholds`, { medium: 70, high: 60, high_value_cod: 3000 });
    expect(refused.statusCode).toBe(422);
    const [problem] = refused.json().details;
    await expect
      .poll(() => errorOf(problem.field === 'medium' ? 'Medium risk from score' : 'High risk from score'))
      .toBe(problem.message);
    await page.getByLabel('Medium risk from score').fill('25');
    await page.getByLabel('High risk from score').fill('50');
    await page.getByLabel('High-value COD from (₹)').fill('2500');
    await page.getByRole('button', { name: 'Save thresholds' }).click();
    await page.getByRole('form', { name: 'RTO risk thresholds' }).getByRole('status').getByText('Saved.').waitFor();
    expect((await api('GET', `${V1}/rto-risk/thresholds`)).json()).toEqual({
      data: { medium: 25, high: 50, high_value_cod: 2500, default: false },
    });
  });
});

describe('courier allocation rules in chromium', () => {
  it('creates two rules, shows the warnings, previews an order, moves and deletes a rule', async () => {
    await nav('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Courier allocation' }).click();
    await page.getByRole('heading', { name: 'No allocation rules' }).waitFor();
    await expectAccessible(page, 'allocation rules, none');

    const add = page.getByRole('form', { name: 'Add a rule' });
    await add.getByLabel('Rule name').fill('COD by Delhivery');
    await add.getByLabel('Priority').fill('first');
    await add.getByLabel('Strategy').selectOption('priority');
    // Couriers are picked by name from the catalogue, not typed as service ids.
    await add.getByLabel('Add a courier service').selectOption({ label: 'Delhivery Surface' });
    await add.getByRole('button', { name: 'Add courier' }).click();
    await add.getByLabel('Payment method').selectOption('cod');
    await add.getByRole('button', { name: 'Add rule' }).click();
    // The API's refusal beside the field, told by the field's label.
    const refused = await api('POST', `${V1}/allocation/rules`, { name: 'x', priority: 'first', strategy: 'cheapest' });
    const apiMessage: string = refused.json().details.find((d: { field: string }) => d.field === 'priority').message;
    expect(apiMessage.startsWith('priority ')).toBe(true);
    await expect.poll(() => errorOf('Priority', add)).toBe(`Priority${apiMessage.slice('priority'.length)}`);
    await add.getByLabel('Priority').fill('1');
    await add.getByRole('button', { name: 'Add rule' }).click();
    const table = page.getByRole('table', { name: 'Rules, in the order they are tried' });
    await table.waitFor();

    await add.getByLabel('Rule name').fill('Everything: cheapest');
    await add.getByLabel('Priority').fill('2');
    await add.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['1', 'COD by Delhivery', 'Fixed priority', 'Delhivery Surface', 'COD', 'Yes']),
    );
    const listed = (await api('GET', `${V1}/allocation/rules`)).json();
    expect(listed.data.map((r: { name: string; priority: number }) => [r.name, r.priority])).toEqual([
      ['COD by Delhivery', 1],
      ['Everything: cheapest', 2],
    ]);
    // Overlaps are information about the rules, each sentence as the API says it.
    const warnings = page.getByRole('region', { name: 'Notes on these rules' });
    if (listed.warnings.length > 0)
      expect(await warnings.getByRole('listitem').allTextContents()).toEqual(
        listed.warnings.map((w: { message: string }) => w.message.charAt(0).toUpperCase() + w.message.slice(1)),
      );
    else expect(await warnings.count()).toBe(0);

    const preview = page.getByRole('form', { name: 'Preview an order' });
    await preview.getByLabel('Delivery pincode').fill('400001');
    await preview.getByLabel('Weight (kg)').fill('0.5');
    await preview.getByLabel('Payment').selectOption('cod');
    await preview.getByLabel('Order value (₹)').fill('999');
    await preview.getByRole('button', { name: 'Preview' }).click();
    const result = page.getByRole('region', { name: 'Preview result' });
    await result.waitFor();
    const expected = (
      await api(
        'POST',
        `${V1}/allocation/preview`,
        orderBodyFromFields(warehouseId, { cod: true, value: 999, weight: 0.5 }),
      )
    ).json().data;
    expect(expected.carrier_id).toBe(DELHIVERY_SURFACE);
    expect(expected.allocation.rule).toBe('COD by Delhivery');
    expect(await result.getByRole('status').textContent()).toBe(
      `A booking now would go to ${expected.courier_name}, zone ${expected.zone.replace('zone_', '').toUpperCase()}: rule COD by Delhivery, ${expected.allocation.reason}.`,
    );
    const verdicts = await result
      .getByRole('row')
      .evaluateAll((rows) => rows.slice(1).map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(verdicts).toEqual(
      expected.rules.map((r: { rule: string; matched: boolean; courier_name: string | null; reason: string }) => [
        r.rule,
        r.matched ? 'Yes' : 'No',
        r.courier_name ?? '—',
        r.reason,
      ]),
    );
    await expectAccessible(page, 'allocation rules with a preview');
    await shot('allocation');

    await page.getByRole('button', { name: 'Move Everything: cheapest up' }).click();
    await expect
      .poll(async () => (await api('GET', `${V1}/allocation/rules`)).json().data.map((r: { name: string }) => r.name))
      .toEqual(['Everything: cheapest', 'COD by Delhivery']);
    await expect
      .poll(() => table.getByRole('row').nth(1).getByRole('cell').nth(1).textContent())
      .toBe('Everything: cheapest');
    await page.getByRole('button', { name: 'Delete COD by Delhivery' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect((await api('GET', `${V1}/allocation/rules`)).json().data.map((r: { name: string }) => r.name)).toEqual([
      'Everything: cheapest',
    ]);
  });
});
