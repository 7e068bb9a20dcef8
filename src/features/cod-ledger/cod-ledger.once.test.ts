import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import { useTestApp } from '../../../test/app.js';
import { COD_FILES, dakiyaFile, DELIVERED_AT, get, importRemittances, listed, shipCod } from '../../../test/kit/cod.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin, UUID, V1 } from '../../../test/kit/http.js';
import { multipart } from '../../../test/kit/uploads.js';
import { book } from '../../../test/kit/orders.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';

// The COD ledger through the API: deliveries open receivables, remittance files pay them, and
// every disagreement is kept as a discrepancy.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const RECEIVABLES = `${V1}/cod/receivables`;
const DISCREPANCIES = `${V1}/cod/discrepancies`;
const REMITTANCES = `${V1}/cod/remittances`;

/** After the deliveries: a week on, so that remittances dated up to 2026-11-28 are in the past. */
const weekLater = () => ctx.clock.set('2026-11-28T06:30:00.000Z');

describe('receivables', () => {
  it('a delivered COD shipment opens a receivable due on its courier’s cycle; prepaid and undelivered ones open none', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [shadowfax] = await shipCod(ctx, owner, [998.5]);
    const [delhivery] = await shipCod(ctx, owner, [1500], { carrierId: DELHIVERY_SURFACE });
    await shipCod(ctx, owner, [700], { prepaid: true });
    await shipCod(ctx, owner, [450], { end: 'rto_initiated' });
    const { data, next_cursor } = await listed(ctx, owner.apiKey, RECEIVABLES);
    expect(next_cursor).toBeNull();
    expect(data.map((r: { awb: string }) => r.awb).sort()).toEqual([delhivery, shadowfax].sort());
    const byAwb = new Map(data.map((r: { awb: string }) => [r.awb, r]));
    // Shadowfax pays D+7 working days: 21, 23, 25, 26, 27, 28, 30 (Sundays and Tuesday 24, a bank holiday, skipped).
    expect(byAwb.get(shadowfax)).toEqual({
      id: expect.stringMatching(UUID),
      awb: shadowfax,
      shipment_id: expect.stringMatching(UUID),
      carrier_id: SHADOWFAX,
      courier_name: 'Shadowfax Standard',
      cod_amount: 998.5,
      delivered_at: DELIVERED_AT,
      expected_date: '2026-11-30',
      state: 'pending',
      received_amount: 0,
      utr: null,
      remittance_date: null,
      overdue: false,
    });
    // Delhivery pays on Tuesdays and Fridays, 2 working days after delivery at least: Monday 23 → Tuesday 24 is a holiday → Wednesday 25.
    expect(byAwb.get(delhivery)).toMatchObject({
      expected_date: '2026-11-25',
      cod_amount: 1500,
      courier_name: 'Delhivery Surface',
    });
  });

  it('pages newest delivery first with a cursor, and filters by state, courier and dates', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const awbs = await shipCod(ctx, owner, [100, 200, 300]);
    const first = await listed(ctx, owner.apiKey, `${RECEIVABLES}?limit=2`);
    expect(first.data).toHaveLength(2);
    const second = await listed(ctx, owner.apiKey, `${RECEIVABLES}?limit=2&cursor=${first.next_cursor}`);
    expect(second.next_cursor).toBeNull();
    expect([...first.data, ...second.data].map((r: { awb: string }) => r.awb).sort()).toEqual([...awbs].sort());
    expect((await listed(ctx, owner.apiKey, `${RECEIVABLES}?state=reconciled`)).data).toEqual([]);
    expect((await listed(ctx, owner.apiKey, `${RECEIVABLES}?carrier_id=${DELHIVERY_SURFACE}`)).data).toEqual([]);
    expect(
      (
        await listed(
          ctx,
          owner.apiKey,
          `${RECEIVABLES}?delivered_from=2026-11-20&delivered_to=2026-11-20&expected_to=2026-11-30`,
        )
      ).data,
    ).toHaveLength(3);
    expect((await listed(ctx, owner.apiKey, `${RECEIVABLES}?delivered_from=2026-11-21`)).data).toEqual([]);
    expect((await listed(ctx, owner.apiKey, `${RECEIVABLES}?expected_from=2026-12-01`)).data).toEqual([]);
  });

  it('refuses bad filters, naming every field', async () => {
    const owner = await ctx.createAccount();
    const response = await get(
      ctx,
      owner.apiKey,
      `${RECEIVABLES}?delivered_from=2026-02-30&expected_from=2026-11-30&expected_to=2026-11-01&cursor=nonsense`,
    );
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['cursor', 'delivered_from', 'expected_to']);
    const schema = await get(ctx, owner.apiKey, `${RECEIVABLES}?state=lost&limit=501`);
    expect(schema.statusCode).toBe(400);
    expect(
      schema
        .json()
        .details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['limit', 'state']);
  });
});

