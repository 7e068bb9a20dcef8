import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import {
  at,
  book,
  codOrderBody,
  issueCarrierToken,
  merchant,
  ORCHESTRATE,
  post,
  SHADOWFAX,
  sendEvents,
} from '../../../test/kit/index.js';

// The destination pincode's and district's RTO rate in the account's delivered history (docs/rto.md:
// RTO risk), built by the tracking intake from courier scans and read by a booking. The scoring
// itself is table-tested in src/domain/rto/risk.unit.test.ts.

let ctx: TestContext;
let shadowfax: string;
useTestApp(async (made) => {
  ctx = made;
  shadowfax = await issueCarrierToken(ctx, SHADOWFAX);
});

const START = at(0);
/** The buyer of the history's parcels; the new orders are another buyer's, so only the area speaks. */
const HISTORY_BUYER = '9876500001';
const NEW_BUYER = '9876511111';

/** `rto` parcels sent back after a refusal and `delivered` delivered, all COD to Mumbai 400001. */
async function history(apiKey: string, warehouseId: string, rto: number, delivered: number) {
  const booked = [];
  for (let i = 0; i < rto + delivered; i++)
    booked.push(await book(ctx, apiKey, warehouseId, { phone: HISTORY_BUYER, cod: true }));
  ctx.clock.set(at(180));
  await sendEvents(
    ctx,
    shadowfax,
    booked.flatMap(({ awb_code }, i) => [
      { awb: awb_code!, status: 'in_transit', sub_status: 'picked_up', event_time: at(10) },
      { awb: awb_code!, status: 'out_for_delivery', event_time: at(60) },
      ...(i < rto
        ? [
            { awb: awb_code!, status: 'ndr_raised', ndr_reason: 'refused', event_time: at(90) },
            { awb: awb_code!, status: 'rto_initiated', event_time: at(120) },
          ]
        : [{ awb: awb_code!, status: 'delivered', event_time: at(90) }]),
    ]),
  );
  ctx.clock.set(START);
}

/** A new COD order of ₹998 to `pincode` (Mumbai district) by a buyer with no history. */
async function riskTo(apiKey: string, warehouseId: string, pincode: string) {
  const response = await post(
    ctx,
    apiKey,
    ORCHESTRATE,
    codOrderBody(warehouseId, { billing_pincode: pincode, billing_phone: NEW_BUYER }),
  );
  expect(response.statusCode, response.body).toBe(200);
  const { rto_risk, rto_risk_score, rto_risk_reasons } = response.json().payload;
  return { rto_risk, rto_risk_score, rto_risk_reasons };
}
const COD_ONLY = { rto_risk: 'low', rto_risk_score: 20, rto_risk_reasons: [{ reason: 'cod', points: 20 }] };

describe("the destination's RTO rate in the account's delivered history", () => {
  it('a pincode with 5 outcomes speaks for itself; its district needs 20, and then speaks for a new pincode; another account sees none of it', async () => {
    const m = await merchant(ctx);
    const other = await merchant(ctx);
    expect(await riskTo(m.apiKey, m.warehouseId, '400001')).toEqual(COD_ONLY);

    // 2 RTOs in 5 outcomes: 40 %, at or above 30 %.
    await history(m.apiKey, m.warehouseId, 2, 3);
    expect(await riskTo(m.apiKey, m.warehouseId, '400001')).toEqual({
      rto_risk: 'medium',
      rto_risk_score: 40,
      rto_risk_reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'pincode_rto_rate', points: 20 },
      ],
    });
    // Another pincode of the Mumbai district: its district has 5 outcomes, too few to count.
    expect(await riskTo(m.apiKey, m.warehouseId, '400002')).toEqual(COD_ONLY);

    // 6 RTOs in 20 outcomes: 30 % for the pincode and its district.
    await history(m.apiKey, m.warehouseId, 4, 11);
    expect(await riskTo(m.apiKey, m.warehouseId, '400002')).toEqual({
      rto_risk: 'medium',
      rto_risk_score: 40,
      rto_risk_reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'district_rto_rate', points: 20 },
      ],
    });
    // The pincode with its own outcomes is scored on them, not again on its district's.
    expect((await riskTo(m.apiKey, m.warehouseId, '400001')).rto_risk_reasons).toEqual([
      { reason: 'cod', points: 20 },
      { reason: 'pincode_rto_rate', points: 20 },
    ]);
    // 2 of the next 10 outcomes go back: 8 in 30 is 26.7 %, from 15 % up: +10.
    await history(m.apiKey, m.warehouseId, 2, 8);
    expect(await riskTo(m.apiKey, m.warehouseId, '400001')).toEqual({
      rto_risk: 'medium',
      rto_risk_score: 30,
      rto_risk_reasons: [
        { reason: 'cod', points: 20 },
        { reason: 'pincode_rto_rate', points: 10 },
      ],
    });

    // Another account's bookings to the same pincode and district know nothing of this history.
    expect(await riskTo(other.apiKey, other.warehouseId, '400001')).toEqual(COD_ONLY);
    expect(await riskTo(other.apiKey, other.warehouseId, '400002')).toEqual(COD_ONLY);
  });
});
