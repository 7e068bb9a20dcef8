import { describe, expect, it } from 'vitest';
import { useRatesApp, VALID, withField } from '../../../test/rates-validation.js';

// Dakiya's `packages` on POST /rates (issue 53): each box charged, COD once, the Velocity answer
// kept with the box count and per-box parts added; every bad box field a 400 naming it.

const { post, expectProblems, expectFieldError, expectSameQuote } = useRatesApp();

const TWO = [
  { weight: 400, length: 10, breadth: 10, height: 10 },
  { weight: 700, length: 10, breadth: 10, height: 10 },
];
const withPackages = (packages: unknown, base: object = VALID) => ({ ...base, packages });
const BOXES = 'must be a list of 2 to 20 boxes, each {weight, length, breadth, height}';
const GRAMS = 'must be a number greater than 0 and at most 500000 (grams)';
const CM = 'must be a number greater than 0 and at most 500 (cm)';

const delhiverySurface = (json: { result: { serviceable_couriers: { carrier_id: string }[] } }) =>
  json.result.serviceable_couriers.find((c) => c.carrier_id === 'CARDELHSURF01') as Record<string, unknown>;

describe('POST /rates with packages', () => {
  it('charges each box on its slabs and COD once, and adds box_count, multi_piece_charge and boxes', async () => {
    const response = await post(withPackages(TWO));
    expect(response.statusCode, response.body).toBe(200);
    const json = response.json();
    // Delhi → Mumbai, zone C, Delhivery Surface: 400 g → ₹46, 700 g → ₹46 + ₹43; COD on ₹1,000: ₹35.
    expect(delhiverySurface(json)).toMatchObject({
      charges: { forward_freight_charges: 135, cod_charges: 35, rto_charges: 135, total_forward_charges: 170 },
      multi_piece_charge: 'per_box',
      boxes: [
        { billed_weight: 400, freight_charges: 46, rto_charges: 46 },
        { billed_weight: 700, freight_charges: 89, rto_charges: 89 },
      ],
    });
    expect(json.result.shipment_details).toEqual({
      journey_type: 'forward',
      origin_pincode: '110001',
      destination_pincode: '400001',
      payment_method: 'cod',
      dead_weight: 1100,
      volumetric_weight: 400,
      applicable_weight: 1100,
      zone: 'C',
      box_count: 2,
    });
  });

  it('without packages the answer has none of the additions', async () => {
    const json = (await post(VALID)).json();
    expect(json.result.shipment_details.box_count).toBeUndefined();
    expect(delhiverySurface(json).boxes).toBeUndefined();
    expect(delhiverySurface(json).multi_piece_charge).toBeUndefined();
  });

  it('a return quotes its boxes too', async () => {
    const body = {
      journey_type: 'return',
      origin_pincode: '400001',
      destination_pincode: '110001',
      dead_weight: 1,
      length: 1,
      width: 1,
      height: 1,
      packages: TWO,
    };
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result.shipment_details.box_count).toBe(2);
    expect(response.json().result.serviceable_couriers[0].boxes).toHaveLength(2);
  });

  it('takes numbers written as strings, as the rest of the body', async () => {
    await expectSameQuote(
      withPackages([
        { weight: '400', length: '10', breadth: 10, height: '10' },
        { weight: 700, length: 10, breadth: '10', height: 10 },
      ]),
      withPackages(TWO),
    );
  });

  it('20 boxes quote; the quote cache tells packages apart', async () => {
    const twenty = Array.from({ length: 20 }, () => TWO[0]);
    const response = await post(withPackages(twenty));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().result.shipment_details.box_count).toBe(20);
    const other = (await post(withPackages([TWO[0], { ...TWO[1], weight: 701 }]))).json();
    expect(other.result.shipment_details.dead_weight).toBe(1101);
  });
});

describe('POST /rates packages: bad input → 400 naming the field', () => {
  it.each([
    ['21 boxes', Array.from({ length: 21 }, () => TWO[0])],
    ['no box', []],
    ['one box (a parcel in one box sends no packages)', [{ weight: 400, length: 10, breadth: 10, height: 10 }]],
    ['not a list', { weight: 400 }],
    ['a string', 'two boxes'],
  ])('%s → packages', async (_name, packages) => {
    await expectFieldError(withPackages(packages), 'packages', `packages ${BOXES}`);
  });

  it.each([
    ['weight', 0, GRAMS],
    ['weight', -5, GRAMS],
    ['weight', 'heavy', GRAMS],
    ['weight', 500_001, GRAMS],
    ['length', 0, CM],
    ['breadth', 501, CM],
    ['height', null, CM],
  ])('packages.1.%s = %j', async (field, value, message) => {
    const packages = [TWO[0], { ...TWO[1], [field]: value }];
    await expectFieldError(withPackages(packages), `packages.1.${field}`, `packages.1.${field} ${message}`);
  });

  it('a missing box field', async () => {
    const { breadth: _, ...noBreadth } = TWO[1]!;
    await expectFieldError(withPackages([TWO[0], noBreadth]), 'packages.1.breadth', 'packages.1.breadth is required');
  });

  it('every bad box field in one 400', async () => {
    await expectProblems(
      withPackages([
        { weight: 400, length: 10, breadth: 10 },
        { weight: 0, length: 10, breadth: 10, height: 900 },
      ]),
      [
        { field: 'packages.0.height', message: 'packages.0.height is required' },
        { field: 'packages.1.weight', message: `packages.1.weight ${GRAMS}` },
        { field: 'packages.1.height', message: `packages.1.height ${CM}` },
      ],
    );
  });

  it("a box's weight under 0.01 g, beside the body's other problems", async () => {
    await expectProblems(
      withField('destination_pincode', '999999', withPackages([TWO[0], { ...TWO[1], weight: 0.004 }])),
      [
        { field: 'destination_pincode', message: 'destination_pincode 999999 is not a pincode in the directory' },
        { field: 'packages.1.weight', message: 'packages.1.weight must be at least 0.01 (grams)' },
      ],
    );
  });
});
