import path from 'node:path';
import { expect, it } from 'vitest';

// The panel imports pure modules of the server (decision 122): its cached build (web/dist, keyed on
// its sources) must be keyed on them too, or a change to one would leave the panel on the old code.

const buildWeb = new URL('../scripts/build-web.mjs', import.meta.url).href;
const { sharedSources } = (await import(buildWeb)) as { sharedSources: () => string[] };

it("keys the panel's build on the server modules it imports: the CSV writer, the phone check, the promised date's rule", () => {
  expect(sharedSources().map((file) => path.relative(process.cwd(), file))).toEqual([
    path.join('src', 'domain', 'csv.ts'),
    path.join('src', 'domain', 'geo', 'phone.ts'),
    path.join('src', 'domain', 'shipment', 'delivery-promise.ts'),
  ]);
});
