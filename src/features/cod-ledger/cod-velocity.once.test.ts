import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { useTestApp } from '../../../test/app.js';
import {
  COD_REMITTANCE,
  dakiyaFile,
  get,
  importRemittances,
  listed,
  SETTLEMENT_STATUS,
  shipCod,
} from '../../../test/kit/cod.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, post, V1 } from '../../../test/kit/http.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

// The two {awbs} routes Velocity integrations call, and tenant isolation on every COD route.

let ctx: TestContext;
let owner: { id: string; apiKey: string; warehouseId: string };
let stranger: { id: string; apiKey: string; warehouseId: string };
let paid: string;
let short: string;
let pending: string;
let late: string;
let prepaid: string;
let rto: string;
let theirs: string;

useTestApp(async (made) => {
  ctx = made;
  owner = await merchantWithCityWarehouse(ctx);
  stranger = await merchantWithCityWarehouse(ctx);
  [paid, short, pending] = (await shipCod(ctx, owner, [998, 500, 300])) as [string, string, string];
  [prepaid] = (await shipCod(ctx, owner, [700], { prepaid: true })) as [string];
  [rto] = (await shipCod(ctx, owner, [450], { end: 'rto_initiated' })) as [string];
  [theirs] = (await shipCod(ctx, stranger, [800])) as [string];
  ctx.clock.set('2026-11-28T06:30:00.000Z');
  await importRemittances(
    ctx,
    owner.apiKey,
    dakiyaFile([
      [paid, '998', 'UTIB77', '2026-11-27'],
      [short, '480', 'UTIB77', '2026-11-27'],
    ]),
  );
  await importRemittances(ctx, stranger.apiKey, dakiyaFile([[theirs, '800', 'HDFC1', '2026-11-27']]));
  // A fourth delivery, after the files: unpaid, and overdue once the clock passes its day (2026-11-30).
  [late] = (await shipCod(ctx, owner, [250])) as [string];
  ctx.clock.set('2026-12-01T06:30:00.000Z');
});

describe('POST /cod-remittance', () => {
  it('answers per AWB: amount, state, expected date, UTR and date; unknown and other accounts’ AWBs as not found', async () => {
    const response = await post(ctx, owner.apiKey, COD_REMITTANCE, {
      awbs: [paid, short, pending, prepaid, rto, theirs, 'NOPE1'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        [paid]: {
          awb: paid,
          found: 1,
          cod_amount: 998,
          remittance_status: 'reconciled',
          expected_remittance_date: '2026-11-30',
          remitted_amount: 998,
          utr: 'UTIB77',
          remittance_date: '2026-11-27',
        },
        [short]: {
          awb: short,
          found: 1,
          cod_amount: 500,
          remittance_status: 'remitted',
          expected_remittance_date: '2026-11-30',
          remitted_amount: 480,
          utr: 'UTIB77',
          remittance_date: '2026-11-27',
        },
        [pending]: {
          awb: pending,
          found: 1,
          cod_amount: 300,
          remittance_status: 'pending',
          expected_remittance_date: '2026-11-30',
          remitted_amount: 0,
          utr: null,
          remittance_date: null,
        },
        [prepaid]: {
          awb: prepaid,
          found: 1,
          cod_amount: 0,
          remittance_status: 'prepaid',
          expected_remittance_date: null,
          remitted_amount: 0,
          utr: null,
          remittance_date: null,
        },
        [rto]: {
          awb: rto,
          found: 1,
          cod_amount: 450,
          remittance_status: 'not_delivered',
          expected_remittance_date: null,
          remitted_amount: 0,
          utr: null,
          remittance_date: null,
        },
        [theirs]: { awb: theirs, found: 0, error: `AWB ${theirs} not found` },
        NOPE1: { awb: 'NOPE1', found: 0, error: 'AWB NOPE1 not found' },
      },
    });
  });

  it('takes 100 AWBs, refuses 101 and an empty list with a 400 naming awbs', async () => {
    const hundred = [paid, ...Array.from({ length: 99 }, (_, i) => `UNKNOWN${i}`)];
    const response = await post(ctx, owner.apiKey, COD_REMITTANCE, { awbs: hundred });
    expect(response.statusCode).toBe(200);
    const payload = response.json().payload;
    expect(Object.keys(payload)).toHaveLength(100);
    expect(payload[paid].remittance_status).toBe('reconciled');
    expect(payload.UNKNOWN98).toEqual({ awb: 'UNKNOWN98', found: 0, error: 'AWB UNKNOWN98 not found' });
    for (const awbs of [[...hundred, 'ONE-MORE'], []]) {
      const refused = await post(ctx, owner.apiKey, COD_REMITTANCE, { awbs });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details).toEqual([{ field: 'awbs', message: 'awbs must list 1 to 100 AWBs' }]);
    }
  });
});

