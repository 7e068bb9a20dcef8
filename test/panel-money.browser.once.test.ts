import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { descriptionOf, expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { dakiyaFile, importRemittances, listed, shipCod } from './kit/cod.js';
import { DELHIVERY_SURFACE } from './kit/couriers.js';
import { post, V1 } from './kit/http.js';
import { png } from './kit/images.js';
import { book } from './kit/orders.js';
import { createCityWarehouse } from './kit/warehouses.js';

// The panel's Money screen in chromium against a listening server: COD shipments booked and
// delivered through the tracking intake, a remittance file and a weight report imported through
// the API; then on screen the receivables, the reconciliation per cycle, a remittance file uploaded
// with bad lines, the charges, and weight disputes accepted and disputed. axe-core on every tab.

const PASSWORD = 's3cret-pass';
const UTR = 'UTIB0000123456';

let ctx: TestContext;
let browser: Browser;
let origin: string;
let page: Page;
let apiKey: string;
/** Shadowfax, delivered: paid in full, short-paid, unpaid; and Delhivery Surface, delivered and unpaid. */
let full: string;
let short: string;
let unpaid: string;
let delhivery: string;
/** Prepaid shipments booked the day before, oldest first: the charges' second page. */
let fillers: string[];

async function signedIn(width: number, height: number, username = 'meera', at = '/app/money'): Promise<Page> {
  const made = await (await browser.newContext({ viewport: { width, height }, acceptDownloads: true })).newPage();
  await made.goto(`${origin}${at}`);
  await made.getByLabel('Username').fill(username);
  await made.getByLabel('Password').fill(PASSWORD);
  await made.getByRole('button', { name: 'Sign in' }).click();
  await made.getByRole('heading', { name: 'Money' }).waitFor();
  return made;
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Meera Mart', { username: 'meera', password: PASSWORD })).apiKey;
  await ctx.createAccount('Ravi Retail', { username: 'ravi', password: PASSWORD });
  const owner = { apiKey, warehouseId: await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub') };
  fillers = [];
  for (let i = 0; i < 22; i++) {
    ctx.clock.set(new Date(Date.parse('2026-11-19T06:30:00.000Z') + i * 60_000).toISOString());
    fillers.push((await book(ctx, apiKey, owner.warehouseId)).awb_code!);
  }
  [full, short, unpaid] = (await shipCod(ctx, owner, [998.5, 1499, 750])) as [string, string, string];
  [delhivery] = (await shipCod(ctx, owner, [1200], { carrierId: DELHIVERY_SURFACE })) as [string];
  ctx.clock.set('2026-11-28T06:30:00.000Z');
  const paid = await importRemittances(
    ctx,
    apiKey,
    dakiyaFile([
      [full, '998.50', UTR, '2026-11-27'],
      [short, '1450', UTR, '2026-11-27'],
    ]),
  );
  expect(paid.json()).toMatchObject({ applied: 2, discrepancies: 1, problems: [] });
  const report = await post(ctx, apiKey, `${V1}/weight-reports`, {
    file: `awb,charged_weight_g\n${full},1200\n${short},1200\n`,
  });
  expect(report.json().data.opened).toHaveLength(2);
  page = await signedIn(1280, 900);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

/** A table's body as the cells' text, row by row. */
const cells = (name: string, on = page) =>
  on
    .getByRole('table', { name })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
const byAwb = (rows: string[][]) => [...rows].sort((x, y) => x[0]!.localeCompare(y[0]!));
const tab = (name: string) => page.getByRole('tab', { name }).click();
const apply = (form: string) =>
  page.getByRole('form', { name: form }).getByRole('button', { name: 'Apply filters' }).click();

const RECEIVABLES = 'COD receivables, newest delivery first';
const DELIVERED = '20 Nov 2026, 5:00 pm';

describe('the Money screen in chromium', () => {
  it('lists the receivables with exact amounts, filters them by state, courier and UTR, and exports them as the API writes them', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Money' }).click();
    await expect.poll(async () => (await cells(RECEIVABLES)).length).toBe(4);
    expect(byAwb(await cells(RECEIVABLES))).toEqual(
      byAwb([
        [full, 'Shadowfax Standard', '₹998.50', DELIVERED, '30 Nov 2026', 'Reconciled', '₹998.50', UTR, '27 Nov 2026'],
        [
          short,
          'Shadowfax Standard',
          '₹1,499.00',
          DELIVERED,
          '30 Nov 2026',
          'Remitted',
          '₹1,450.00',
          UTR,
          '27 Nov 2026',
        ],
        [unpaid, 'Shadowfax Standard', '₹750.00', DELIVERED, '30 Nov 2026', 'Pending', '₹0.00', '—', '—'],
        [delhivery, 'Delhivery Surface', '₹1,200.00', DELIVERED, '25 Nov 2026Overdue', 'Pending', '₹0.00', '—', '—'],
      ]),
    );
    await expectAccessible(page, 'money: receivables');
    await page.screenshot({ path: path.join(screenshotsDir(), 'money-desktop.png'), fullPage: true });

    const filters = page.getByRole('form', { name: 'Filter receivables' });
    await filters.getByLabel('State').selectOption('pending');
    await apply('Filter receivables');
    await expect
      .poll(async () => (await cells(RECEIVABLES)).map((r) => r[0]).sort())
      .toEqual([delhivery, unpaid].sort());
    await filters.getByLabel('Courier').selectOption({ label: 'Delhivery Surface' });
    await apply('Filter receivables');
    await expect.poll(async () => (await cells(RECEIVABLES)).map((r) => r[0])).toEqual([delhivery]);
    await filters.getByRole('button', { name: 'Clear' }).click();
    await filters.getByLabel('UTR').fill(UTR);
    await apply('Filter receivables');
    await expect.poll(async () => (await cells(RECEIVABLES)).map((r) => r[0]).sort()).toEqual([full, short].sort());

    // A range that ends before it starts: the API's field error beside the field.
    await filters.getByRole('button', { name: 'Clear' }).click();
    await filters.getByLabel('Due from').fill('2026-11-30');
    await filters.getByLabel('Due to').fill('2026-11-01');
    await apply('Filter receivables');
    await expect.poll(() => filters.getByLabel('Due to').getAttribute('aria-invalid')).toBe('true');
    expect(await filters.getByLabel('Due from').getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(page, 'money: a filter refused');
    await filters.getByLabel('Due from').fill('');
    await filters.getByLabel('Due to').fill('');
    await filters.getByLabel('UTR').fill(UTR);
    await apply('Filter receivables');
    await expect.poll(async () => (await cells(RECEIVABLES)).map((r) => r[0]).sort()).toEqual([full, short].sort());

    // The export is the API's CSV of the same filters.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export receivables (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('cod-receivables.csv');
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv).toHaveLength(3);
    expect(
      csv
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual([full, short].sort());
  });

  it('sums each remittance cycle: expected, received, difference and counts, with totals', async () => {
    // The tabs by keyboard: arrows move between them, as in any tab list.
    await page.getByRole('tab', { name: 'COD receivables' }).focus();
    for (const next of ['Remittances', 'Reconciliation']) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByRole('tab', { name: next }).getAttribute('aria-selected')).toBe('true');
    }
    expect(page.url()).toBe(`${origin}/app/money?tab=reconciliation`);
    const name = 'Reconciliation by remittance cycle, latest payout first';
    await expect.poll(async () => (await cells(name)).length).toBe(2);
    expect(await cells(name)).toEqual([
      ['30 Nov 2026', 'Shadowfax Standard', '₹3,247.50', '₹2,448.50', '-₹799.00', '3', '1', '1', '1', '1'],
      ['25 Nov 2026', 'Delhivery Surface', '₹1,200.00', '₹0.00', '-₹1,200.00', '1', '1', '0', '0', '0'],
    ]);
    const totals = await page
      .getByRole('table', { name })
      .locator('tfoot tr')
      .evaluate((row) => [...row.children].map((cell) => cell.textContent));
    expect(totals).toEqual(['Total', '₹4,447.50', '₹2,448.50', '-₹1,999.00', '4', '2', '1', '1', '1']);
    await expectAccessible(page, 'money: reconciliation');
  });

  it('uploads a remittance file: the good line applied, each bad line shown with its number and reason', async () => {
    await tab('Remittances');
    const file = dakiyaFile([
      [unpaid, '750.00', 'UTIB0000999999', '2026-11-28'],
      ['SFX0000999999', '100.00', 'UTIB0000999999', '2026-11-28'],
      [delhivery, '"12,34"', 'UTIB0000999999', '2026-11-28'],
    ]);
    await page
      .getByLabel('Remittance file (CSV)')
      .setInputFiles({ name: 'shadowfax-2026-11-28.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Import file' }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Import result' }).getByRole('status').textContent())
      .toBe(
        'shadowfax-2026-11-28.csv: 3 lines, 1 applied (₹750.00), 0 already imported, 2 with problems, 0 discrepancies found.',
      );
    expect(await cells('Lines not applied')).toEqual([
      ['3', 'SFX0000999999', 'AWB SFX0000999999 not found'],
      ['4', delhivery, 'amount "12,34" is not rupees with at most two decimals (e.g. 1499.50)'],
    ]);
    const lines = 'Remittance lines, newest first';
    await expect.poll(async () => (await cells(lines)).length).toBe(3);
    await page.getByRole('form', { name: 'Filter remittances' }).getByLabel('UTR').fill('UTIB0000999999');
    await apply('Filter remittances');
    await expect
      .poll(async () => (await cells(lines)).map((r) => [r[1], r[2], r[4]]))
      .toEqual([['UTIB0000999999', unpaid, '₹750.00']]);
    const receivable = (await listed(ctx, apiKey, `${V1}/cod/receivables?utr=UTIB0000999999`)).data;
    expect(receivable.map((r: { awb: string; state: string }) => [r.awb, r.state])).toEqual([[unpaid, 'reconciled']]);
    await expectAccessible(page, 'money: remittances after an upload');
    await page.screenshot({ path: path.join(screenshotsDir(), 'money-remittances-desktop.png'), fullPage: true });
  });

  it('shows each shipment’s charges, then accepts one weight dispute and disputes the other with a photo', async () => {
    await tab('Shipping charges');
    const charges = 'Shipping charges, newest shipment first';
    // 26 booked shipments, 25 a page: the cursor's second page holds the oldest.
    await expect.poll(async () => (await cells(charges)).length).toBe(25);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(async () => (await cells(charges)).map((r) => r[0])).toEqual([fillers[0]]);
    expect(await page.getByRole('navigation', { name: 'Pages of charges' }).textContent()).toContain('Page 2');
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(async () => (await cells(charges)).length).toBe(25);
    await page.getByRole('form', { name: 'Filter charges' }).getByLabel('Booked from').fill('2026-11-20');
    await apply('Filter charges');
    await expect.poll(async () => (await cells(charges)).length).toBe(4);
    // AWB, courier, status, freight, COD fee, RTO freight, weight adjustment, charged, pending (the order id is the kit's).
    const without = (rows: string[][]) => rows.map((r) => [r[0]!, ...r.slice(2)]);
    expect(without(byAwb(await cells(charges)))).toEqual(
      byAwb([
        [delhivery, 'Delhivery Surface', 'Delivered', '₹46.00', '₹35.00', '₹0.00', '₹0.00', '₹81.00', '₹0.00'],
        [full, 'Shadowfax Standard', 'Delivered', '₹42.00', '₹29.00', '₹0.00', '₹80.00 (pending)', '₹71.00', '₹80.00'],
        [short, 'Shadowfax Standard', 'Delivered', '₹42.00', '₹29.00', '₹0.00', '₹80.00 (pending)', '₹71.00', '₹80.00'],
        [unpaid, 'Shadowfax Standard', 'Delivered', '₹42.00', '₹29.00', '₹0.00', '₹0.00', '₹71.00', '₹0.00'],
      ]),
    );
    await expectAccessible(page, 'money: charges');

    await tab('Weight disputes');
    const disputes = 'Weight disputes, newest first';
    await expect.poll(async () => (await cells(disputes)).length).toBe(2);
    expect(byAwb(await cells(disputes)).map((r) => r.slice(0, 6))).toEqual(
      byAwb([
        [full, 'Shadowfax Standard', 'Open', '500 g', '1,200 g', '₹80.00'],
        [short, 'Shadowfax Standard', 'Open', '500 g', '1,200 g', '₹80.00'],
      ]),
    );
    await page.getByRole('button', { name: `Accept the extra charge of ${full}` }).click();
    await page.getByRole('button', { name: 'Confirm: pay ₹80.00' }).click();
    await expect.poll(async () => (await cells(disputes)).find((r) => r[0] === full)?.[2]).toBe('Accepted');
    const one = (await listed(ctx, apiKey, `${V1}/weight-disputes?state=accepted`)).data;
    expect(one.map((d: { awb: string; settled_by: string }) => [d.awb, d.settled_by])).toEqual([[full, 'merchant']]);

    await page.getByRole('button', { name: `Dispute the weight of ${short}` }).click();
    const form = page.getByRole('region', { name: `Dispute the weight of ${short}` });
    await form
      .getByLabel('Why the charged weight is wrong')
      .fill('Packed at 480 g in a 20x15x10 cm box; photo of the scale attached.');
    const photo = (n: number) => ({ name: `parcel-${n}.png`, mimeType: 'image/png', buffer: png(2048) });
    // Six photos: refused beside the field before anything is sent.
    await form.getByLabel('Photos of the packed parcel').setInputFiles([1, 2, 3, 4, 5, 6].map(photo));
    await form.getByRole('button', { name: 'Send the dispute' }).click();
    await expect.poll(() => form.getByLabel('Photos of the packed parcel').getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(form.getByLabel('Photos of the packed parcel'))).toBe('At most 5 photos (6 chosen)');
    expect((await listed(ctx, apiKey, `${V1}/weight-disputes?state=disputed`)).data).toEqual([]);
    await expectAccessible(page, 'money: dispute form with an error');
    await page.screenshot({ path: path.join(screenshotsDir(), 'money-disputes-desktop.png'), fullPage: true });

    // A file that calls itself a PNG but is not one: the API's refusal shows beside the field.
    await form
      .getByLabel('Photos of the packed parcel')
      .setInputFiles([
        { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a photo') },
      ]);
    await form.getByRole('button', { name: 'Send the dispute' }).click();
    await expect
      .poll(() => descriptionOf(form.getByLabel('Photos of the packed parcel')))
      .toBe('notes.png must be a PNG, JPEG, WebP or GIF image');
    expect(await form.getByLabel('Photos of the packed parcel').getAttribute('aria-invalid')).toBe('true');
    expect((await listed(ctx, apiKey, `${V1}/weight-disputes?state=disputed`)).data).toEqual([]);

    await form.getByLabel('Photos of the packed parcel').setInputFiles([photo(1)]);
    await form.getByRole('button', { name: 'Send the dispute' }).click();
    await expect
      .poll(async () => (await cells(disputes)).find((r) => r[0] === short)?.slice(2, 3))
      .toEqual(['Disputed']);
    expect((await cells(disputes)).find((r) => r[0] === short)?.[7]).toBe('1 photo sent');
    const disputed = (await listed(ctx, apiKey, `${V1}/weight-disputes?state=disputed`)).data;
    expect(
      disputed.map((d: { awb: string; comment: string; evidence: { size: number }[] }) => [
        d.awb,
        d.comment,
        d.evidence.map((e) => e.size),
      ]),
    ).toEqual([[short, 'Packed at 480 g in a 20x15x10 cm box; photo of the scale attached.', [2048]]]);
    await tab('Shipping charges');
    await page.getByRole('form', { name: 'Filter charges' }).getByLabel('Booked from').fill('2026-11-20');
    await apply('Filter charges');
    // Accepted: charged, and in the total; disputed: still pending.
    await expect
      .poll(async () => (await cells(charges)).find((r) => r[0] === full)?.slice(7))
      .toEqual(['₹80.00 (charged)', '₹151.00', '₹0.00']);
    expect((await cells(charges)).find((r) => r[0] === short)?.slice(7)).toEqual([
      '₹80.00 (pending)',
      '₹71.00',
      '₹80.00',
    ]);
  });

  it('lists the COD discrepancies as found, filtered by kind, courier and days, with what to do when there are none', async () => {
    // Two hours after the import: Delhivery's cash, due 25 Nov, is found missing.
    ctx.clock.set('2026-11-28T08:30:00.000Z');
    await ctx.app.codOverdueCheck.runOnce();
    await tab('Discrepancies');
    expect(page.url()).toBe(`${origin}/app/money?tab=discrepancies`);
    const name = 'COD discrepancies, newest first';
    await expect.poll(async () => (await cells(name)).length).toBe(2);
    expect(await cells(name)).toEqual([
      [
        '28 Nov 2026, 2:00 pm',
        'Missing past due',
        delhivery,
        'Delhivery Surface',
        '₹1,200.00',
        '₹0.00',
        '-₹1,200.00',
        '25 Nov 2026',
      ],
      ['28 Nov 2026, 12:00 pm', 'Short-paid', short, 'Shadowfax Standard', '₹1,499.00', '₹1,450.00', '-₹49.00', '—'],
    ]);
    // One page of 25: nothing to page to.
    const pager = page.getByRole('navigation', { name: 'Pages of discrepancies' });
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'money: discrepancies');
    await page.screenshot({ path: path.join(screenshotsDir(), 'money-discrepancies-desktop.png'), fullPage: true });

    const filters = page.getByRole('form', { name: 'Filter discrepancies' });
    await filters.getByLabel('Kind').selectOption({ label: 'Short-paid' });
    await apply('Filter discrepancies');
    await expect.poll(async () => (await cells(name)).map((r) => [r[1], r[2]])).toEqual([['Short-paid', short]]);
    await filters.getByLabel('Kind').selectOption({ label: 'Any' });
    await filters.getByLabel('Courier').selectOption({ label: 'Delhivery Surface' });
    await apply('Filter discrepancies');
    await expect
      .poll(async () => (await cells(name)).map((r) => [r[1], r[2]]))
      .toEqual([['Missing past due', delhivery]]);

    // The export is the API's CSV of the same filters.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export discrepancies (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('cod-discrepancies.csv');
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv.slice(1).map((line) => line.split(',').slice(0, 2))).toEqual([['missing_from_remittance', delhivery]]);

    // Found from the next day: none, and the way out.
    await filters.getByRole('button', { name: 'Clear' }).click();
    await filters.getByLabel('Found from').fill('2026-11-29');
    await apply('Filter discrepancies');
    await page.getByRole('heading', { name: 'No discrepancies match' }).waitFor();
    expect(await page.locator('.empty-state p').textContent()).toBe(
      'Nothing matches these filters: clear them or widen the dates.',
    );
    // A range that ends before it starts: the API's field error beside the field.
    await filters.getByLabel('Found to').fill('2026-11-01');
    await apply('Filter discrepancies');
    await expect.poll(() => filters.getByLabel('Found to').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'money: discrepancies filter refused');

    // An account with none: what to do next.
    const other = await signedIn(1280, 900, 'ravi', '/app/money?tab=discrepancies');
    await other.getByRole('heading', { name: 'No discrepancies' }).waitFor();
    expect(await other.locator('.empty-state p').textContent()).toContain(
      'Import each courier’s remittance file on the Remittances tab',
    );
    await expectAccessible(other, 'money: no discrepancies');
    await other.context().close();
  });

  it('is usable at 390 px: the tabs and tables without sideways scrolling', async () => {
    const phone = await signedIn(390, 844);
    await expect.poll(async () => (await cells(RECEIVABLES, phone)).length).toBe(4);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await expectAccessible(phone, 'money at 390 px');
    await phone.screenshot({ path: path.join(screenshotsDir(), 'money-390.png'), fullPage: true });
    await phone.getByRole('tab', { name: 'Reconciliation' }).click();
    await expect
      .poll(async () => (await cells('Reconciliation by remittance cycle, latest payout first', phone)).length)
      .toBe(2);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.context().close();
  });
});
