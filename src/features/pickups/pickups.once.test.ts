import bwipjs from 'bwip-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import {
  type DelhiverySimulator,
  SIM_TOKEN,
  startDelhiverySimulator,
} from '../../demo/simulators/delhivery-simulator.js';
import { DELHIVERY_SURFACE, ratesWith, SHADOWFAX } from '../../../test/kit/couriers.js';
import { authed, CANCEL, HOUR, post, V1 } from '../../../test/kit/http.js';
import { darkRunsAcross, pdfGreyPages, pdfWords, popplerRead } from '../../../test/kit/labels.js';
import { book, type Booked, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { list, listIds } from '../../../test/kit/shipments.js';
import { issueCarrierToken, sendEvents } from '../../../test/kit/tracking.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';

// Issue 31: a pickup per warehouse, courier and day, with its manifest; the listing's `manifested`
// and `pickup_id` filters; a pickup whose day ended with parcels waiting flagged once.

const PICKUPS = `${V1}/pickups`;
const TODAY = '2026-11-20';

let sim: DelhiverySimulator;
let ctx: TestContext;
let apiKey: string;
let warehouseId: string;
beforeAll(async () => {
  sim = await startDelhiverySimulator();
  ctx = await createTestApp({
    rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
    settings: {
      couriers: {
        delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl },
        timeoutMs: 500,
        pollSeconds: 60,
      },
    },
  });
  ({ apiKey } = await ctx.createAccount('Pickups'));
  warehouseId = await createWarehouse(ctx, apiKey, { name: 'Okhla Hub' });
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

const get = (url: string, key = apiKey) => ctx.app.inject({ method: 'GET', url, headers: authed(key) });
const bookMany = async (n: number, carrierId: string, cod = false) => {
  const booked: Booked[] = [];
  for (let i = 0; i < n; i++) booked.push(await book(ctx, apiKey, warehouseId, { carrierId, cod }));
  return booked;
};
const idsOf = (booked: Booked[]) => booked.map((b) => b.shipment_id);

describe('pickups', () => {
  let first: Booked[];
  let pickup: Record<string, unknown> & { id: string; shipments: { awb: string }[] };

  it('asks Delhivery to collect the waiting parcels: the pickup, its reference, and the shipments manifested', async () => {
    first = await bookMany(3, DELHIVERY_SURFACE);
    const before = sim.pickups.length;
    const created = await post(ctx, apiKey, PICKUPS, { warehouse_id: warehouseId, carrier_id: DELHIVERY_SURFACE });
    expect(created.statusCode, created.body).toBe(201);
    pickup = created.json().data;
    expect(sim.pickups.slice(before)).toEqual([
      { pickup_location: 'Okhla Hub', expected_package_count: 3, pickup_date: TODAY, pickup_time: '11:00:00' },
    ]);
    expect(pickup).toEqual({
      id: expect.any(String),
      status: 'scheduled',
      warehouse_id: warehouseId,
      carrier_id: DELHIVERY_SURFACE,
      courier_name: 'Delhivery Surface',
      pickup_date: TODAY,
      courier_reference: String(7_000_000 + sim.pickups.length),
      parcels: 3,
      manifest_url: `https://dakiya.test/custom/api/v1/pickups/${pickup.id}/manifest.pdf`,
      created_at: ctx.clock.now().toISOString(),
      missed_at: null,
      missed_awbs: [],
      shipments: first.map((b) => ({
        awb: b.awb_code,
        order_id: b.channel_order_id,
        weight: b.applied_weight,
        cod_amount: 0,
        status: 'pending',
        picked_up: false,
      })),
    });
    expect((await get(`${PICKUPS}/${pickup.id}`)).json()).toEqual({ data: pickup });
    expect((await get(PICKUPS)).json()).toEqual({ data: [pickup], next_cursor: null });
    // A limit, as a query sends it (text): taken, and an out-of-range one named.
    expect((await get(`${PICKUPS}?limit=1`)).json()).toEqual({ data: [pickup], next_cursor: null });
    const outOfRange = await get(`${PICKUPS}?limit=101`);
    expect([outOfRange.statusCode, outOfRange.json().errors]).toEqual([
      400,
      ['limit must be a whole number from 1 to 100'],
    ]);

    // Velocity's listing filters now find them.
    expect((await listIds(ctx, apiKey, { manifested: true })).sort()).toEqual(idsOf(first).sort());
    expect((await listIds(ctx, apiKey, { pickup_id: pickup.id })).sort()).toEqual(idsOf(first).sort());
    expect(await listIds(ctx, apiKey, { manifested: false })).toEqual([]);
    // And each shows it, under the filters' own names.
    const shown = (await list(ctx, apiKey, { per_page: 100 })).data.map((s) => [
      s.id,
      s.attributes.manifested,
      s.attributes.pickup_id,
    ]);
    expect(shown.sort()).toEqual(
      idsOf(first)
        .map((id) => [id, true, pickup.id])
        .sort(),
    );

    await eventsSettled(ctx.database);
    const events = (await get(`${V1}/events?type[]=pickup.created`)).json().data;
    expect(events.map((e: { subject: unknown; data: unknown }) => e.data)).toEqual([{ pickup }]);
  });

  it('names every field and every AWB that cannot go on a pickup, all at once, and writes nothing', async () => {
    const shapes = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: 'W1',
      carrier_id: '',
      pickup_date: '20-11-2026',
      awbs: [],
    });
    expect(shapes.statusCode).toBe(400);
    expect(shapes.json().errors).toEqual([
      'warehouse_id must be a warehouse id (a UUID)',
      'carrier_id must be a courier service id of 1 to 32 characters',
      'pickup_date must be a date as YYYY-MM-DD',
      'awbs must be a list of 1 to 500 AWBs',
    ]);
    const meaning = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: crypto.randomUUID(),
      carrier_id: 'CARNOPE',
      pickup_date: '2026-11-19',
    });
    expect(meaning.statusCode).toBe(422);
    expect(meaning.json().errors).toEqual([
      'warehouse_id names no warehouse of this account',
      'carrier_id CARNOPE is not a courier service of this server',
      'pickup_date must be from today (2026-11-20) to 2026-11-27, India time',
    ]);
    expect(
      (
        await post(ctx, apiKey, PICKUPS, {
          warehouse_id: warehouseId,
          carrier_id: DELHIVERY_SURFACE,
          pickup_date: '2026-11-28',
        })
      ).json().errors,
    ).toEqual(['pickup_date must be from today (2026-11-20) to 2026-11-27, India time']);

    const [waiting, cancelled] = await bookMany(2, DELHIVERY_SURFACE);
    expect((await post(ctx, apiKey, CANCEL, { awbs: [cancelled!.awb_code] })).statusCode).toBe(200);
    const [shadowfax] = await bookMany(1, SHADOWFAX);
    const stranger = await ctx.createAccount('Stranger');
    const theirs = await book(ctx, stranger.apiKey, await createWarehouse(ctx, stranger.apiKey), {
      carrierId: DELHIVERY_SURFACE,
    });
    const otherWarehouse = await book(ctx, apiKey, await createWarehouse(ctx, apiKey, { name: 'Second' }), {
      carrierId: DELHIVERY_SURFACE,
    });
    const awbs = [
      waiting!.awb_code,
      first[0]!.awb_code,
      cancelled!.awb_code,
      shadowfax!.awb_code,
      theirs.awb_code,
      otherWarehouse.awb_code,
      'NOPE1',
    ];
    const refused = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: DELHIVERY_SURFACE,
      awbs,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('pickup_parcels_refused');
    expect(refused.json().errors).toEqual([
      `AWB ${first[0]!.awb_code} is on pickup ${pickup.id} already`,
      `AWB ${cancelled!.awb_code} is cancelled: only parcels not yet picked up go on a pickup`,
      `AWB ${shadowfax!.awb_code} is booked with another courier (${SHADOWFAX})`,
      `AWB ${theirs.awb_code} not found`,
      `AWB ${otherWarehouse.awb_code} ships from another warehouse`,
      'AWB NOPE1 not found',
    ]);
    expect(refused.json().details.map((d: { field: string }) => d.field)).toEqual([
      'awbs[1]',
      'awbs[2]',
      'awbs[3]',
      'awbs[4]',
      'awbs[5]',
      'awbs[6]',
    ]);
    expect((await get(PICKUPS)).json().data).toHaveLength(1);
    expect(await listIds(ctx, apiKey, { manifested: true })).toHaveLength(3);
    const shown = new Map(
      (await list(ctx, apiKey, { per_page: 100 })).data.map((s) => [
        s.id,
        [s.attributes.manifested, s.attributes.pickup_id],
      ]),
    );
    expect(shown.get(waiting!.shipment_id)).toEqual([false, null]);
    expect(shown.get(shadowfax!.shipment_id)).toEqual([false, null]);
    expect(shown.get(first[0]!.shipment_id)).toEqual([true, pickup.id]);
  });

  it('writes nothing when the courier fails, and manifests the parcels when asked again', async () => {
    const waiting = await listIds(ctx, apiKey, {
      manifested: false,
      carrier_id: DELHIVERY_SURFACE,
      warehouse_id: warehouseId,
      status: 'pending',
    });
    sim.failNext('/fm/request/new', '500');
    const failed = await post(ctx, apiKey, PICKUPS, { warehouse_id: warehouseId, carrier_id: DELHIVERY_SURFACE });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().message).toMatch(/Delhivery/);
    expect((await get(PICKUPS)).json().data).toHaveLength(1);
    const body = { warehouse_id: warehouseId, carrier_id: DELHIVERY_SURFACE };
    const headers = { 'idempotency-key': 'pickup-retry-1' };
    const again = await post(ctx, apiKey, PICKUPS, body, headers);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.shipments.map((s: { awb: string }) => s.awb)).toHaveLength(waiting.length);
    // The same key again: the first answer, not a second pickup.
    const replayed = await post(ctx, apiKey, PICKUPS, body, headers);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(again.json());
    expect((await get(PICKUPS)).json().data).toHaveLength(2);
    const nothingLeft = await post(ctx, apiKey, PICKUPS, { warehouse_id: warehouseId, carrier_id: DELHIVERY_SURFACE });
    expect(nothingLeft.statusCode).toBe(422);
    expect(nothingLeft.json().code).toBe('no_parcel_waiting');
    expect(nothingLeft.json().errors).toEqual([
      `No parcel of this warehouse booked with ${DELHIVERY_SURFACE} is waiting for a pickup`,
    ]);
  });

  it("prints the manifest: courier and date, a row per AWB with its barcode, order id, weight and COD amount, the totals and the rider's signature line, across pages, the same each time", async () => {
    // Weights and amounts differ row to row, so each row's figures are its own.
    const cod: Booked[] = [];
    for (let i = 0; i < 15; i++)
      cod.push(
        await book(ctx, apiKey, warehouseId, {
          carrierId: SHADOWFAX,
          cod: true,
          weight: (500 + 50 * i) / 1000,
          value: 998 + i,
        }),
      );
    const created = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: SHADOWFAX,
      awbs: cod.map((b) => b.awb_code),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.courier_reference).toBeNull();
    const url = new URL(created.json().data.manifest_url).pathname;
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const { pages, pageTexts } = await popplerRead(response.rawPayload);
    expect(pages).toBe(2);
    const text = pageTexts.join('\n');
    expect(pageTexts[0]).toContain('Pickup manifest');
    // Shadowfax has no pickup request, so no courier reference follows its name.
    expect(pageTexts[0]).toMatch(/^Courier: Shadowfax Standard$/m);
    expect(pageTexts[0]).toMatch(new RegExp(`^Pickup date: ${TODAY}$`, 'm'));
    expect(pageTexts[0]).toContain('Warehouse: Okhla Hub');

    // Each row: its AWB under its bars, and on the same line its order id, weight (kg) and cash to collect.
    const words = await pdfWords(response.rawPayload);
    const drawn = await pdfGreyPages(response.rawPayload);
    const rupees = (amount: number) => `₹${amount.toLocaleString('en-IN', { minimumFractionDigits: 2 })}`;
    for (const [i, b] of cod.entries()) {
      const awb = words.find((w) => w.text === b.awb_code)!;
      expect(awb, b.awb_code!).toBeDefined();
      const row = words.filter(
        (w) => w.page === awb.page && w.yMin > awb.yMin - 30 && w.yMax < awb.yMin && w.xMin > awb.xMax,
      );
      expect(
        row.map((w) => w.text),
        b.awb_code!,
      ).toEqual([b.channel_order_id, b.applied_weight.toFixed(3), rupees(998 + i)]);
      // Code 128 of this AWB: as many bars as its encoding has, drawn above the printed AWB.
      const [{ sbs }] = bwipjs.raw('code128', b.awb_code!, {}) as unknown as [{ sbs: number[] }];
      expect(darkRunsAcross(drawn[awb.page - 1]!, awb.yMin - 8, awb.xMin - 1, awb.xMin + 199), b.awb_code!).toBe(
        Math.ceil(sbs.length / 2),
      );
    }
    const grams = cod.reduce((sum, b) => sum + Math.round(b.applied_weight * 1000), 0);
    expect(text).toContain(`Total: 15 parcels, ${(grams / 1000).toFixed(3)} kg`);
    expect(text).toContain(`Cash on delivery: ${rupees(15 * 998 + 105)} on 15 parcels`);
    expect(text).toContain('Received by the rider (name, signature, time)');
    expect(pageTexts[1]).toContain('Page 2 of 2');
    const again = (await get(url)).rawPayload;
    expect(again.equals(response.rawPayload)).toBe(true);
  });

  it("prints a parcel's e-way bill number under its order id, for the hub that checks it (docs/paperwork.md)", async () => {
    const booked = await orchestrate(
      ctx,
      apiKey,
      orderBody(warehouseId, { carrier_id: SHADOWFAX, ewaybill_no: '331009876543' }),
    );
    const created = await post(ctx, apiKey, PICKUPS, {
      warehouse_id: warehouseId,
      carrier_id: SHADOWFAX,
      awbs: [booked.awb_code],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { pageTexts } = await popplerRead((await get(new URL(created.json().data.manifest_url).pathname)).rawPayload);
    const text = pageTexts[0]!;
    expect(text).toContain('E-way bill 331009876543');
    // Under the order id, in its column.
    expect(text.indexOf('E-way bill 331009876543')).toBeGreaterThan(text.indexOf(booked.channel_order_id));
  });

  it('flags a pickup whose day ended with parcels not picked up, once, and hides every pickup from another account', async () => {
    const [early, late] = await bookMany(2, SHADOWFAX);
    const created = (
      await post(ctx, apiKey, PICKUPS, {
        warehouse_id: warehouseId,
        carrier_id: SHADOWFAX,
        awbs: [early!.awb_code, late!.awb_code],
      })
    ).json().data;
    const token = await issueCarrierToken(ctx, SHADOWFAX);
    await sendEvents(ctx, token, [
      {
        awb: early!.awb_code!,
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: ctx.clock.now().toISOString(),
      },
    ]);
    expect(await ctx.app.missedPickupsCheck.runOnce()).toBe(0);
    ctx.clock.advance(20 * HOUR);
    expect(await ctx.app.missedPickupsCheck.runOnce()).toBeGreaterThanOrEqual(1);
    expect(await ctx.app.missedPickupsCheck.runOnce()).toBe(0);
    const missed = (await get(`${PICKUPS}/${created.id}`)).json().data;
    expect(missed).toMatchObject({
      status: 'missed',
      missed_at: ctx.clock.now().toISOString(),
      missed_awbs: [late!.awb_code],
    });
    expect(missed.shipments.map((s: { picked_up: boolean }) => s.picked_up)).toEqual([true, false]);
    await eventsSettled(ctx.database);
    const events = (await get(`${V1}/events?type[]=pickup.missed`)).json().data;
    expect(events.map((e: { data: { pickup: { id: string } } }) => e.data.pickup.id)).toContain(created.id);

    const stranger = await ctx.createAccount('Nosy');
    const theirs = await get(`${PICKUPS}/${created.id}`, stranger.apiKey);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('pickup_not_found');
    expect((await get(`${PICKUPS}/${created.id}/manifest.pdf`, stranger.apiKey)).statusCode).toBe(404);
    expect((await get(PICKUPS, stranger.apiKey)).json()).toEqual({ data: [], next_cursor: null });
    expect(await listIds(ctx, stranger.apiKey, { pickup_id: created.id })).toEqual([]);
  });
});