describe('POST /settlement-status', () => {
  it('answers each AWB’s settlement state; unknown and other accounts’ AWBs as not found, exactly', async () => {
    const response = await post(ctx, owner.apiKey, SETTLEMENT_STATUS, {
      awbs: [paid, short, pending, late, prepaid, theirs, 'NOPE2'],
    });
    expect(response.statusCode).toBe(200);
    const nothing = { settled_amount: 0, settled_on: null, utr: null };
    expect(response.json()).toEqual({
      status: 1,
      payload: {
        [paid]: {
          awb: paid,
          found: 1,
          settlement_status: 'settled',
          cod_amount: 998,
          settled_amount: 998,
          expected_date: '2026-11-30',
          settled_on: '2026-11-27',
          utr: 'UTIB77',
        },
        [short]: {
          awb: short,
          found: 1,
          settlement_status: 'short_settled',
          cod_amount: 500,
          settled_amount: 480,
          expected_date: '2026-11-30',
          settled_on: '2026-11-27',
          utr: 'UTIB77',
        },
        [pending]: {
          awb: pending,
          found: 1,
          settlement_status: 'overdue',
          cod_amount: 300,
          expected_date: '2026-11-30',
          ...nothing,
        },
        [late]: {
          awb: late,
          found: 1,
          settlement_status: 'overdue',
          cod_amount: 250,
          expected_date: '2026-11-30',
          ...nothing,
        },
        [prepaid]: {
          awb: prepaid,
          found: 1,
          settlement_status: 'not_applicable',
          cod_amount: 0,
          expected_date: null,
          ...nothing,
        },
        [theirs]: { awb: theirs, found: 0, error: `AWB ${theirs} not found` },
        NOPE2: { awb: 'NOPE2', found: 0, error: 'AWB NOPE2 not found' },
      },
    });
  });

  it('takes 100 AWBs and refuses 101', async () => {
    const awbs = Array.from({ length: 100 }, (_, i) => (i === 0 ? pending : `X${i}`));
    expect((await post(ctx, owner.apiKey, SETTLEMENT_STATUS, { awbs })).json().payload[pending].settlement_status).toBe(
      'overdue',
    );
    expect((await post(ctx, owner.apiKey, SETTLEMENT_STATUS, { awbs: [...awbs, 'X100'] })).statusCode).toBe(400);
  });
});

