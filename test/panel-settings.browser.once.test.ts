import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { expectAccessible, launchChromium } from './browser.js';
import { STORES } from './kit/http.js';
import { type Receiver, startReceiver, until } from './webhook-receiver.js';

// The panel's settings for developers, in chromium against a listening server with the webhook
// worker running: register a webhook (its field errors first), send it a test and see the
// delivery with the receiver's status code, redeliver it; create an API key (shown once), use it,
// revoke it (it then gets 401). axe-core on each page.

const PASSWORD = 's3cret-pass';

let ctx: TestContext;
let browser: Browser;
let receiver: Receiver;
let origin: string;
let page: Page;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp({ webhooks: { retryDelaysSeconds: [0.05, 0.05], timeoutMs: 10_000, pollIntervalMs: 100, allowHttp: true, allowPrivate: true } });
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  receiver = await startReceiver();
  browser = await launchChromium();
  await ctx.createAccount('Devi Devices', { username: 'devi', password: PASSWORD });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(`${origin}/app/settings/webhooks`);
  await page.getByLabel('Username').fill('devi');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await ctx?.close();
});

const statusOf = async (apiKey: string) => (await ctx.app.inject({ method: 'GET', url: STORES, headers: { authorization: apiKey } })).statusCode;

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
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/signing secret, shown only now: whsec_\S+/);
    const endpoints = page.getByRole('table', { name: 'Your webhook endpoints' });
    await expect.poll(() => endpoints.getByRole('row').nth(1).textContent()).toMatch(new RegExp(`^${receiver.url}ERP sync\\*enabled`));
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();

    await page.getByRole('button', { name: `Send a test to ${receiver.url}` }).click();
    await until(() => receiver.received.length === 1, 'the test delivery');
    expect(JSON.parse(receiver.received[0]!.body).type).toBe('webhook.test');
    const deliveries = page.getByRole('table', { name: /deliveries, newest first/ });
    const row = deliveries.getByRole('row').nth(1);
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/^webhook\.testsucceeded2001/);
    await expectAccessible(page, 'webhook deliveries');

    await row.getByRole('button', { name: 'Redeliver' }).click();
    await until(() => receiver.received.length === 2, 'the redelivery');
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    await expect.poll(() => deliveries.getByRole('row').count(), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => deliveries.getByRole('row').nth(1).textContent(), { timeout: 20_000 }).toMatch(/^webhook\.testsucceeded2001/);
  });

  it('creates an API key shown once, which works, then revokes it: 401 from then on', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
    const keys = page.getByRole('table', { name: 'Your API keys, newest first' });
    await expect.poll(() => keys.getByRole('row').count()).toBe(2);
    await expectAccessible(page, 'API keys');

    await page.getByRole('button', { name: 'Create an API key' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/shown only this once/);
    const apiKey = await page.getByLabel('Your new API key').inputValue();
    expect(apiKey).toMatch(/^dky_/);
    expect(await statusOf(apiKey)).toBe(200);
    await expect.poll(() => keys.getByRole('row').count()).toBe(3);
    expect(await keys.getByRole('row').nth(1).textContent()).toContain(`${apiKey.slice(0, 12)}…`);
    expect(await keys.textContent()).not.toContain(apiKey);
    await expectAccessible(page, 'API key created');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByLabel('Your new API key').count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Revoke ${apiKey.slice(0, 12)}` }).click();
    await expect.poll(() => keys.getByRole('row').nth(1).textContent()).toMatch(/Revoked/);
    expect(await statusOf(apiKey)).toBe(401);
    expect(await keys.getByRole('row').nth(2).textContent()).toMatch(/Active/);
  });
});
