import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { expectAccessible, launchChromium, screenshotsDir } from './browser.js';
import { SHIPMENTS, STORES } from './kit/http.js';
import { popplerRead } from './kit/labels.js';
import { createCityWarehouse } from './kit/warehouses.js';
import { type Receiver, startReceiver, until } from './webhook-receiver.js';

// The panel's bulk import and its settings for developers, in chromium against a listening server
// with the webhook worker running: a CSV of 50 rows with 3 bad ones (every row checked, the errors
// shown by row and field, the rest booked, their labels saved as one PDF); register a webhook (its field errors first), send it a test and see
// the delivery with the receiver's status code, redeliver it; create an API key (shown once), use
// it, revoke it (it then gets 401). axe-core on each page.

const PASSWORD = 's3cret-pass';
const shot = (name: string) =>
  page.screenshot({ path: path.join(screenshotsDir(), `${name}-desktop.png`), fullPage: true });

let ctx: TestContext;
let browser: Browser;
let receiver: Receiver;
let origin: string;
let page: Page;
let apiKey: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp({
    settings: {
      webhooks: { retryDelaysSeconds: [0.05, 0.05], timeoutMs: 10_000 },
      outbound: { allowHttp: true, allowPrivate: true },
      workers: { pollIntervalMs: 100 },
    },
    delivery: ['webhooks'],
  });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  receiver = await startReceiver();
  browser = await launchChromium();
  apiKey = (await ctx.createAccount('Devi Devices', { username: 'devi', password: PASSWORD })).apiKey;
  await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub');
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
  await page.goto(`${origin}/app/bulk`);
  await page.getByLabel('Username').fill('devi');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await ctx?.close();
});

const shipments = async () =>
  (await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: { authorization: apiKey }, payload: {} })).json()
    .meta.total as number;
const statusOf = async (apiKey: string) =>
  (await ctx.app.inject({ method: 'GET', url: STORES, headers: { authorization: apiKey } })).statusCode;

const HEADER =
  'order_id,order_date,billing_customer_name,billing_last_name,billing_address,billing_city,billing_state,billing_pincode,billing_phone,billing_email,item_name,sku,units,selling_price,payment_method,length,breadth,height,weight';
const csvRow = (id: string, pincode = '400001', weight = '0.5') =>
  `${id},2026-11-20 14:30,Asha,Menon,"12, Marine Drive",Mumbai,Maharashtra,${pincode},9123456780,asha@example.com,Cotton Kurta,KURTA-M,2,499,${id.endsWith('C') ? 'COD' : 'Prepaid'},10,10,10,${weight}`;

