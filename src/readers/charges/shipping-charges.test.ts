import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import {
  admin,
  authed,
  book,
  createCityWarehouse,
  issueCarrierToken,
  MINUTE,
  png,
  post,
  sendEvents,
  SHADOWFAX,
  V1,
} from '../../../test/kit/index.js';

// A shipment's charge ledger through POST and GET /shipping-charges: the booking quote's freight
// and COD fee, RTO freight once an RTO begins, and the weight adjustment as its dispute settles.

const CHARGES = `${V1}/shipping-charges`;

let ctx: TestContext;
let carrierToken: string;
useTestApp(async (made) => {
  ctx = made;
  carrierToken = await issueCarrierToken(made, SHADOWFAX);
});

/** Shadowfax, Delhi → Mumbai (zone C): ₹42 the first 500 g, ₹40 each 500 g more; COD max(₹29, 1.5 %). */
async function merchant() {
  const account = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, account.apiKey);
  return { ...account, warehouseId };
}
const order = (value: number, cod: boolean) => ({
  cod,
  value,
  items: [{ name: 'Saree', sku: 'SAREE-1', units: 1, selling_price: value }],
});
const codOrder = (value: number) => order(value, true);
const charges = async (apiKey: string, awbs: unknown[]) => {
  const response = await post(ctx, apiKey, CHARGES, { awbs });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const get = (apiKey: string, query = '') =>
  ctx.app.inject({ method: 'GET', url: `${CHARGES}${query}`, headers: authed(apiKey) });

describe('POST /shipping-charges', () => {
  it('answers the lines and totals, paise-exact, as the shipment books, goes back, and its weight dispute settles', async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const m = await merchant();
    // 1.5 % of ₹2,345.67 is ₹35.18505: ₹35.19, above the ₹29 floor.
    const awb = (await book(ctx, m.apiKey, m.warehouseId, codOrder(2345.67))).awb_code!;
    const booked = '2026-11-20T06:30:00.000Z';
    const forward = {
      type: 'forward_freight',
      amount: 42,
      state: 'charged',
      reason: 'Forward freight quoted at booking',
      at: booked,
    };
    const cod = {
      type: 'cod_fee',
      amount: 35.19,
      state: 'charged',
      reason: 'Cash-on-delivery fee quoted at booking',
      at: booked,
    };
    expect((await charges(m.apiKey, [awb])).payload[awb]).toEqual({
      awb,
      found: 1,
      shipment_id: expect.any(String),
      order_id: expect.any(String),
      carrier_id: SHADOWFAX,
      status: 'pending',
      lines: [forward, cod],
      total_charges: 77.19,
      pending_charges: 0,
    });

    ctx.clock.set('2026-11-22T06:30:00.000Z');
    await sendEvents(ctx, carrierToken, [
      { awb, status: 'in_transit', event_time: '2026-11-20T08:00:00Z' },
      { awb, status: 'rto_initiated', rto_reason: 'customer_refused', event_time: '2026-11-21T08:00:00Z' },
    ]);
    const report = await post(ctx, m.apiKey, `${V1}/weight-reports`, { file: `awb,charged_weight_g\n${awb},1200\n` });
    const discrepancy = report.json().data.opened[0].id;
    const afterRto = (await charges(m.apiKey, [awb])).payload[awb];
    const rtoAt = afterRto.lines.find((l: { type: string }) => l.type === 'rto_freight').at;
    const pending = {
      type: 'weight_adjustment',
      amount: 80,
      state: 'pending',
      reason: 'Courier charged 1200 g against 500 g applied (weight discrepancy open)',
      at: '2026-11-22T06:30:00.000Z',
    };
    expect(afterRto).toMatchObject({
      status: 'rto_initiated',
      lines: [
        forward,
        cod,
        {
          type: 'rto_freight',
          amount: 42,
          state: 'charged',
          reason: 'Return-to-origin freight quoted at booking',
          at: rtoAt,
        },
        pending,
      ],
      total_charges: 119.19,
      pending_charges: 80,
    });

    ctx.clock.set('2026-11-23T06:30:00.000Z');
    await post(ctx, m.apiKey, `${V1}/weight-disputes/${discrepancy}/accept`, undefined);
    const settled = (await charges(m.apiKey, [awb])).payload[awb];
    expect(settled.lines.at(-1)).toEqual({
      ...pending,
      state: 'charged',
      reason: 'Courier charged 1200 g against 500 g applied (weight discrepancy accepted)',
      at: '2026-11-23T06:30:00.000Z',
    });
    expect([settled.total_charges, settled.pending_charges]).toEqual([199.19, 0]);
  });

  it("answers 100 AWBs each under its own key: the account's with their charges, unknown and other accounts' as not found", async () => {
    ctx.clock.set('2026-11-24T06:30:00.000Z');
    const m = await merchant();
    const other = await merchant();
    const own: string[] = [];
    // Prepaid and COD, values whose 1.5 % crosses the ₹29 floor at ₹1,933.34 (₹29.0001 → ₹29.00) and above.
    const paise = Array.from({ length: 50 }, (_, i) => 190_001 + i * 3_737);
    for (const [i, value] of paise.entries())
      own.push((await book(ctx, m.apiKey, m.warehouseId, order(value / 100, i % 2 === 1))).awb_code!);
    const foreign: string[] = [];
    for (let i = 0; i < 10; i++) foreign.push((await book(ctx, other.apiKey, other.warehouseId)).awb_code!);
    const unknown = Array.from({ length: 40 }, (_, i) => `SFX9${String(i).padStart(9, '0')}`);
    const body = await charges(m.apiKey, [...own, ...foreign, ...unknown]);
    expect(body.status).toBe(1);
    expect(Object.keys(body.payload)).toHaveLength(100);
    let sum = 0;
    for (const [i, awb] of own.entries()) {
      const codFee = i % 2 ? Math.max(2900, Math.floor((paise[i]! * 150 + 5000) / 10000)) : 0;
      expect(body.payload[awb].total_charges, awb).toBe((4200 + codFee) / 100);
      sum += 4200 + codFee;
    }
    for (const awb of [...foreign, ...unknown]) {
      expect(body.payload[awb]).toEqual({ awb, found: 0, error: `AWB ${awb} not found` });
    }
    // The listing's CSV totals the same paise.
    const csv = await get(m.apiKey, '?format=csv');
    const totals = csv.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => Math.round(Number(line.split(',')[10]) * 100));
    expect(totals.reduce((a, b) => a + b, 0)).toBe(sum);

    const tooMany = await post(ctx, m.apiKey, CHARGES, { awbs: [...own, ...foreign, ...unknown, 'ONE-MORE'] });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().details).toEqual([{ field: 'awbs', message: 'awbs must list 1 to 100 AWBs' }]);
    expect((await post(ctx, m.apiKey, CHARGES, { awbs: [] })).statusCode).toBe(400);
    // Velocity's lenient input: an AWB sent as a number is read as its digits.
    expect((await charges(m.apiKey, [12345])).payload['12345']).toMatchObject({ found: 0 });
  });
});

