import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { COLUMNS, type CsvRow, rowProblems, rowsOf } from '../web/src/pages/bulk-import-csv.js';
import { queryRows } from '../src/base/db/client.js';
import { type TestContext, useTestApp } from './app.js';
import { FORWARD_ORDER, ORCHESTRATE, post } from './kit/http.js';
import { validGstin } from './kit/invoices.js';
import { merchantWithCityWarehouse } from './kit/warehouses.js';

// The panel's CSV import as it reads a file (web/src/pages/bulk-import-csv.ts, the module the page
// runs) and the routes it sends each row to: /forward-order/check for every row without an error of
// its own, then /forward-order-orchestration. A row's boxes (its `packages` column) and the buyer's
// GSTIN (`billing_gstin`); every error by row and field (docs/paperwork.md, "In the panel").

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const CHECK = `${FORWARD_ORDER}/check`;
const HEADER = [...COLUMNS, 'packages', 'billing_gstin'].join(',');
const BUYER_GSTIN = validGstin('27', 'AAACR5055K');

const csvRow = (id: string, { weight = '', packages = '', gstin = '' } = {}) =>
  `${id},2026-11-20 14:30,Asha,Menon,"12, Marine Drive",Mumbai,Maharashtra,400001,9123456780,asha@example.com,Cotton Kurta,KURTA-M,2,499,Prepaid,40,30,30,${weight},${packages},${gstin}`;

function read(warehouseId: string, rows: string[]): CsvRow[] {
  const read = rowsOf([HEADER, ...rows].join('\r\n'), warehouseId, '');
  if (typeof read === 'string') throw new Error(read);
  return read;
}

/** What the page does on "Check rows": each row without a problem of its own asked of the API. */
async function check(apiKey: string, rows: CsvRow[]) {
  for (const row of rows.filter((r) => r.problems.length === 0)) {
    const answer = await post(ctx, apiKey, CHECK, row.body);
    if (answer.statusCode !== 200) row.problems = rowProblems(answer.json().details);
  }
  return rows.flatMap((r) => r.problems.map((p) => ({ line: r.line, ...p })));
}

describe('the bulk import: boxes in the packages column', () => {
  it("books a row's boxes (its weight left empty: their total) and the buyer's GSTIN, and a row without boxes in one", async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const rows = read(m.warehouseId, [
      csvRow('CSV-BOX-1', { packages: '1.5x30x20x10; 2 X 40×30x20', gstin: BUYER_GSTIN.toLowerCase() }),
      csvRow('CSV-BOX-2', { weight: '0.5' }),
    ]);
    expect(rows[0]!.body).toMatchObject({
      weight: 3.5,
      packages: [
        { weight: 1.5, length: 30, breadth: 20, height: 10 },
        { weight: 2, length: 40, breadth: 30, height: 20 },
      ],
      billing_gstin: BUYER_GSTIN,
    });
    expect(rows[1]!.body.weight).toBe(0.5);
    expect('packages' in rows[1]!.body).toBe(false);
    expect(await check(m.apiKey, rows)).toEqual([]);

    const booked = await post(ctx, m.apiKey, ORCHESTRATE, rows[0]!.body);
    expect(booked.statusCode).toBe(200);
    const payload = booked.json().payload;
    expect(payload.boxes.map((box: { box_no: number; weight: number }) => [box.box_no, box.weight])).toEqual([
      [1, 1.5],
      [2, 2],
    ]);
    expect(payload.boxes[0].awb).toBe(payload.awb_code);
    expect(new Set(payload.boxes.map((box: { awb: string }) => box.awb)).size).toBe(2);
    const [order] = await queryRows<{ weight_grams: number; buyer_gstin: string; packages: unknown }>(
      ctx.database.db,
      sql`select weight_grams, buyer_gstin, packages from orders where id = ${payload.order_id}`,
    );
    expect(order).toEqual({
      weight_grams: 3500,
      buyer_gstin: BUYER_GSTIN,
      packages: [
        { weightGrams: 1500, lengthCm: 30, breadthCm: 20, heightCm: 10, items: [] },
        { weightGrams: 2000, lengthCm: 40, breadthCm: 30, heightCm: 20, items: [] },
      ],
    });
    const single = await post(ctx, m.apiKey, ORCHESTRATE, rows[1]!.body);
    expect(single.statusCode).toBe(200);
    expect(single.json().payload.boxes).toBeUndefined();
  });

  it('names each bad row and field: a box that is not four numbers before sending, then what the API refuses', async () => {
    const m = await merchantWithCityWarehouse(ctx);
    const wrongGstin = `${BUYER_GSTIN.slice(0, 14)}${BUYER_GSTIN[14] === 'A' ? 'B' : 'A'}`;
    const rows = read(m.warehouseId, [
      csvRow('CSV-BAD-1', { packages: '1.5x30x20;2x40x30x20' }),
      csvRow('CSV-BAD-2', { packages: '1.5x30x20x10;2x40x30x0' }),
      csvRow('CSV-BAD-3', { weight: '3', packages: '1.5x30x20x10;2x40x30x20' }),
      csvRow('CSV-BAD-4', { packages: '1x10x10x10' }),
      csvRow('CSV-BAD-5', { weight: '0.5', gstin: wrongGstin }),
      csvRow('CSV-GOOD', { packages: '1x10x10x10;1x10x10x10' }),
    ]);
    const errors = await check(m.apiKey, rows);
    expect(errors.map(({ line, field }) => `${line} ${field}`)).toEqual([
      '2 packages (box 1)',
      '3 packages (box 2 height)',
      '4 weight',
      '5 packages',
      '6 billing_gstin',
    ]);
    expect(errors.map((e) => e.reason).slice(0, 4)).toEqual([
      'Box 1 is "1.5x30x20": write each box as weight x length x breadth x height (kg, cm), e.g. 1.5x30x20x10, boxes separated by ;',
      'Box 2 height must be greater than 0 and at most 500 cm',
      "weight must be the boxes' total weight when packages are sent: 3.5 kg, not 3 kg",
      "packages must list 2 to 20 boxes: an order in one box sends no packages (its weight and size are the order's own)",
    ]);
    expect(errors[4]!.reason).toMatch(new RegExp(`^billing_gstin ${wrongGstin} is not a valid GSTIN: `));
  });
});