describe('tenant isolation', () => {
  it('every listing, export and summary shows the account’s own rows only', async () => {
    for (const [apiKey, mine, other] of [
      [owner.apiKey, paid, theirs],
      [stranger.apiKey, theirs, paid],
    ] as const) {
      for (const path of ['receivables', 'remittances']) {
        const awbs = (await listed(ctx, apiKey, `${V1}/cod/${path}?limit=500`)).data.map((r: { awb: string }) => r.awb);
        expect(awbs).toContain(mine);
        expect(awbs).not.toContain(other);
        const csv = (await get(ctx, apiKey, `${V1}/cod/${path}/export`)).body;
        expect(csv).toContain(mine);
        expect(csv).not.toContain(other);
      }
    }
    const theirDiscrepancies = (await listed(ctx, stranger.apiKey, `${V1}/cod/discrepancies`)).data;
    expect(theirDiscrepancies).toEqual([]);
    expect((await get(ctx, stranger.apiKey, `${V1}/cod/discrepancies/export`)).body).toBe(
      'kind,awb,carrier_id,expected_amount,received_amount,difference,expected_date,detected_at\r\n',
    );
    expect((await listed(ctx, stranger.apiKey, `${V1}/cod/reconciliation`)).totals).toMatchObject({
      receivables: 1,
      expected_amount: 800,
      received_amount: 800,
    });
    expect((await listed(ctx, owner.apiKey, `${V1}/cod/reconciliation`)).totals).toMatchObject({
      receivables: 4,
      expected_amount: 2048,
      received_amount: 1478,
    });
    // The same courier and payout day in both accounts: each export sums its own cycle only.
    const header =
      'expected_date,carrier_id,courier_name,receivables,expected_amount,received_amount,difference,pending,remitted,reconciled,discrepancies\r\n';
    expect((await get(ctx, stranger.apiKey, `${V1}/cod/reconciliation/export`)).body).toBe(
      `${header}2026-11-30,CARSHFXSTD001,Shadowfax Standard,1,800,800,0,0,0,1,0\r\n`,
    );
    expect((await get(ctx, owner.apiKey, `${V1}/cod/reconciliation/export`)).body).toBe(
      `${header}2026-11-30,CARSHFXSTD001,Shadowfax Standard,4,2048,1478,-570,2,1,1,1\r\n`,
    );
  });

  it('a file naming another account’s AWB changes nothing of theirs', async () => {
    const response = await importRemittances(
      ctx,
      stranger.apiKey,
      dakiyaFile([[pending, '300', 'HDFC2', '2026-11-27']]),
    );
    expect(response.json()).toMatchObject({
      applied: 0,
      problems: [{ line: 2, awb: pending, reason: `AWB ${pending} not found` }],
    });
    const mine = (await post(ctx, owner.apiKey, COD_REMITTANCE, { awbs: [pending] })).json().payload[pending];
    expect(mine).toMatchObject({ remittance_status: 'pending', remitted_amount: 0 });
  });

  it('the operator’s imports for one account (remittance file, weight report) never touch another’s, even naming its AWBs', async () => {
    const operator = (url: string, file: string) =>
      ctx.app.inject({ method: 'POST', url, headers: admin, payload: { file } });
    const remittance = await operator(
      `/admin/v1/accounts/${stranger.id}/cod/remittance-files`,
      dakiyaFile([[late, '250', 'HDFC3', '2026-11-27']]),
    );
    expect(remittance.statusCode, remittance.body).toBe(200);
    expect(remittance.json()).toMatchObject({
      lines: 1,
      applied: 0,
      problems: [{ line: 2, awb: late, reason: `AWB ${late} not found` }],
    });
    const weights = await operator(
      `/admin/v1/accounts/${stranger.id}/weight-reports`,
      `awb,charged_weight_g\n${prepaid},1200\n${late},1500\n`,
    );
    expect(weights.statusCode, weights.body).toBe(200);
    expect(weights.json().data).toMatchObject({
      opened: [],
      errors: [
        { line: 2, awb: prepaid },
        { line: 3, awb: late },
      ],
    });
    expect((await post(ctx, owner.apiKey, COD_REMITTANCE, { awbs: [late] })).json().payload[late]).toMatchObject({
      remittance_status: 'pending',
      remitted_amount: 0,
      utr: null,
    });
    expect((await listed(ctx, owner.apiKey, `${V1}/weight-disputes`)).data).toEqual([]);
    const charges = (await post(ctx, owner.apiKey, `${V1}/shipping-charges`, { awbs: [prepaid, late] })).json().payload;
    expect([charges[prepaid].pending_charges, charges[late].pending_charges]).toEqual([0, 0]);
  });

  it('every COD route needs a credential', async () => {
    for (const [method, url] of [
      ['POST', `${V1}/cod/remittance-files`],
      ['POST', COD_REMITTANCE],
      ['POST', SETTLEMENT_STATUS],
      ['GET', `${V1}/cod/receivables`],
      ['GET', `${V1}/cod/receivables/export`],
      ['GET', `${V1}/cod/remittances`],
      ['GET', `${V1}/cod/remittances/export`],
      ['GET', `${V1}/cod/discrepancies`],
      ['GET', `${V1}/cod/discrepancies/export`],
      ['GET', `${V1}/cod/reconciliation`],
      ['GET', `${V1}/cod/reconciliation/export`],
    ] as const) {
      expect((await ctx.app.inject({ method, url, payload: method === 'POST' ? {} : undefined })).statusCode, url).toBe(
        401,
      );
    }
  });
});