describe('remittance files', () => {
  it('pays receivables in full, reconciles them, and the same file twice changes nothing', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [a, b] = await shipCod(ctx, owner, [998.5, 1499]);
    weekLater();
    const file = dakiyaFile([
      [a!, '998.50', 'UTIB0000123456', '2026-11-27'],
      [b!, '1499', 'utib0000123456', '27-11-2026'],
    ]);
    const first = await importRemittances(ctx, owner.apiKey, file);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      id: expect.stringMatching(UUID),
      format: 'dakiya',
      file_name: null,
      lines: 2,
      applied: 2,
      duplicates: 0,
      applied_amount: 2497.5,
      utrs: ['UTIB0000123456'],
      discrepancies: 0,
      problems: [],
      problem_count: 0,
      found: [],
    });
    const again = await importRemittances(ctx, owner.apiKey, file);
    expect(again.json()).toMatchObject({
      lines: 2,
      applied: 0,
      duplicates: 2,
      applied_amount: 0,
      utrs: [],
      problems: [],
    });
    const { data } = await listed(ctx, owner.apiKey, `${RECEIVABLES}?state=reconciled`);
    expect(
      data
        .map((r: { awb: string; received_amount: number; utr: string; remittance_date: string }) => [
          r.awb,
          r.received_amount,
          r.utr,
          r.remittance_date,
        ])
        .sort(),
    ).toEqual(
      [
        [a, 998.5, 'UTIB0000123456', '2026-11-27'],
        [b, 1499, 'UTIB0000123456', '2026-11-27'],
      ].sort(),
    );
    const lines = await listed(ctx, owner.apiKey, `${REMITTANCES}?utr=utib0000123456`);
    expect(lines.data).toHaveLength(2);
    expect((await listed(ctx, owner.apiKey, DISCREPANCIES)).data).toEqual([]);
    // The import's event, once: the second file applied nothing.
    await eventsSettled(ctx.database);
    const events = (await listed(ctx, owner.apiKey, `${V1}/events?type[]=cod.remittance_applied`)).data;
    expect(events).toHaveLength(1);
    expect(events[0].data.import).toMatchObject({ id: first.json().id, applied: 2, applied_amount: 2497.5 });
  });

  it("reads Delhivery's columns from a multipart upload and keeps the file's name", async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [awb] = await shipCod(ctx, owner, [1500], { carrierId: DELHIVERY_SURFACE });
    weekLater();
    const csv = `Waybill,COD Amount,UTR No,Remittance Date,Remarks\r\n${awb},"1,500.00",HDFC000777,25/11/2026,weekly\r\n`;
    const response = await ctx.app.inject({
      method: 'POST',
      url: COD_FILES,
      ...multipart(owner.apiKey, [
        { name: 'file', value: csv, filename: 'delhivery-25-11.csv', contentType: 'text/csv' },
      ]),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      format: 'delhivery',
      file_name: 'delhivery-25-11.csv',
      applied: 1,
      applied_amount: 1500,
      problems: [],
    });
    expect((await listed(ctx, owner.apiKey, `${RECEIVABLES}?state=reconciled`)).data).toHaveLength(1);
  });

  it('reports every bad line with its number and reason, and applies the good ones in the same file', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [good, other] = await shipCod(ctx, owner, [500, 600]);
    const [prepaid] = await shipCod(ctx, owner, [700], { prepaid: true });
    const stranger = await merchantWithCityWarehouse(ctx);
    const [theirs] = await shipCod(ctx, stranger, [800]);
    weekLater();
    const file = dakiyaFile([
      [good!, '500', 'UTR1', '2026-11-27'],
      ['SFX0000999999', '10', 'UTR1', '2026-11-27'],
      [theirs!, '800', 'UTR1', '2026-11-27'],
      [prepaid!, '700', 'UTR1', '2026-11-27'],
      [other!, '6OO', 'UTR1', '2026-11-27'],
      [other!, '600', 'UTR1', '2026-12-27'],
      [good!, '500', 'UTR1', '2026-11-27'],
    ]);
    const response = await importRemittances(ctx, owner.apiKey, file);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ lines: 7, applied: 1, duplicates: 0, applied_amount: 500 });
    expect(response.json().problems).toEqual([
      { line: 3, awb: 'SFX0000999999', reason: 'AWB SFX0000999999 not found' },
      { line: 4, awb: theirs, reason: `AWB ${theirs} not found` },
      { line: 5, awb: prepaid, reason: `AWB ${prepaid} is a prepaid shipment: it has no cash on delivery to remit` },
      { line: 6, awb: other, reason: 'amount "6OO" is not rupees with at most two decimals (e.g. 1499.50)' },
      { line: 7, awb: other, reason: 'remittance_date 2026-12-27 is in the future' },
      { line: 8, awb: good, reason: 'repeats line 2 (the same utr and awb)' },
    ]);
    // The other account's receivable is untouched.
    expect((await listed(ctx, stranger.apiKey, RECEIVABLES)).data[0]).toMatchObject({
      state: 'pending',
      received_amount: 0,
    });
  });

  it('refuses a whole file that names no known format, and an empty body, with 4xx naming the field', async () => {
    const owner = await ctx.createAccount();
    const wrong = await importRemittances(ctx, owner.apiKey, 'tracking,value\nSFX1,10\n');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('cod_remittance_file_invalid');
    expect(wrong.json().details).toEqual([
      { field: 'file', message: expect.stringContaining('dakiya: awb,amount,utr,remittance_date') },
    ]);
    const empty = await importRemittances(ctx, owner.apiKey, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.map((d: { field: string }) => d.field)).toEqual(['file']);
  });

  it('flags a short payment, an over payment and an RTO paid as delivered; a top-up reconciles and the discrepancy stays', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [short, over] = await shipCod(ctx, owner, [998, 500]);
    const [rto] = await shipCod(ctx, owner, [450], { end: 'rto_initiated' });
    weekLater();
    const response = await importRemittances(
      ctx,
      owner.apiKey,
      dakiyaFile([
        [short!, '950.50', 'UTR9', '2026-11-27'],
        [over!, '500.01', 'UTR9', '2026-11-27'],
        [rto!, '450', 'UTR9', '2026-11-27'],
      ]),
    );
    expect(response.json()).toMatchObject({ applied: 3, applied_amount: 1900.51, discrepancies: 3, problems: [] });
    const found = Object.fromEntries(response.json().found.map((d: { awb: string }) => [d.awb, d]));
    expect(found[short!]).toMatchObject({
      kind: 'short_paid',
      expected_amount: 998,
      received_amount: 950.5,
      difference: -47.5,
    });
    expect(found[over!]).toMatchObject({
      kind: 'over_paid',
      expected_amount: 500,
      received_amount: 500.01,
      difference: 0.01,
    });
    expect(found[rto!]).toMatchObject({
      kind: 'paid_not_delivered',
      receivable_id: null,
      expected_amount: 0,
      received_amount: 450,
      difference: 450,
    });
    expect((await listed(ctx, owner.apiKey, `${RECEIVABLES}?state=remitted`)).data).toHaveLength(2);

    const topUp = await importRemittances(ctx, owner.apiKey, dakiyaFile([[short!, '47.50', 'UTR10', '2026-11-28']]));
    expect(topUp.json()).toMatchObject({ applied: 1, discrepancies: 0 });
    const [settled] = (await listed(ctx, owner.apiKey, `${RECEIVABLES}?utr=UTR10`)).data;
    expect(settled).toMatchObject({
      awb: short,
      state: 'reconciled',
      received_amount: 998,
      utr: 'UTR10',
      remittance_date: '2026-11-28',
    });
    const kept = await listed(ctx, owner.apiKey, `${DISCREPANCIES}?kind=short_paid`);
    expect(kept.data).toEqual([expect.objectContaining({ awb: short, received_amount: 950.5, difference: -47.5 })]);
    await eventsSettled(ctx.database);
    const events = (await listed(ctx, owner.apiKey, `${V1}/events?type[]=cod.discrepancy_found`)).data;
    expect(events.map((e: { data: { discrepancy: { kind: string } } }) => e.data.discrepancy.kind).sort()).toEqual([
      'over_paid',
      'paid_not_delivered',
      'short_paid',
    ]);
  });

  it('a line paid before the delivery scan arrives is flagged, and the late delivery’s receivable counts it', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const { awb_code: awb } = await book(ctx, owner.apiKey, owner.warehouseId, { cod: true, value: 640 });
    weekLater();
    const early = await importRemittances(ctx, owner.apiKey, dakiyaFile([[awb!, '640', 'UTR8', '2026-11-27']]));
    expect(early.json().found).toEqual([
      expect.objectContaining({ awb, kind: 'paid_not_delivered', received_amount: 640 }),
    ]);
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    await sendEvents(ctx, token, [
      { awb: awb!, status: 'picked_up', event_time: '2026-11-21T06:00:00Z' },
      { awb: awb!, status: 'in_transit', event_time: '2026-11-21T08:00:00Z' },
      { awb: awb!, status: 'delivered', event_time: '2026-11-28T06:00:00Z' },
    ]);
    const [receivable] = (await listed(ctx, owner.apiKey, RECEIVABLES)).data;
    expect(receivable).toMatchObject({
      awb,
      state: 'reconciled',
      received_amount: 640,
      utr: 'UTR8',
      remittance_date: '2026-11-27',
      expected_date: '2026-12-07',
    });
  });

  it('refuses a line that changes a line taken before', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [awb] = await shipCod(ctx, owner, [300]);
    weekLater();
    await importRemittances(ctx, owner.apiKey, dakiyaFile([[awb!, '300', 'UTR5', '2026-11-27']]));
    const changed = await importRemittances(ctx, owner.apiKey, dakiyaFile([[awb!, '299', 'UTR5', '2026-11-27']]));
    expect(changed.json()).toMatchObject({ applied: 0, duplicates: 0 });
    expect(changed.json().problems).toEqual([
      {
        line: 2,
        awb,
        reason: `utr UTR5 was already taken in for this AWB with amount 300 on 2026-11-27; a line is never changed`,
      },
    ]);
  });

  it('sums thousands of lines exactly to the paisa, over statements of 5,000 lines; the same file again changes nothing', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const awbs = await shipCod(ctx, owner, [100, 200, 300, 400]);
    weekLater();
    const lines: [string, string, string, string][] = [];
    let paise = 0;
    for (let i = 0; i < 5_500; i++) {
      const amount = 1 + ((i * 7919) % 100_000); // 0.01 to 1,000.00 rupees, every paisa pattern
      paise += amount;
      lines.push([
        awbs[i % 4]!,
        `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`,
        `UTR${i}`,
        '2026-11-27',
      ]);
    }
    const response = await importRemittances(ctx, owner.apiKey, dakiyaFile(lines));
    expect(response.json()).toMatchObject({ lines: 5_500, applied: 5_500, problems: [] });
    expect(response.json().applied_amount).toBe(paise / 100);
    const again = await importRemittances(ctx, owner.apiKey, dakiyaFile(lines));
    expect(again.json()).toMatchObject({ lines: 5_500, applied: 0, duplicates: 5_500, problem_count: 0 });
    const { totals } = await listed(ctx, owner.apiKey, `${V1}/cod/reconciliation`);
    expect(totals).toMatchObject({
      receivables: 4,
      expected_amount: 1000,
      received_amount: paise / 100,
      difference: (paise - 100_000) / 100,
    });
    let listedPaise = 0;
    let cursor: string | null = null;
    do {
      const page = await listed(ctx, owner.apiKey, `${REMITTANCES}?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      for (const line of page.data) listedPaise += Math.round(line.amount * 100);
      cursor = page.next_cursor;
    } while (cursor);
    expect(listedPaise).toBe(paise);
  });

  it('the CLI’s operator route imports for a named account; an unknown account is a 404', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [awb] = await shipCod(ctx, owner, [250]);
    weekLater();
    const url = (id: string) => `/admin/v1/accounts/${id}/cod/remittance-files`;
    const payload = { file: dakiyaFile([[awb!, '250', 'UTR7', '2026-11-27']]), file_name: 'shadowfax.csv' };
    const response = await ctx.app.inject({ method: 'POST', url: url(owner.id), headers: admin, payload });
    expect(response.json()).toMatchObject({ applied: 1, file_name: 'shadowfax.csv' });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: url('00000000-0000-4000-8000-000000000000'),
      headers: admin,
      payload,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('remittance_account_not_found');
  });
});

describe('overdue remittances', () => {
  it('the scheduled check flags a delivery unpaid past its day, once', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [awb] = await shipCod(ctx, owner, [640]);
    ctx.clock.set('2026-11-30T12:00:00.000Z'); // the due day itself: not yet overdue
    await ctx.app.codOverdueCheck.runOnce();
    expect((await listed(ctx, owner.apiKey, `${DISCREPANCIES}?kind=missing_from_remittance`)).data).toEqual([]);
    ctx.clock.set('2026-12-01T04:00:00.000Z');
    await ctx.app.codOverdueCheck.runOnce();
    await ctx.app.codOverdueCheck.runOnce();
    const { data } = await listed(ctx, owner.apiKey, `${DISCREPANCIES}?kind=missing_from_remittance`);
    expect(data).toEqual([
      expect.objectContaining({
        awb,
        expected_amount: 640,
        received_amount: 0,
        difference: -640,
        expected_date: '2026-11-30',
        remittance_id: null,
      }),
    ]);
    expect((await listed(ctx, owner.apiKey, RECEIVABLES)).data[0]).toMatchObject({ state: 'pending', overdue: true });
  });
});
