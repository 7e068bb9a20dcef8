import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

// The one way tests start a browser: Debian's chromium (apt, as .ci/run installs it) driven by
// playwright-core. A file starts one browser (its start is most of a browser test's cost) and
// opens a context per test.

/**
 * Where the panel's screenshots go: the ignored test-artifacts/ on every run, so that tests leave
 * the checkout as they found it; docs/dashboard/ (what docs/dashboard.md shows) with
 * UPDATE_SCREENSHOTS=1.
 */
export function screenshotsDir(): string {
  const dir =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? path.resolve('docs', 'dashboard')
      : path.resolve('test-artifacts', 'dashboard');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation, naming each
 * rule and the elements it found. axe is evaluated through the DevTools protocol, which a page's
 * Content-Security-Policy does not govern, so pages are checked under their real CSP.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const violations: AxeViolation[] = await page.evaluate(`(async () => {
    if (!window.axe) { ${AXE_SOURCE}\n }
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })()`);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) => `${what}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

/**
 * A field's accessible description: the text of what its aria-describedby names (its error, then
 * its hint), as a screen reader reads it after the field's label. How tests read the error beside a field.
 */
export async function descriptionOf(field: Locator): Promise<string> {
  const ids = (await field.getAttribute('aria-describedby'))?.split(/\s+/).filter(Boolean) ?? [];
  const texts = await Promise.all(ids.map((id) => field.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/**
 * Presses `key` until `target` has the focus, and answers how many presses it took; fails when it
 * is not reached in `most`. What "reachable by keyboard" means in a test.
 */
export async function pressUntilFocused(page: Page, target: Locator, key = 'Tab', most = 40): Promise<number> {
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press(key);
    if (await hasFocus(target)) return presses;
  }
  throw new Error(`${key} × ${most} never reached ${target}`);
}

// The page's globals, typed here: the tests' TypeScript has no DOM library.
interface Shown {
  matches(selector: string): boolean;
}
interface PageGlobals {
  document: { activeElement: unknown };
  getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string };
}

export const hasFocus = (target: Locator): Promise<boolean> =>
  target.evaluate((el) => el === (globalThis as unknown as PageGlobals).document.activeElement);

/** The focus is on `target` and shown: :focus-visible matches and draws an outline. */
export const showsFocus = (target: Locator): Promise<boolean> =>
  target.evaluate((el) => {
    const page = globalThis as unknown as PageGlobals;
    const style = page.getComputedStyle(el);
    return (
      el === page.document.activeElement &&
      (el as unknown as Shown).matches(':focus-visible') &&
      style.outlineStyle !== 'none' &&
      style.outlineWidth !== '0px'
    );
  });
