import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = (dir: string) =>
  spawnSync(process.execPath, ['scripts/check-layers.mjs', dir], { cwd: ROOT, encoding: 'utf8' });
const rules = (createRequire(import.meta.url)('../.dependency-cruiser.cjs') as { forbidden: { name: string }[] })
  .forbidden;

// test/fixtures/layers holds one deliberate breach of each rule (its files say which).
describe('the layer check (scripts/check-layers.mjs, run by npm run lint)', () => {
  const run = check(path.join(ROOT, 'test/fixtures/layers'));
  const lines = run.stderr.trim().split('\n');

  it('fails on the fixture, naming each breach', () => {
    expect(run.status).toBe(1);
    expect(lines).toEqual([
      'base-imports-only-below: src/base/wrong-way.ts → src/http/level.ts',
      'channels-imports-only-below: src/channels/shop.ts → src/features/orders/orders.service.ts',
      'consumers-imports-only-below: src/consumers/mail/mail.ts → src/app.ts',
      'consumers-stay-apart: src/consumers/hooks/hooks.ts → src/consumers/mail/mail.ts',
      'couriers-imports-only-below: src/couriers/courier.ts → src/features/orders/orders.service.ts',
      'domain-imports-only-below: src/domain/pricing.ts → src/features/orders/orders.service.ts',
      // Through src/base/disk.ts: the domain's purity holds along every chain of imports.
      'domain-is-pure: src/domain/stamp.ts → fs',
      'events-imports-only-below: src/events/log.ts → src/couriers/courier.ts',
      'features-imports-only-below: src/features/orders/orders.service.ts → src/readers/list/list.ts',
      'features-stay-apart: src/features/returns/returns.ts → src/features/orders/orders.service.ts',
      'http-imports-only-below: src/http/reach-up.ts → src/tenancy/stores/store.ts',
      'no-file-cycles: src/readers/a/a.ts → src/readers/b/b.ts',
      'no-http-below-the-routes: src/consumers/hooks/delivery.service.ts → src/http/level.ts',
      'readers-import-no-feature: src/readers/cod/cod.ts → src/couriers/courier.ts',
      'readers-imports-only-below: src/readers/list/list.ts → src/consumers/mail/mail.ts',
      'shipment-records-imports-only-below: src/shipment-records/view.ts → src/events/log.ts',
      'shipment-records-speak-no-http: src/shipment-records/view.ts → src/http/level.ts',
      'tenancy-imports-only-below: src/tenancy/stores/store.ts → src/events/log.ts',
      'tests-are-not-imported: src/features/orders/orders.service.ts → test/kit.ts',
      'folder-cycle: src/readers/a → src/readers/b → src/readers/a',
      'file-too-long: src/consumers/mail/long.ts has 401 lines (at most 400)',
      'process-env-outside-settings: src/features/orders/cutoff.ts:4 reads process.env (only src/settings.ts: ENV_READERS of scripts/check-layers.mjs)',
      // A file directly in src/ is composition only when .dependency-cruiser.cjs names it.
      'no-layer: src/stray.ts is in no layer (a file directly in src/ is listed in COMPOSITION of .dependency-cruiser.cjs; a new folder gets its layer)',
      '',
      '23 structure problem(s): see docs/architecture.md for the layers and rules',
    ]);
  });

  it('has a breach in the fixture for every rule, of .dependency-cruiser.cjs and of the script, so none can silently stop working', async () => {
    const script = pathToFileURL(path.join(ROOT, 'scripts/check-layers.mjs')).href;
    const { SCRIPT_RULES } = (await import(script)) as { SCRIPT_RULES: string[] };
    const fired = new Set(lines.map((line) => line.split(':')[0]));
    expect([...rules.map((rule) => rule.name), ...SCRIPT_RULES].filter((name) => !fired.has(name))).toEqual([]);
  });
});

// test/fixtures/layers-clean keeps every rule, in the ways a text scan or a list could misread:
// src/settings.ts reads process.env, another file names it only in comments and a URL, a test and
// a settings fragment beside a feature, src/demo/, the domain importing base, shipment records
// read by a feature and a consumer.
describe('the layer check on a house that keeps every rule', () => {
  it('passes, and says so', () => {
    const run = check(path.join(ROOT, 'test/fixtures/layers-clean'));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('process.env read only where settings are assembled');
  });
});
