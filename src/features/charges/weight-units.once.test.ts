import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { book, createCityWarehouse, post, V1 } from '../../../test/kit/index.js';

// Issue 46, Units: a weight report whose header did not state the unit was read as grams, so a
// file in kilograms (1.5) was taken without a word and the courier's extra charges never reached
// the ledger. A header that states its unit is read as stated; one that states none is judged
// against the parcels (weight-units.ts). The engine decides none of this: once.

const REPORTS = `${V1}/weight-reports`;

let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
useTestApp(async (made) => {
  ctx = made;
});
beforeAll(async () => {
  ({ apiKey } = await ctx.createAccount());
  warehouseId = await createCityWarehouse(ctx, apiKey);
});

/** A fresh prepaid Shadowfax parcel declared at 500 g, Delhi → Mumbai: booked freight ₹42. */
const parcel = async () => (await book(ctx, apiKey, warehouseId)).awb_code!;
const report = (file: string) => post(ctx, apiKey, REPORTS, { file });

describe('a header that states its unit is read as stated', () => {
  it.each([
    ['awb,charged_weight_kg', '1.5'],
    ['awb,charged_weight_g', '1500'],
    ['Waybill,Charged Weight (kg)', '1.5'],
  ])('%s with %s: 1,500 g, three slabs, ₹80 more than booked', async (header, weight) => {
    const awb = await parcel();
    const response = await report(`${header}\n${awb},${weight}\n`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      rows: 1,
      opened: [{ id: expect.any(String), awb, charged_weight: 1500, extra_charge: 80 }],
      unchanged: 0,
      no_extra_charge: 0,
      errors: [],
      error_count: 0,
    });
  });

  it('a weight over 1,000 kg under a kilogram header is refused in kilograms', async () => {
    const awb = await parcel();
    const response = await report(`awb,charged_weight_kg\n${awb},1500\n`);
    expect(response.json().data.errors).toEqual([
      { line: 2, awb, message: 'charged weight must be a number of kilograms above 0 and at most 1000, got "1500"' },
    ]);
  });
});

describe('a header that states no unit', () => {
  it('refuses a file whose weights are all below 50 for parcels of hundreds of grams (422), naming the header and the two ways to state the unit', async () => {
    const [a, b] = [await parcel(), await parcel()];
    const response = await report(`Waybill,Charged Weight\n${a},1.5\n${b},1.2\n`);
    const message =
      'the charged weight column "Charged Weight" does not state its unit, and every weight in it is below 50 while its ' +
      "parcels were declared at 500 g: these look like kilograms, and read as grams the courier's extra charges " +
      'would be lost. Nothing was applied; state the unit in the header: charged_weight_kg or "Charged Weight (kg)" for ' +
      'kilograms, charged_weight_g or "Charged Weight (g)" for grams';
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({
      code: 'weight_unit_unstated',
      message,
      errors: [message],
      details: [{ field: 'file', message }],
    });
    // Nothing was opened: the same weights stated in kilograms open both.
    const stated = await report(`Waybill,Charged Weight (kg)\n${a},1.5\n${b},1.2\n`);
    expect(stated.json().data.opened.map((o: { charged_weight: number }) => o.charged_weight)).toEqual([1500, 1200]);
  });

  it('reads grams, and refuses the one implausible row by its line', async () => {
    const [a, b] = [await parcel(), await parcel()];
    const response = await report(`awb,charged_weight\n${a},1200\n${b},1.5\n`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      rows: 2,
      opened: [{ id: expect.any(String), awb: a, charged_weight: 1200, extra_charge: 80 }],
      unchanged: 0,
      no_extra_charge: 0,
      errors: [
        {
          line: 3,
          awb: b,
          message:
            'charged weight 1.5 under "charged_weight", which states no unit, reads as 1.5 g for a parcel declared at 500 g: ' +
            'it looks like kilograms, so it is not applied; state the unit in the header: charged_weight_kg or ' +
            '"charged_weight (kg)" for kilograms, charged_weight_g or "charged_weight (g)" for grams',
        },
      ],
      error_count: 1,
    });
  });
});