describe('reconciliation per cycle', () => {
  it('sums expected and received per courier payout day, with counts, and exports it', async () => {
    const { data } = await listed(ctx, owner.apiKey, `${V1}/cod/reconciliation?from=2026-11-30&to=2026-11-30`);
    expect(data).toEqual([
      {
        carrier_id: 'CARSHFXSTD001',
        courier_name: 'Shadowfax Standard',
        expected_date: '2026-11-30',
        receivables: 4,
        expected_amount: 2048,
        received_amount: 1478,
        difference: -570,
        pending: 2,
        remitted: 1,
        reconciled: 1,
        discrepancies: 1,
      },
    ]);
    const csv = await get(ctx, owner.apiKey, `${V1}/cod/reconciliation/export?from=2026-11-30&to=2026-11-30`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="cod-reconciliation.csv"');
    expect(csv.body).toBe(
      'expected_date,carrier_id,courier_name,receivables,expected_amount,received_amount,difference,pending,remitted,reconciled,discrepancies\r\n' +
        '2026-11-30,CARSHFXSTD001,Shadowfax Standard,4,2048,1478,-570,2,1,1,1\r\n',
    );
  });
});

describe('listing filters', () => {
  const awbsOf = async (url: string) =>
    (await listed(ctx, owner.apiKey, url)).data.map((r: { awb: string }) => r.awb).sort();

  it('/cod/remittances filters by carrier_id, awb and the remittance days', async () => {
    const both = [paid, short].sort();
    expect(await awbsOf(`${V1}/cod/remittances`)).toEqual(both);
    expect(await awbsOf(`${V1}/cod/remittances?carrier_id=${SHADOWFAX}`)).toEqual(both);
    expect(await awbsOf(`${V1}/cod/remittances?carrier_id=${DELHIVERY_SURFACE}`)).toEqual([]);
    expect(await awbsOf(`${V1}/cod/remittances?awb=${short}`)).toEqual([short]);
    expect(await awbsOf(`${V1}/cod/remittances?awb=${theirs}`)).toEqual([]);
    expect(await awbsOf(`${V1}/cod/remittances?from=2026-11-27&to=2026-11-27`)).toEqual(both);
    expect(await awbsOf(`${V1}/cod/remittances?from=2026-11-28`)).toEqual([]);
    expect(await awbsOf(`${V1}/cod/remittances?to=2026-11-26`)).toEqual([]);
    const refused = await get(ctx, owner.apiKey, `${V1}/cod/remittances?from=2026-11-30&to=2026-11-01`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.map((d: { field: string }) => d.field)).toEqual(['to']);
  });

  it('/cod/discrepancies filters by carrier_id and the days found, and pages by cursor', async () => {
    // 2026-12-01: pending and late, due 2026-11-30, are found missing; the short payment was found on 2026-11-28.
    expect(await ctx.app.codOverdueCheck.runOnce()).toBe(2);
    const all = (await listed(ctx, owner.apiKey, `${V1}/cod/discrepancies`)).data;
    expect(all.map((d: { kind: string; awb: string }) => [d.kind, d.awb]).slice(2)).toEqual([['short_paid', short]]);
    expect(
      all
        .slice(0, 2)
        .map((d: { kind: string; awb: string }) => [d.kind, d.awb])
        .sort(),
    ).toEqual(
      [
        ['missing_from_remittance', late],
        ['missing_from_remittance', pending],
      ].sort(),
    );
    expect(await awbsOf(`${V1}/cod/discrepancies?carrier_id=${SHADOWFAX}`)).toEqual([late, pending, short].sort());
    expect(await awbsOf(`${V1}/cod/discrepancies?carrier_id=${DELHIVERY_SURFACE}`)).toEqual([]);
    expect(await awbsOf(`${V1}/cod/discrepancies?from=2026-12-01`)).toEqual([late, pending].sort());
    expect(await awbsOf(`${V1}/cod/discrepancies?to=2026-11-30`)).toEqual([short]);
    expect(await awbsOf(`${V1}/cod/discrepancies?from=2026-11-28&to=2026-11-28`)).toEqual([short]);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null } = await listed(
        ctx,
        owner.apiKey,
        `${V1}/cod/discrepancies?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.data).toHaveLength(1);
      pages.push(page.data[0]!.id);
      cursor = page.next_cursor;
    } while (cursor && pages.length < 5);
    expect(pages).toEqual(all.map((d: { id: string }) => d.id));
    const refused = await get(ctx, owner.apiKey, `${V1}/cod/discrepancies?cursor=not-a-cursor&from=2026-13-01`);
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['cursor', 'from']);
    // The stranger's ledger has none of them.
    expect((await listed(ctx, stranger.apiKey, `${V1}/cod/discrepancies`)).data).toEqual([]);
  });
});
