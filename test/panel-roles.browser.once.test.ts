import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { expectAccessible, launchChromium } from './browser.js';
import { inviteAndJoin } from './kit/members.js';
import { orchestrate, orderBody } from './kit/orders.js';
import { createStore } from './kit/stores.js';
import { createCityWarehouse } from './kit/warehouses.js';

// Issue 51: the panel for a sample of roles, in chromium. Each member signs in and walks every
// screen their navigation shows (and every settings section): the navigation is exactly what the
// role may read, no screen calls a route the role is refused (no 403 on the wire), no screen shows
// an error, settings it may read but not change have every control disabled, and a shipment's page
// shows the buyer masked, and no write button, where the role lacks buyers:read or the write. Once: what the panel shows does not depend on the engine.

const PASSWORD = 'role walk password';
const ROLES = {
  admin: {
    nav: ['Overview', 'Shipments', 'Create shipment', 'Bulk import', 'NDR', 'Returns', 'Reports', 'Money', 'Settings'],
    phone: '9812345670',
    buttons: ['Re-issue label', 'Cancel shipment'],
    changesSettings: true,
  },
  viewer: {
    nav: ['Overview', 'Shipments', 'NDR', 'Returns', 'Reports', 'Money', 'Settings'],
    phone: '98******70',
    buttons: [],
    changesSettings: false,
  },
  finance: {
    nav: ['Overview', 'Shipments', 'NDR', 'Returns', 'Reports', 'Money'],
    phone: '98******70',
    buttons: [],
    changesSettings: false,
  },
  operations: {
    nav: ['Overview', 'Shipments', 'Create shipment', 'Bulk import', 'NDR', 'Returns', 'Reports', 'Settings'],
    phone: '9812345670',
    buttons: ['Re-issue label', 'Cancel shipment'],
    changesSettings: false,
  },
} as const;

let ctx: TestContext;
let browser: Browser;
let origin: string;
let shipmentId: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'pipe' });
  ctx = await createTestApp();
  origin = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  const { apiKey } = await ctx.createAccount('Role Walk', { username: 'role-walk', password: PASSWORD });
  const warehouseId = await createCityWarehouse(ctx, apiKey, 'delhi', 'Okhla Hub');
  shipmentId = (
    await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, {
        order_id: 'ROLE-WALK-1',
        billing_customer_name: 'Zorawar',
        billing_phone: '9812345670',
      }),
    )
  ).shipment_id;
  for (const role of Object.keys(ROLES))
    await inviteAndJoin(ctx, apiKey, { email: `${role}@role-walk.example`, role, password: PASSWORD });
  // A 3PL's operations member, limited to one store of two.
  const shoes = await createStore(ctx, apiKey, { store_name: 'walk-shoes' });
  await createStore(ctx, apiKey, { store_name: 'walk-bags' });
  for (const [orderId, store] of [
    ['ROLE-WALK-SHOES', 'walk-shoes'],
    ['ROLE-WALK-BAGS', 'walk-bags'],
  ])
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { order_id: orderId, store_name: store }));
  await inviteAndJoin(ctx, apiKey, {
    email: 'limited@role-walk.example',
    role: 'operations',
    password: PASSWORD,
    stores: [shoes.id],
  });
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

/** Follows a link and waits until the screen has settled: no request in flight, nothing loading. */
async function visit(page: Page, link: ReturnType<Page['getByRole']>) {
  await link.click();
  await page.waitForLoadState('networkidle');
  await expect
    .poll(() =>
      page
        .getByRole('status')
        .filter({ hasText: /^Loading/ })
        .count(),
    )
    .toBe(0);
}

describe('the panel for a sample of roles', () => {
  for (const [role, expected] of Object.entries(ROLES)) {
    it(`${role}: navigation, every screen it shows without a refusal or an error, the buyer as the role may see them`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 403)
          refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
      });
      const failures: string[] = [];
      try {
        await page.goto(`${origin}/app/`);
        await page.getByLabel('Username').fill(`${role}@role-walk.example`);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
        const nav = page.getByRole('navigation', { name: 'Main' });
        expect(await nav.getByRole('link').allTextContents()).toEqual(expected.nav);

        for (const screen of expected.nav) {
          await visit(page, nav.getByRole('link', { name: screen, exact: true }));
          for (const alert of await page.getByRole('alert').allTextContents()) failures.push(`${screen}: ${alert}`);
          if (screen !== 'Settings') continue;
          const sections = page.getByRole('navigation', { name: 'Settings' }).getByRole('link');
          for (const section of await sections.allTextContents()) {
            await visit(page, sections.filter({ hasText: section }));
            // A role that reads settings but may not change them finds every control disabled, and why.
            const enabled = await page.locator('main button:enabled, main input:enabled, main select:enabled').count();
            const readOnly = await page.getByText('changing them needs the settings:write permission').count();
            if (expected.changesSettings ? readOnly > 0 : enabled > 0 || readOnly !== 1)
              failures.push(`Settings → ${section}: ${enabled} controls enabled, ${readOnly} read-only notes`);
            if (!expected.changesSettings && section === 'Stores and warehouses')
              await expectAccessible(page, 'settings read without settings:write');
            for (const alert of await page.getByRole('alert').allTextContents())
              failures.push(`Settings → ${section}: ${alert}`);
          }
        }

        await page.goto(`${origin}/app/shipments/${shipmentId}?order=ROLE-WALK-1`);
        await page.getByRole('heading', { name: 'Addresses' }).waitFor();
        const deliverTo = page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Addresses' }) });
        expect(await deliverTo.textContent()).toContain(expected.phone);
        const downloads = await page.getByRole('link', { name: 'Download label' }).count();
        expect(downloads).toBe(expected.phone.includes('*') ? 0 : 1);
        const buttons = await page.getByRole('button').allTextContents();
        expect(buttons.filter((name) => ['Re-issue label', 'Cancel shipment'].includes(name))).toEqual(
          expected.buttons,
        );
        expect({ refused, failures }).toEqual({ refused: [], failures: [] });
      } finally {
        await context.close();
      }
    });
  }

  it("a member limited to one store: only the screens of their stores' shipments, and only those shipments", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    try {
      await page.goto(`${origin}/app/`);
      await page.getByLabel('Username').fill('limited@role-walk.example');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main' });
      const screens = ['Overview', 'Shipments', 'Create shipment', 'Bulk import', 'NDR', 'Returns', 'Reports'];
      expect(await nav.getByRole('link').allTextContents()).toEqual(screens);
      const failures: string[] = [];
      for (const screen of screens) {
        await visit(page, nav.getByRole('link', { name: screen, exact: true }));
        for (const alert of await page.getByRole('alert').allTextContents()) failures.push(`${screen}: ${alert}`);
      }
      await visit(page, nav.getByRole('link', { name: 'Shipments', exact: true }));
      const rows = page.getByRole('table').first().getByRole('row');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.nth(1).textContent()).toContain('ROLE-WALK-SHOES');
      // Bulk import books every row into one of their stores: no "No store" to choose.
      await visit(page, nav.getByRole('link', { name: 'Bulk import', exact: true }));
      expect(await page.getByLabel('Store of every row').locator('option').allTextContents()).toEqual(['walk-shoes']);
      // A link to a screen of every store says why it is not theirs.
      await page.goto(`${origin}/app/settings`);
      await page.getByText('This screen covers every store of the account').waitFor();
      await expectAccessible(page, 'a screen of every store, for a member limited to one');
      expect({ refused, failures }).toEqual({ refused: [], failures: [] });
    } finally {
      await context.close();
    }
  });
});
