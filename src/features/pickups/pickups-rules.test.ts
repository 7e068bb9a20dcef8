import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { book } from '../../../test/kit/orders.js';
import type { CarrierEvent } from '../../../test/kit/tracking.js';
import { type UseCaseContext, useCaseContext, scanIntakeDeps } from '../../../test/kit/use-cases.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import type { PickupRequest } from '../../couriers/connector.js';
import { createTrackingService, type TrackingService } from '../tracking/tracking.service.js';
import { createPickupsService, type PickupsService } from './pickups.service.js';

// The pickups service's rules as functions over a seeded database (both engines): which day a pickup
// may be asked for (India time), which parcels may go on it and why one may not, that the courier is
// asked before anything is written, and the missed-pickup check. The routes' contract is pickups.once.test.ts's.

/** The courier port, recorded: what each pickup asks of it, and an answer or a failure. */
const asked: { accountId: string; carrierId: string; pickup: PickupRequest }[] = [];
let courierFails = false;
const couriers = {
  async schedulePickup(accountId: string, service: { id: string }, pickup: PickupRequest) {
    if (courierFails) throw new Error('courier down');
    asked.push({ accountId, carrierId: service.id, pickup });
    return `REF-${asked.length}`;
  },
};

let ctx: UseCaseContext;
let pickups: PickupsService;
let tracking: TrackingService;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As pickups.register.ts builds it, the couriers' port recorded above.
  pickups = createPickupsService({
    db: ctx.db,
    clock: ctx.clock,
    catalogue: ctx.rates.catalogue,
    couriers,
    events: ctx.events,
    publicBaseUrl: ctx.settings.server.publicBaseUrl,
  });
  tracking = createTrackingService(scanIntakeDeps(ctx));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  courierFails = false;
  // Friday 20 November 2026, 15:30 India time.
  ctx.clock.set('2026-11-20T10:00:00.000Z');
});

let warehouses = 0;
/** A new account with a warehouse, and `n` parcels booked from it with `carrierId`. */
async function merchant(n = 2, carrierId = SHADOWFAX) {
  const account = await ctx.createAccount();
  const warehouseName = `Hub ${++warehouses}`;
  const warehouseId = await createWarehouse(ctx, account.apiKey, { name: warehouseName });
  const awbs: string[] = [];
  for (let i = 0; i < n; i++) awbs.push((await book(ctx, account.apiKey, warehouseId, { carrierId })).awb_code!);
  return { ...account, accountId: account.id, warehouseId, warehouseName, awbs };
}

async function pickupOf(awb: string) {
  const [row] = await queryRows<{ pickup_id: string | null }>(
    ctx.db,
    sql`select pickup_id from shipments where awb = ${awb}`,
  );
  return row!.pickup_id;
}