describe('GET /shipping-charges', () => {
  let m: Awaited<ReturnType<typeof merchant>>;
  const awbs: string[] = [];
  beforeAll(async () => {
    ctx.clock.set('2026-12-01T06:30:00.000Z');
    m = await merchant();
    for (let i = 0; i < 5; i++) {
      awbs.push((await book(ctx, m.apiKey, m.warehouseId, { orderId: i === 0 ? '=cmd|calc' : `@SUM-${i}` })).awb_code!);
      ctx.clock.advance(24 * 60 * MINUTE);
    }
  });

  it('lists booked shipments newest first with a cursor, and filters by courier and day', async () => {
    const first = (await get(m.apiKey, '?limit=3')).json();
    expect(first.data.map((c: { awb: string }) => c.awb)).toEqual([awbs[4], awbs[3], awbs[2]]);
    expect(first.data[0]).toEqual({
      awb: awbs[4],
      order_id: '@SUM-4',
      shipment_id: expect.any(String),
      carrier_id: SHADOWFAX,
      status: 'pending',
      created_at: '2026-12-05T06:30:00.000Z',
      forward_freight: 42,
      cod_fee: 0,
      rto_freight: 0,
      weight_adjustment: 0,
      weight_adjustment_state: null,
      total_charges: 42,
      pending_charges: 0,
    });
    const second = (await get(m.apiKey, `?limit=3&cursor=${first.next_cursor}`)).json();
    expect(second.data.map((c: { awb: string }) => c.awb)).toEqual([awbs[1], awbs[0]]);
    expect(second.next_cursor).toBeNull();
    const days = (await get(m.apiKey, `?from=2026-12-02&to=2026-12-03&carrier_id=${SHADOWFAX}`)).json().data;
    expect(days.map((c: { awb: string }) => c.awb)).toEqual([awbs[2], awbs[1]]);
    expect((await get(m.apiKey, '?carrier_id=CARDTDCSTD001&carrier_id=CARBLDTAIR001')).json().data).toEqual([]);
    for (const query of ['?from=2026-13-01', '?cursor=bm90LWEtY3Vyc29y', '?limit=0', '?format=xml', '?zz=1']) {
      expect((await get(m.apiKey, query)).statusCode, query).toBe(400);
    }
  });

  it('exports CSV whose formula-like cells (=, +, -, @) are neutralised', async () => {
    const csv = await get(m.apiKey, '?format=csv&from=2026-12-01&to=2026-12-02');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="shipping-charges.csv"');
    expect(csv.body).toBe(
      'awb,order_id,carrier_id,status,created_at,forward_freight,cod_fee,rto_freight,weight_adjustment,weight_adjustment_state,total_charges,pending_charges\r\n' +
        `${awbs[1]},'@SUM-1,${SHADOWFAX},pending,2026-12-02T06:30:00.000Z,42.00,0.00,0.00,0.00,,42.00,0.00\r\n` +
        `${awbs[0]},'=cmd|calc,${SHADOWFAX},pending,2026-12-01T06:30:00.000Z,42.00,0.00,0.00,0.00,,42.00,0.00\r\n`,
    );
  });

  it("shows nothing of another account's shipments, in JSON or CSV", async () => {
    const other = await ctx.createAccount();
    expect((await get(other.apiKey)).json()).toEqual({ data: [], next_cursor: null });
    const header =
      'awb,order_id,carrier_id,status,created_at,forward_freight,cod_fee,rto_freight,weight_adjustment,weight_adjustment_state,total_charges,pending_charges\r\n';
    expect((await get(other.apiKey, '?format=csv')).body).toBe(header);
    // A shipment of theirs on the same days: in their CSV, not in this merchant's.
    const theirs = await merchant();
    const their = (await book(ctx, theirs.apiKey, theirs.warehouseId)).awb_code!;
    const mine = (await get(m.apiKey, '?format=csv')).body;
    expect(
      mine
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual([...awbs].reverse());
    expect(
      (await get(theirs.apiKey, '?format=csv')).body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual([their]);
    expect((await charges(other.apiKey, awbs)).payload[awbs[0]!]).toEqual({
      awb: awbs[0],
      found: 0,
      error: `AWB ${awbs[0]} not found`,
    });
  });
});

describe('the weight adjustment as its dispute ends', () => {
  it('won: waived; lost: charged; left past the window: charged by the sweeper; in the lines, the totals in paise, and the state filter', async () => {
    ctx.clock.set('2026-12-10T06:30:00.000Z');
    const m = await merchant();
    const awbs: string[] = [];
    for (let i = 0; i < 5; i++) awbs.push((await book(ctx, m.apiKey, m.warehouseId)).awb_code!);
    const [won, lost, late, accepted, clean] = awbs as [string, string, string, string, string];
    // 1200 g against the booked 500 g: 3 slabs at zone C, ₹42 + 2 × ₹40, so ₹80 over the ₹42 paid.
    const report = await post(ctx, m.apiKey, `${V1}/weight-reports`, {
      file: `awb,charged_weight_g\n${won},1200\n${lost},1200\n${late},1200\n${accepted},1200\n`,
    });
    const ids = Object.fromEntries(
      report.json().data.opened.map((d: { id: string; awb: string }) => [d.awb, d.id]),
    ) as Record<string, string>;
    const listed = async (query: string) => {
      const response = await get(m.apiKey, query);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data as { awb: string }[]).map((c) => c.awb).sort();
    };
    expect(await listed('?state=pending')).toEqual([won, lost, late, accepted].sort());
    expect(await listed('?state=waived')).toEqual([]);

    ctx.clock.set('2026-12-11T06:30:00.000Z');
    const images = [png().toString('base64')];
    for (const awb of [won, lost])
      expect(
        (await post(ctx, m.apiKey, `${V1}/weight-disputes/${ids[awb]}/dispute`, { comment: 'Weighed 480 g.', images }))
          .statusCode,
      ).toBe(200);
    expect((await post(ctx, m.apiKey, `${V1}/weight-disputes/${ids[accepted]}/accept`, undefined)).statusCode).toBe(
      200,
    );
    ctx.clock.set('2026-12-12T06:30:00.000Z');
    for (const [awb, outcome] of [
      [won, 'won'],
      [lost, 'lost'],
    ] as const) {
      const url = `/admin/v1/accounts/${m.id}/weight-disputes/${ids[awb]}/outcome`;
      expect((await ctx.app.inject({ method: 'POST', url, headers: admin, payload: { outcome } })).statusCode).toBe(
        200,
      );
    }
    expect(await listed('?state=pending')).toEqual([late]);
    // Seven days after the report the window closes: the sweeper accepts what is left.
    ctx.clock.set('2026-12-17T06:30:00.000Z');
    expect(await ctx.app.weightDisputeSweeper.runOnce()).toBe(1);

    const booked = {
      type: 'forward_freight',
      amount: 42,
      state: 'charged',
      reason: 'Forward freight quoted at booking',
      at: '2026-12-10T06:30:00.000Z',
    };
    const adjustment = (state: string, settled: string, at: string) => ({
      type: 'weight_adjustment',
      amount: 80,
      state,
      reason: `Courier charged 1200 g against 500 g applied (weight discrepancy ${settled})`,
      at,
    });
    const { payload } = await charges(m.apiKey, awbs);
    const lines = (awb: string) => [payload[awb].lines, payload[awb].total_charges, payload[awb].pending_charges];
    expect(lines(won)).toEqual([[booked, adjustment('waived', 'won', '2026-12-12T06:30:00.000Z')], 42, 0]);
    expect(lines(lost)).toEqual([[booked, adjustment('charged', 'lost', '2026-12-12T06:30:00.000Z')], 122, 0]);
    expect(lines(late)).toEqual([[booked, adjustment('charged', 'accepted', '2026-12-17T06:30:00.000Z')], 122, 0]);
    expect(lines(accepted)).toEqual([[booked, adjustment('charged', 'accepted', '2026-12-11T06:30:00.000Z')], 122, 0]);
    expect(lines(clean)).toEqual([[booked], 42, 0]);
    const paise = (rupees: number) => Math.round(rupees * 100);
    expect(awbs.reduce((sum, awb) => sum + paise(payload[awb].total_charges), 0)).toBe(4_200 + 12_200 * 3 + 4_200);

    // The listing by line state, and its CSV: the same rows, the same paise.
    expect(await listed('?state=waived')).toEqual([won]);
    expect(await listed('?state=pending')).toEqual([]);
    expect(await listed('?state=charged')).toEqual([...awbs].sort());
    const csv = (await get(m.apiKey, '?state=waived&format=csv')).body.trim().split('\r\n');
    expect(csv.slice(1)).toEqual([
      `${won},${payload[won].order_id},${SHADOWFAX},pending,2026-12-10T06:30:00.000Z,42.00,0.00,0.00,80.00,waived,42.00,0.00`,
    ]);
    for (const query of ['?state=settled', '?state=', '?state=pending&state=waived']) {
      const refused = await get(m.apiKey, query);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().details, query).toEqual([
        { field: 'state', message: 'state must be charged, pending or waived' },
      ]);
    }
  });

  it('needs a credential: POST and GET /shipping-charges answer 401 without one', async () => {
    const post401 = await ctx.app.inject({ method: 'POST', url: CHARGES, payload: { awbs: ['SFX0000000001'] } });
    expect(post401.statusCode).toBe(401);
    for (const query of ['', '?format=csv'])
      expect((await ctx.app.inject({ method: 'GET', url: `${CHARGES}${query}` })).statusCode, query).toBe(401);
  });
});