describe('bulk import in chromium', () => {
  it('checks every row before booking: 50 rows, 3 row errors shown by row and field, the 47 valid rows booked, their labels one PDF of 47 pages', async () => {
    await page.getByRole('heading', { name: 'Bulk import' }).waitFor();
    expect(await page.getByRole('link', { name: 'template' }).getAttribute('download')).toBe(
      'dakiya-orders-template.csv',
    );
    await expectAccessible(page, 'bulk import');
    // The 3 bad rows among the first 8 (a bad pincode, a weight that is not a number, an order id
    // repeated), then 42 more good ones: 50 rows, 47 to book.
    const more = Array.from({ length: 42 }, (_, i) => csvRow(`B-${i + 8}${i % 3 === 0 ? 'C' : ''}`));
    const rows = [
      csvRow('B-1'),
      csvRow('B-2C'),
      csvRow('B-3', '12'),
      csvRow('B-4'),
      csvRow('B-5', '400001', 'heavy'),
      csvRow('B-6'),
      csvRow('B-4'),
      csvRow('B-7C'),
      ...more,
    ];
    expect(rows).toHaveLength(50);
    await page
      .getByLabel('Orders CSV')
      .setInputFiles({ name: 'orders.csv', mimeType: 'text/csv', buffer: Buffer.from([HEADER, ...rows].join('\r\n')) });
    await page.getByRole('button', { name: 'Check rows' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 120_000 })
      .toBe('47 of 50 rows can be booked; 3 have errors.');
    const errors = page.getByRole('table', { name: 'Row errors' });
    const cells = async () =>
      (await errors.getByRole('row').all())
        .slice(1)
        .map(async (r) => (await r.getByRole('cell').allTextContents()).slice(0, 3).join(' '));
    expect(await Promise.all(await cells())).toEqual(['4 B-3 billing_pincode', '6 B-5 weight', '8 B-4 order_id']);
    expect(await shipments()).toBe(0);
    await expectAccessible(page, 'bulk import row errors');

    await page.getByRole('button', { name: 'Book 47 valid rows' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent(), { timeout: 240_000 })
      .toBe('Booked 47 shipments. Find them under Shipments.');
    const booked = page.getByRole('table', { name: 'Booked' });
    expect(await booked.getByRole('row').count()).toBe(48);
    const awbs = (await booked.getByRole('row').all()).slice(1).map((r) => r.getByRole('cell').nth(2).textContent());
    const bookedAwbs = await Promise.all(awbs);
    expect(await shipments()).toBe(47);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download all labels' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('labels-47.pdf');
    const pdf = await popplerRead(readFileSync((await download.path())!));
    expect(pdf.pages).toBe(47);
    expect(pdf.pageTexts.map((text) => /AWB (\S+)/.exec(text)?.[1])).toEqual(bookedAwbs);
    await page.getByRole('link', { name: 'labels-47.pdf (47 labels)' }).waitFor();
    await expectAccessible(page, 'bulk import booked, labels made');
    await shot('bulk-import');
    await page.goto(`${origin}/app/settings/webhooks`);
  }, 600_000);
});

describe('settings: webhooks and API keys in chromium', () => {
  it('registers a webhook endpoint after showing its field errors, sends a test, shows the delivery’s status code, redelivers', async () => {
    await page.getByRole('heading', { name: 'No webhook endpoints yet' }).waitFor();
    await expectAccessible(page, 'empty webhooks');

    await page.getByLabel('Endpoint URL').fill('not a url');
    await page.getByLabel('Events').fill('shipment.teleported');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    // The schema's errors come first (the event type), then the URL's own checks.
    await expect.poll(() => page.getByLabel('Events').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Events').fill('*');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    await expect.poll(() => page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Events').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByRole('alert').textContent()).toContain('url');
    await expectAccessible(page, 'webhook field errors');

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Events').fill('*');
    await page.getByLabel('Description').fill('ERP sync');
    await page.getByRole('button', { name: 'Register endpoint' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/signing secret, shown only now: whsec_\S+/);
    const endpoints = page.getByRole('table', { name: 'Your webhook endpoints' });
    await expect
      .poll(() => endpoints.getByRole('row').nth(1).textContent())
      .toMatch(new RegExp(`^${receiver.url}ERP sync\\*enabled`));
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();

    await page.getByRole('button', { name: `Send a test to ${receiver.url}` }).click();
    await until(() => receiver.received.length === 1, 'the test delivery');
    expect(JSON.parse(receiver.received[0]!.body).type).toBe('webhook.test');
    const deliveries = page.getByRole('table', { name: /deliveries, newest first/ });
    const row = deliveries.getByRole('row').nth(1);
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/^webhook\.testsucceeded2001/);
    await expectAccessible(page, 'webhook deliveries');
    await shot('webhooks');

    await row.getByRole('button', { name: 'Redeliver' }).click();
    await until(() => receiver.received.length === 2, 'the redelivery');
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    await expect.poll(() => deliveries.getByRole('row').count(), { timeout: 20_000 }).toBe(3);
    await expect
      .poll(() => deliveries.getByRole('row').nth(1).textContent(), { timeout: 20_000 })
      .toMatch(/^webhook\.testsucceeded2001/);
  });

  it('creates an API key shown once, which works, then revokes it: 401 from then on', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
    const keys = page.getByRole('table', { name: 'Your API keys, newest first' });
    await expect.poll(() => keys.getByRole('row').count()).toBe(2);
    await expectAccessible(page, 'API keys');

    // A key made a minute after the account's first, so "newest first" has one answer (the test clock stands still).
    ctx.clock.advance(60_000);
    await page.getByRole('button', { name: 'Create an API key' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/shown only this once/);
    const apiKey = await page.getByLabel('Your new API key').inputValue();
    expect(apiKey).toMatch(/^dky_/);
    expect(await statusOf(apiKey)).toBe(200);
    await expect.poll(() => keys.getByRole('row').count()).toBe(3);
    expect(await keys.getByRole('row').nth(1).textContent()).toContain(`${apiKey.slice(0, 12)}…`);
    expect(await keys.textContent()).not.toContain(apiKey);
    await expectAccessible(page, 'API key created');
    await shot('api-keys');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByLabel('Your new API key').count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Revoke ${apiKey.slice(0, 12)}` }).click();
    await expect.poll(() => keys.getByRole('row').nth(1).textContent()).toMatch(/Revoked/);
    // Used once above: its "Last used" cell has a time, not "Never".
    const lastUsed = keys.getByRole('row').nth(1).getByRole('cell').nth(2);
    expect(await keys.getByRole('columnheader').nth(2).textContent()).toBe('Last used');
    expect(await lastUsed.textContent()).not.toBe('Never');
    expect(await lastUsed.textContent()).toMatch(/\d/);
    expect(await statusOf(apiKey)).toBe(401);
    expect(await keys.getByRole('row').nth(2).textContent()).toMatch(/Active/);

    // A key for a tracking widget: named, limited to tracking, ending on a day.
    ctx.clock.advance(60_000);
    await page.getByLabel('Name (optional)').fill('Tracking widget');
    await page.getByLabel('Track shipments and returns (tracking:read)').check();
    await page.getByLabel('Ends on (optional)').fill('2099-03-31');
    await expectAccessible(page, 'a limited API key');
    await page.getByRole('button', { name: 'Create an API key' }).click();
    await expect.poll(() => keys.getByRole('row').count()).toBe(4);
    const limited = await page.getByLabel('Your new API key').inputValue();
    const row = keys.getByRole('row').nth(1);
    expect(await row.textContent()).toContain('Tracking widget');
    expect(await row.textContent()).toContain('Active until');
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('tracking:read');
    expect(await keys.getByRole('row').nth(3).getByRole('cell').nth(4).textContent()).toBe('Everything');
    // Settings are beyond it: 403, the permission named.
    const refused = await ctx.app.inject({ method: 'GET', url: STORES, headers: { authorization: limited } });
    expect([refused.statusCode, refused.json().message]).toEqual([
      403,
      'This credential lacks the permission settings:read',
    ]);
  });

  it('invites a member, who joins through the link and sees only what their role allows; suspended, they are signed out', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { name: 'No members yet' }).waitFor();
    await expectAccessible(page, 'Members');
    await page.getByLabel('E-mail', { exact: true }).fill('kiran@devi.example');
    await page.getByLabel('Role', { exact: true }).selectOption('support');
    await page.getByRole('button', { name: 'Invite' }).click();
    // No e-mail server in this test: the link is shown to pass on.
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toMatch(/No e-mail server is set up: send kiran@devi\.example this link yourself/);
    const link = await page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/^https:\/\/dakiya\.test\/app\/join#dki_[A-Za-z0-9_-]{43}$/);
    const members = page.getByRole('table', { name: 'Members, in the order they were invited' });
    await expect
      .poll(() => members.getByRole('row').nth(1).textContent())
      .toMatch(/kiran@devi\.example.*Invited until/);
    await expectAccessible(page, 'a member invited');
    await shot('members');

    // A role of the account's own, from the permissions the owner holds; then it is offered for members.
    await page.getByLabel('Role name').fill('returns-desk');
    await page.getByLabel('Read returns, exchanges and return requests (returns:read)').check();
    await page.getByRole('button', { name: 'Define the role' }).click();
    await expect
      .poll(() => page.getByRole('listitem').filter({ hasText: 'returns-desk' }).textContent())
      .toMatch(/returns-desk: returns:read/);
    expect(await page.getByLabel('Role', { exact: true }).locator('option').allTextContents()).toContain(
      'returns-desk: your own role',
    );
    await page.getByRole('button', { name: 'Delete the role returns-desk' }).click();
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'returns-desk' }).count()).toBe(0);

    // The member's own browser: the link on this server.
    const theirs = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    try {
      await theirs.goto(`${origin}/app/join#${link.split('#')[1]}`);
      await theirs.getByRole('heading', { name: 'Join your team on Dakiya' }).waitFor();
      // The invitation loads after the page: what it is to shows once it has.
      await expect
        .poll(() => theirs.getByRole('main').textContent())
        .toContain('You are invited to Devi Devices as support, signing in as kiran@devi.example.');
      await expectAccessible(theirs, 'the invitation page');
      await theirs.getByLabel('Your name').fill('Kiran');
      await theirs.getByLabel('Choose a password').fill('kiran password');
      await theirs.getByRole('button', { name: 'Join' }).click();
      await theirs.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(new URL(theirs.url()).pathname).toBe('/app/overview');
      expect(await theirs.getByText('Devi Devices · Kiran (support)').count()).toBe(1);
      const nav = theirs.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Overview',
        'Shipments',
        'NDR',
        'Returns',
        'Reports',
      ]);

      // Two-factor sign-in, set up with the key an authenticator app would read, then asked at sign-in.
      await theirs.getByRole('link', { name: 'Devi Devices · Kiran (support)' }).click();
      await theirs.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      await theirs.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
      const secret = await theirs.getByLabel('Key').inputValue();
      const appCode = () => generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });
      await theirs.getByLabel('Code the app shows').fill(await appCode());
      await expectAccessible(theirs, 'two-factor set-up');
      await theirs.getByRole('button', { name: 'Turn it on' }).click();
      await expect.poll(() => theirs.getByRole('status').textContent()).toMatch(/Two-factor sign-in is on/);
      expect(await theirs.getByRole('status').getByRole('listitem').count()).toBe(10);
      await theirs.getByRole('button', { name: 'Sign out', exact: true }).click();
      await theirs.getByLabel('Username').fill('kiran@devi.example');
      await theirs.getByLabel('Password').fill('kiran password');
      await theirs.getByRole('button', { name: 'Sign in' }).click();
      await theirs.getByLabel('Code from your authenticator app').waitFor();
      ctx.clock.advance(30_000);
      await theirs.getByLabel('Code from your authenticator app').fill(await appCode());
      await theirs.getByRole('button', { name: 'Sign in' }).click();
      await theirs.getByRole('button', { name: 'Sign out', exact: true }).waitFor();

      // The owner's screen, opened again, shows them joined.
      await page.reload();
      await expect
        .poll(() => members.getByRole('row').nth(1).textContent())
        .toMatch(/Kiran \(kiran@devi\.example\).*Active/);
      await page.getByRole('button', { name: 'Suspend kiran@devi.example' }).click();
      await expect.poll(() => members.getByRole('row').nth(1).textContent()).toMatch(/Suspended/);
      await theirs.reload();
      await theirs.getByRole('heading', { name: 'Sign in to Dakiya' }).waitFor();
      // A forgotten password: the same answer whoever asks (a suspended member gets no link).
      await theirs.getByRole('link', { name: 'Forgot your password?' }).click();
      await theirs.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await expectAccessible(theirs, 'the password reset page');
      await theirs.getByLabel('Your e-mail').fill('kiran@devi.example');
      await theirs.getByRole('button', { name: 'Send me a link' }).click();
      await expect
        .poll(() => theirs.getByRole('status').textContent())
        .toMatch(/If this e-mail is a member’s login, a link to choose a new password is on its way/);
    } finally {
      await theirs.context().close();
    }
  });

  it('shows the audit log: who did what, newest first, filtered by action, and the same as CSV', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const log = page.getByRole('table', { name: 'What was done in this account, newest first' });
    // The suspension above was the last change, made from the owner's panel session.
    await expect.poll(() => log.getByRole('row').nth(1).textContent()).toMatch(/member\.suspended/);
    expect(await log.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()).toMatch(/\(account's login\)$/);
    await expectAccessible(page, 'the audit log');
    await page.getByLabel('Action').fill('member.invited');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => log.getByRole('row').count()).toBe(2);
    expect(await log.getByRole('row').nth(1).getByRole('cell').nth(3).textContent()).toBe('member.invited');
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toBe('/custom/api/v1/audit-log?action=member.invited&format=csv');
    // The link answers the panel's own session (its cookie): the header and the one entry.
    const file = await page.request.get(new URL(csv!, page.url()).href);
    expect([file.status(), (await file.text()).trim().split('\n').length]).toEqual([200, 2]);
  });
});