async function pickupCount(accountId: string) {
  const [row] = await queryRows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from pickups where account_id = ${accountId}`,
  );
  return Number(row!.n);
}

async function pickupEvents(pickupId: string) {
  return queryRows<{ type: string; created_at: Date; data: { pickup: unknown } }>(
    ctx.db,
    sql`select type, created_at, data from events where subject_id = ${pickupId} order by sequence`,
  );
}

const picked = (awb: string): CarrierEvent => ({
  awb,
  status: 'in_transit',
  sub_status: 'picked_up',
  event_time: '2026-11-20T09:50:00.000Z',
});

describe('create', () => {
  it('takes every waiting parcel of the warehouse and courier, asks the courier, then writes the pickup, its parcels and its event', async () => {
    const m = await merchant(2);
    // Not on it: a parcel of another courier, and one already picked up.
    const delhivery = (await book(ctx, m.apiKey, m.warehouseId, { carrierId: DELHIVERY_SURFACE })).awb_code!;
    const gone = (await book(ctx, m.apiKey, m.warehouseId)).awb_code!;
    expect(await tracking.ingest(SHADOWFAX, [picked(gone)])).toEqual([{ awb: gone, accepted: true }]);
    const before = asked.length;

    const answer = await pickups.create(asAccount(m.accountId), { warehouse_id: m.warehouseId, carrier_id: SHADOWFAX });

    expect(asked.slice(before)).toEqual([
      {
        accountId: m.accountId,
        carrierId: SHADOWFAX,
        pickup: { locationName: m.warehouseName, date: '2026-11-20', parcels: 2, awbs: m.awbs },
      },
    ]);
    expect(answer).toMatchObject({
      status: 'scheduled',
      warehouse_id: m.warehouseId,
      carrier_id: SHADOWFAX,
      pickup_date: '2026-11-20',
      courier_reference: `REF-${before + 1}`,
      parcels: 2,
      created_at: '2026-11-20T10:00:00.000Z',
      missed_at: null,
      missed_awbs: [],
    });
    expect(answer.shipments.map((s) => [s.awb, s.status, s.picked_up])).toEqual(
      m.awbs.map((awb) => [awb, 'pending', false]),
    );
    expect(await Promise.all([...m.awbs, delhivery, gone].map(pickupOf))).toEqual([answer.id, answer.id, null, null]);
    const events = await pickupEvents(answer.id);
    expect(events.map((e) => [e.type, new Date(e.created_at).toISOString(), e.data])).toEqual([
      ['pickup.created', '2026-11-20T10:00:00.000Z', { pickup: answer }],
    ]);
    // Asked again, nothing of that warehouse and courier waits.
    await expect(
      pickups.create(asAccount(m.accountId), { warehouse_id: m.warehouseId, carrier_id: SHADOWFAX }),
    ).rejects.toMatchObject({
      code: 'no_parcel_waiting',
      kind: 'unprocessable',
      messages: [`No parcel of this warehouse booked with ${SHADOWFAX} is waiting for a pickup`],
      details: [
        { field: 'awbs', message: `No parcel of this warehouse booked with ${SHADOWFAX} is waiting for a pickup` },
      ],
    });
    expect(asked.length).toBe(before + 1);
  });

  const DAYS = 'pickup_date must be from today (2026-11-20) to 2026-11-27, India time';
  it.each([
    ['left out: today', '2026-11-20T10:00:00.000Z', undefined, '2026-11-20'],
    ['today', '2026-11-20T10:00:00.000Z', '2026-11-20', '2026-11-20'],
    ['7 days ahead', '2026-11-20T10:00:00.000Z', '2026-11-27', '2026-11-27'],
    ['8 days ahead', '2026-11-20T10:00:00.000Z', '2026-11-28', DAYS],
    ['yesterday', '2026-11-20T10:00:00.000Z', '2026-11-19', DAYS],
    ['not a calendar day', '2026-11-20T10:00:00.000Z', '2026-11-31', DAYS],
    ['a Sunday (couriers decide their days)', '2026-11-20T10:00:00.000Z', '2026-11-22', '2026-11-22'],
    [
      "the UTC day, when India's has turned (00:30 on the 21st)",
      '2026-11-20T19:00:00.000Z',
      '2026-11-20',
      'pickup_date must be from today (2026-11-21) to 2026-11-28, India time',
    ],
    ['left out, after India midnight: India’s day', '2026-11-20T19:00:00.000Z', undefined, '2026-11-21'],
  ])('pickup_date %s', async (_name, now, pickupDate, expected) => {
    const m = await merchant(1);
    ctx.clock.set(now);
    const input = {
      warehouse_id: m.warehouseId,
      carrier_id: SHADOWFAX,
      ...(pickupDate !== undefined && { pickup_date: pickupDate }),
    };
    if (expected.startsWith('pickup_date')) {
      const before = asked.length;
      await expect(pickups.create(asAccount(m.accountId), input)).rejects.toMatchObject({
        code: 'pickup_request_invalid',
        kind: 'unprocessable',
        messages: [expected],
        details: [{ field: 'pickup_date', message: expected }],
      });
      expect([asked.length, await pickupCount(m.accountId), await pickupOf(m.awbs[0]!)]).toEqual([before, 0, null]);
    } else {
      expect((await pickups.create(asAccount(m.accountId), input)).pickup_date).toBe(expected);
    }
  });

  it("names an unknown warehouse (or another account's), an unknown courier and a bad date together", async () => {
    const m = await merchant(1);
    const other = await merchant(0);
    const problems = [
      { field: 'warehouse_id', message: 'warehouse_id names no warehouse of this account' },
      { field: 'carrier_id', message: 'carrier_id CARNOPE is not a courier service of this server' },
      { field: 'pickup_date', message: DAYS },
    ];
    await expect(
      pickups.create(asAccount(other.accountId), {
        warehouse_id: m.warehouseId,
        carrier_id: 'CARNOPE',
        pickup_date: '2026-12-25',
      }),
    ).rejects.toMatchObject({
      code: 'pickup_request_invalid',
      messages: problems.map((p) => p.message),
      details: problems,
    });
  });

  it('names every AWB that cannot go, with its index and why, and writes nothing', async () => {
    const m = await merchant(2);
    const [onPickup, free] = m.awbs as [string, string];
    const first = await pickups.create(asAccount(m.accountId), {
      warehouse_id: m.warehouseId,
      carrier_id: SHADOWFAX,
      awbs: [onPickup],
    });
    const otherHub = await createWarehouse(ctx, m.apiKey, { name: `Hub ${++warehouses}` });
    const elsewhere = (await book(ctx, m.apiKey, otherHub)).awb_code!;
    const delhivery = (await book(ctx, m.apiKey, m.warehouseId, { carrierId: DELHIVERY_SURFACE })).awb_code!;
    const moving = (await book(ctx, m.apiKey, m.warehouseId)).awb_code!;
    await tracking.ingest(SHADOWFAX, [picked(moving)]);
    const foreign = (await merchant(1)).awbs[0]!;
    const before = asked.length;
    const problems = [
      { field: 'awbs[0]', message: `AWB ${onPickup} is on pickup ${first.id} already` },
      { field: 'awbs[1]', message: `AWB ${elsewhere} ships from another warehouse` },
      { field: 'awbs[2]', message: `AWB ${delhivery} is booked with another courier (${DELHIVERY_SURFACE})` },
      { field: 'awbs[3]', message: `AWB ${moving} is in_transit: only parcels not yet picked up go on a pickup` },
      { field: 'awbs[4]', message: `AWB ${foreign} not found` },
    ];
    await expect(
      pickups.create(asAccount(m.accountId), {
        warehouse_id: m.warehouseId,
        carrier_id: SHADOWFAX,
        awbs: [onPickup, elsewhere, delhivery, moving, foreign, free, onPickup],
      }),
    ).rejects.toMatchObject({
      code: 'pickup_parcels_refused',
      kind: 'unprocessable',
      messages: problems.map((p) => p.message),
      details: problems,
    });
    expect([asked.length, await pickupCount(m.accountId), await pickupOf(free)]).toEqual([before, 1, null]);
  });

  it('takes an AWB named twice once', async () => {
    const m = await merchant(2);
    const answer = await pickups.create(asAccount(m.accountId), {
      warehouse_id: m.warehouseId,
      carrier_id: SHADOWFAX,
      awbs: [m.awbs[1]!, m.awbs[1]!],
    });
    expect([answer.parcels, answer.shipments.map((s) => s.awb)]).toEqual([1, [m.awbs[1]]]);
    expect(asked.at(-1)!.pickup).toMatchObject({ parcels: 1, awbs: [m.awbs[1]] });
  });

  it('writes nothing when the courier fails, and takes the same parcels when asked again', async () => {
    const m = await merchant(2);
    courierFails = true;
    await expect(
      pickups.create(asAccount(m.accountId), { warehouse_id: m.warehouseId, carrier_id: SHADOWFAX }),
    ).rejects.toThrow('courier down');
    expect([await pickupCount(m.accountId), ...(await Promise.all(m.awbs.map(pickupOf)))]).toEqual([0, null, null]);
    courierFails = false;
    const answer = await pickups.create(asAccount(m.accountId), { warehouse_id: m.warehouseId, carrier_id: SHADOWFAX });
    expect(answer.shipments.map((s) => s.awb)).toEqual(m.awbs);
  });
});

describe('reading', () => {
  it("answers an unknown pickup and another account's alike, and a cursor it did not give", async () => {
    const m = await merchant(1);
    const { id } = await pickups.create(asAccount(m.accountId), { warehouse_id: m.warehouseId, carrier_id: SHADOWFAX });
    const other = await merchant(0);
    const notFound = { code: 'pickup_not_found', kind: 'not_found', messages: ['Pickup not found'] };
    await expect(pickups.get(other.accountId, id)).rejects.toMatchObject(notFound);
    await expect(pickups.manifest(other.accountId, id)).rejects.toMatchObject(notFound);
    await expect(pickups.get(m.accountId, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject(notFound);
    await expect(pickups.list(m.accountId, { cursor: 'not-a-cursor' })).rejects.toMatchObject({
      kind: 'unprocessable',
      messages: ['cursor is not one this API gave'],
    });
    expect((await pickups.list(other.accountId, {})).data).toEqual([]);
  });

  it('pages newest first', async () => {
    const m = await merchant(0);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ctx.clock.set(`2026-11-20T10:0${i}:00.000Z`);
      await book(ctx, m.apiKey, m.warehouseId);
      ids.push(
        (await pickups.create(asAccount(m.accountId), { warehouse_id: m.warehouseId, carrier_id: SHADOWFAX })).id,
      );
    }
    const first = await pickups.list(m.accountId, { limit: '2' });
    expect(first.data.map((p) => p.id)).toEqual([ids[2], ids[1]]);
    const second = await pickups.list(m.accountId, { limit: '2', cursor: first.next_cursor! });
    expect([second.data.map((p) => p.id), second.next_cursor]).toEqual([[ids[0]], null]);
  });
});

describe('checkMissed', () => {
  it('flags, once, a pickup whose India day ended with a parcel waiting; one whose parcels were all picked up is not', async () => {
    const m = await merchant(3);
    const [a, b, c] = m.awbs as [string, string, string];
    const waiting = await pickups.create(asAccount(m.accountId), {
      warehouse_id: m.warehouseId,
      carrier_id: SHADOWFAX,
      awbs: [a, b],
    });
    const done = await pickups.create(asAccount(m.accountId), {
      warehouse_id: m.warehouseId,
      carrier_id: SHADOWFAX,
      awbs: [c],
    });
    await tracking.ingest(SHADOWFAX, [picked(a), picked(c)]);
    expect((await pickups.get(m.accountId, done.id)).status).toBe('picked_up');

    // 23:59 India time on the 20th: the day has not ended.
    ctx.clock.set('2026-11-20T18:29:59.000Z');
    await pickups.checkMissed();
    expect((await pickups.get(m.accountId, waiting.id)).status).toBe('scheduled');

    ctx.clock.set('2026-11-20T18:30:00.000Z');
    expect(await pickups.checkMissed()).toBeGreaterThanOrEqual(1);
    const missed = await pickups.get(m.accountId, waiting.id);
    expect(missed).toMatchObject({ status: 'missed', missed_at: '2026-11-20T18:30:00.000Z', missed_awbs: [b] });
    expect((await pickups.get(m.accountId, done.id)).status).toBe('picked_up');
    expect((await pickupEvents(waiting.id)).map((e) => [e.type, e.data])).toEqual([
      ['pickup.created', { pickup: waiting }],
      ['pickup.missed', { pickup: missed }],
    ]);
    expect((await pickupEvents(done.id)).map((e) => e.type)).toEqual(['pickup.created']);

    // A later check (other tests' pickups of the 21st may be flagged by it) leaves this one as it was.
    ctx.clock.set('2026-11-21T18:30:00.000Z');
    await pickups.checkMissed();
    expect(await pickups.get(m.accountId, waiting.id)).toEqual(missed);
    expect((await pickupEvents(waiting.id)).length).toBe(2);
  });
});
