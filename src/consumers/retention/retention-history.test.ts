import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { admin } from '../../../test/kit/http.js';
import { boxedOrderBody, orchestrate, orderBody } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { issueCarrierToken, sendEvents, track } from '../../../test/kit/tracking.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { shipmentColumnsOf, shipmentFinished, webhookDeliveries, webhookEndpoints } from '../../base/db/schema.js';
import { isFinished, SHIPMENT_STATUSES, SUB_STATUSES } from '../../domain/shipment/status-machine.js';
import { eventLogPruning } from './retention-events.js';

// Retention of history (issue 52): couriers' scans of parcels finished TRACKING_HISTORY_RETENTION_DAYS
// (365) ago, all but each one's last; events EVENTS_RETENTION_DAYS (90) old that every outbox
// consumer has read, but each subject's last and those a webhook delivery, e-mail or store
// write-back still names. Everything is written as the app writes it (bookings, couriers' scans,
// the outbox consumers at work), the clock moved by days; what goes is compared row for row.

const DAY = 86_400_000;
let ctx: TestContext;
let courier: string;
let m: Awaited<ReturnType<typeof merchant>>;

beforeAll(async () => {
  // Batches of 32: two parcels' scans, or a window of 32 events, so that a run takes several.
  ctx = await createTestApp({
    settings: { retention: { pruneBatchRows: 32 }, workers: { pollIntervalMs: 20 } },
    delivery: ['webhooks', 'notifications', 'messaging', 'channel-writeback'],
  });
  courier = await issueCarrierToken(ctx, SHADOWFAX);
  m = await merchant(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const prune = async () => {
  const response = await ctx.app.inject({ method: 'POST', url: '/admin/v1/retention/prune', headers: admin });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { pruned: Record<string, number>; before: Record<string, string> };
};

/** A prepaid order booked now; its AWB and shipment id. */
async function booked(): Promise<{ awb: string; id: string }> {
  const answer = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
  return { awb: answer.awb_code!, id: answer.shipment_id! };
}

/** The courier's scans from a minute after now, one a minute, in order (`picked_up`: in transit, picked up). */
async function scans(awb: string, statuses: string[]) {
  const now = ctx.clock.now().getTime();
  const results = await sendEvents(
    ctx,
    courier,
    statuses.map((status, i) => ({
      awb,
      ...(status === 'picked_up' ? { status: 'in_transit', sub_status: 'picked_up' } : { status }),
      location: `Hub ${i + 1}`,
      event_time: new Date(now + (i + 1) * 60_000).toISOString(),
    })),
  );
  for (const result of results) expect(result, JSON.stringify(result)).toMatchObject({ accepted: true });
}

const ids = async (query: ReturnType<typeof sql>) =>
  (await queryRows<{ id: string }>(ctx.database.db, query)).map((row) => row.id).sort();
const scanIds = () => ids(sql`select id from tracking_events where account_id = ${m.id}`);
const returnScanIds = () => ids(sql`select id from return_events where account_id = ${m.id}`);
const eventIds = () => ids(sql`select id from events where account_id = ${m.id}`);
/** Each subject's last event among `of`: the ones the events' pruning keeps. */
const lastOfEachSubject = () =>
  ids(
    sql`select e.id from events e where e.account_id = ${m.id}
        and e.sequence = (select max(l.sequence) from events l where l.account_id = e.account_id and l.subject_id = e.subject_id)`,
  );

/**
 * Until the outbox consumers have read the whole log: the senders' (webhooks, e-mails, messages,
 * write-backs) as they run, and the NDR rules' by a round of its own unless `ndrRules` is false.
 */
async function consumersCaughtUp({ ndrRules = true } = {}) {
  await expect
    .poll(async () => {
      if (ndrRules) await ctx.app.ndrRules.runOnce();
      const [row] = await queryRows<{ behind: number }>(
        ctx.database.db,
        sql`select count(*)::int as behind from event_consumers c,
              (select txid, position from events order by txid desc, position desc limit 1) last
            where (c.after_txid, c.after_position) < (last.txid, last.position)
              and (${ndrRules} or c.name <> 'ndr-rules')`,
      );
      return row!.behind;
    })
    .toBe(0);
}

describe('the pruning of history', () => {
  it("keeps each finished parcel's last scan after 365 days, every scan of one still moving, and each event that something needs", async () => {
    const start = ctx.clock.now().getTime();
    // Day 0: A delivered, O still out (never finishes), R a return that came back.
    const a = await booked();
    await scans(a.awb, ['picked_up', 'in_transit', 'out_for_delivery', 'delivered']);
    const open = await booked();
    await scans(open.awb, ['picked_up', 'in_transit']);
    const r = await bookReturn(ctx, m.apiKey, m.warehouseId, { carrierId: SHADOWFAX });
    await scans(r.awb_code!, ['return_picked_up', 'return_in_transit', 'return_delivered']);
    // B is delivered on day 2: still inside its period when A's ends.
    const b = await booked();
    await scans(b.awb, ['picked_up', 'in_transit']);
    await consumersCaughtUp();

    // A pending delivery to a failing endpoint names A's first event: it stays while the delivery does.
    const [firstOfA] = await queryRows<{ id: string }>(
      ctx.database.db,
      sql`select id from events where account_id = ${m.id} and subject_id = ${a.id} order by sequence limit 1`,
    );
    const [endpoint] = await ctx.database.db
      .insert(webhookEndpoints)
      .values({
        accountId: m.id,
        url: 'https://hooks.acme.example/dakiya',
        events: ['*'],
        // Disabled: the deliveries the fan-out would make would hold every event after.
        status: 'disabled',
        secret: 'whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0',
        createdAt: ctx.clock.now(),
        updatedAt: ctx.clock.now(),
      })
      .returning();
    await ctx.database.db.insert(webhookDeliveries).values({
      accountId: m.id,
      endpointId: endpoint!.id,
      eventId: firstOfA!.id,
      status: 'pending',
      createdAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
      nextAttemptAt: new Date(start + 3650 * DAY),
    });

    // L: booked once the NDR rules' consumer has read the log, and read by every consumer but that one
    // (its rounds are the test's to run) until day 91.
    const [ndrPlace] = await queryRows<{ txid: string; position: number }>(
      ctx.database.db,
      sql`select after_txid::text as txid, after_position as position from event_consumers where name = 'ndr-rules'`,
    );
    const late = await booked();
    await scans(late.awb, ['picked_up', 'in_transit']);

    ctx.clock.advance(2 * DAY);
    await scans(b.awb, ['out_for_delivery', 'delivered']);
    await consumersCaughtUp({ ndrRules: false });
    const unreadByOne = await ids(
      sql`select id from events where account_id = ${m.id}
          and (txid, position) > (${ndrPlace!.txid}::xid8, ${ndrPlace!.position}::bigint)`,
    );
    const lateEvents = await ids(sql`select id from events where subject_id = ${late.id}`);
    expect(lateEvents.every((id) => unreadByOne.includes(id))).toBe(true);
    const allScans = await scanIds();
    const allReturnScans = await returnScanIds();
    // 4 of A, 2 of O, 4 of B, 2 of L; the return's 3.
    expect(allScans).toHaveLength(12);
    expect(allReturnScans).toHaveLength(3);

    // Day 89: nothing is old enough.
    ctx.clock.advance(87 * DAY);
    const before = await eventIds();
    const early = await prune();
    expect(early.pruned).toMatchObject({ tracking_events: 0, return_events: 0, events: 0 });
    expect(await eventIds()).toEqual(before);

    // Day 91: every event of day 0 goes, but each subject's last, the ones the pending delivery and
    // the customer e-mails name (written on the senders' real clock: inside their own 90 days), and
    // those the NDR rules have not read (L's among them). B's delivery, on day 2, is inside the period.
    ctx.clock.advance(2 * DAY);
    const cutoff = new Date(ctx.clock.now().getTime() - 90 * DAY);
    const young = await ids(
      sql`select id from events where account_id = ${m.id} and created_at >= ${cutoff.toISOString()}::timestamptz`,
    );
    expect(young.length).toBeGreaterThan(0);
    const namedByEmails = await ids(sql`select distinct event_id as id from notifications where account_id = ${m.id}`);
    expect(namedByEmails.length).toBeGreaterThan(0);
    const needed = [...(await lastOfEachSubject()), firstOfA!.id, ...young, ...namedByEmails];
    const kept = [...new Set([...needed, ...unreadByOne])].sort();
    const day91 = await prune();
    expect(day91.pruned.events).toBe(before.length - kept.length);
    expect(await eventIds()).toEqual(kept);
    expect(day91.before.events).toBe(cutoff.toISOString());
    // Once the NDR rules have read them, L's old events go too, but its last.
    await consumersCaughtUp();
    const caughtUp = await prune();
    const keptNow = [...new Set(needed)].sort();
    expect(caughtUp.pruned.events).toBe(kept.length - keptNow.length);
    expect(await eventIds()).toEqual(keptNow);
    const lastOfL = await ids(sql`select id from events where subject_id = ${late.id} order by sequence desc limit 1`);
    expect(await ids(sql`select id from events where subject_id = ${late.id}`)).toEqual(
      [...new Set([...lastOfL, ...lateEvents.filter((id) => namedByEmails.includes(id))])].sort(),
    );
    expect(lateEvents.length).toBeGreaterThan(2);
    // The scans are the parcels' history for a year yet.
    expect(day91.pruned).toMatchObject({ tracking_events: 0, return_events: 0 });
    expect(await scanIds()).toEqual(allScans);

    // A new event of a pruned subject follows its last: sequences never restart.
    const [lastOfO] = await queryRows<{ sequence: number }>(
      ctx.database.db,
      sql`select max(sequence)::int as sequence from events where subject_id = ${open.id}`,
    );
    await scans(open.awb, ['out_for_delivery']);
    const sequences = await queryRows<{ sequence: number }>(
      ctx.database.db,
      sql`select sequence from events where subject_id = ${open.id} order by sequence`,
    );
    const after = sequences.map((row) => row.sequence).filter((sequence) => sequence > lastOfO!.sequence);
    expect(after.length).toBeGreaterThan(0);
    expect(after).toEqual(after.map((_, i) => lastOfO!.sequence + 1 + i));
    await consumersCaughtUp();

    // Day 366: A's and the return's scans go but their last; B (finished on day 2) and O keep all.
    ctx.clock.advance(275 * DAY);
    const lastScanOfA = await ids(
      sql`select id from tracking_events where shipment_id = ${a.id} order by event_time desc limit 1`,
    );
    const othersScans = await ids(
      sql`select id from tracking_events where account_id = ${m.id} and shipment_id <> ${a.id}`,
    );
    const lastScanOfR = await ids(
      sql`select id from return_events where return_id = ${r.return_id} and status = 'return_delivered'`,
    );
    const day366 = await prune();
    expect(day366.pruned).toMatchObject({ tracking_events: 3, return_events: 2 });
    expect(day366.before.tracking_events).toBe(new Date(ctx.clock.now().getTime() - 365 * DAY).toISOString());
    const aScans = await ids(sql`select id from tracking_events where shipment_id = ${a.id}`);
    expect(aScans).toEqual(lastScanOfA);
    expect(await returnScanIds()).toEqual(lastScanOfR);
    expect(othersScans).toHaveLength(9);
    expect(await scanIds()).toEqual([...othersScans, ...lastScanOfA].sort());
    const stamped = await queryRows<{ id: string; status: string }>(
      ctx.database.db,
      sql`select id, status from shipments where account_id = ${m.id} and history_pruned_at is not null`,
    );
    expect(stamped).toEqual([{ id: a.id, status: 'delivered' }]);
    // Its history is its last scan; its status and times are what the scans told.
    const tracked = await track(ctx, m.apiKey, a.awb);
    expect(tracked.shipment_status).toBe('delivered');
    expect(tracked.shipment_track_activities?.map((row) => row.status)).toEqual(['delivered']);

    // A run after takes nothing again; two days on, B goes the same way.
    expect((await prune()).pruned).toMatchObject({ tracking_events: 0, return_events: 0 });
    ctx.clock.advance(2 * DAY);
    expect((await prune()).pruned).toMatchObject({ tracking_events: 3, return_events: 0 });
    expect(await ids(sql`select status as id from tracking_events where shipment_id = ${b.id}`)).toEqual(['delivered']);
    expect(await ids(sql`select status as id from tracking_events where shipment_id = ${open.id}`)).toEqual([
      'in_transit',
      'in_transit',
      'out_for_delivery',
    ]);
  });
});

describe('the pruning of a multi-piece shipment, and a scan after pruning', () => {
  it("keeps each box's last scan, and a late scan of a pruned parcel leaves it where its scans took it", async () => {
    const mps = await orchestrate(ctx, m.apiKey, boxedOrderBody(m.warehouseId, { carrier_id: SHADOWFAX }));
    const awbs = (mps as typeof mps & { boxes: { awb: string }[] }).boxes.map((box) => box.awb);
    expect(awbs).toHaveLength(2);
    for (const awb of awbs) await scans(awb, ['picked_up', 'in_transit', 'out_for_delivery', 'delivered']);
    const one = await booked();
    await scans(one.awb, ['picked_up', 'in_transit', 'delivered']);
    const status = async (id: string) =>
      (await queryRows<{ status: string }>(ctx.database.db, sql`select status from shipments where id = ${id}`))[0]!
        .status;
    expect(await status(mps.shipment_id!)).toBe('delivered');
    const lastOfEachBox = await queryRows<{ box_no: number; status: string }>(
      ctx.database.db,
      sql`select distinct on (box_no) box_no, status from tracking_events where shipment_id = ${mps.shipment_id}
          order by box_no, event_time desc`,
    );

    ctx.clock.advance(366 * DAY);
    const pruned = await prune();
    // 3 of each box's 4, and 2 of the one-box parcel's 3: the first test's parcels are pruned or still moving.
    expect(pruned.pruned.tracking_events).toBe(8);
    const kept = await queryRows<{ box_no: number; status: string }>(
      ctx.database.db,
      sql`select box_no, status from tracking_events where shipment_id = ${mps.shipment_id} order by box_no`,
    );
    expect(kept).toEqual(lastOfEachBox);
    expect(kept.map((row) => row.status)).toEqual(['delivered', 'delivered']);

    // The courier sends again a scan from before the delivery: each parcel stays delivered.
    const stale = new Date(ctx.clock.now().getTime() - 366 * DAY).toISOString();
    for (const awb of [one.awb, awbs[1]!]) {
      const [result] = await sendEvents(ctx, courier, [
        { awb, status: 'in_transit', location: 'Hub 2', event_time: stale },
      ]);
      expect(result).toMatchObject({ awb, accepted: true, changed: false });
    }
    expect(await status(one.id)).toBe('delivered');
    expect(await status(mps.shipment_id!)).toBe('delivered');
    // Kept with why, not dropped.
    const keptScans = await queryRows<{ awb: string; reason_code: string }>(
      ctx.database.db,
      sql`select awb, reason_code from kept_scans where account_id = ${m.id} and awb in (${one.awb}, ${awbs[1]!}) order by awb`,
    );
    expect(keptScans).toEqual([one.awb, awbs[1]!].sort().map((awb) => ({ awb, reason_code: 'not_applied' })));
  });
});

describe('the pruning of lost parcels', () => {
  it('counts a lost, damaged or destroyed parcel as finished, a held one not; the SQL and the domain agree on every status', async () => {
    const lost = await booked();
    const damaged = await booked();
    const held = await booked();
    const now = ctx.clock.now().getTime();
    for (const [parcel, sub_status] of [
      [lost, 'lost'],
      [damaged, 'damaged'],
      [held, 'on_hold'],
    ] as const) {
      await scans(parcel.awb, ['picked_up', 'in_transit']);
      const [result] = await sendEvents(ctx, courier, [
        {
          awb: parcel.awb,
          status: 'others',
          sub_status,
          location: 'Hub 3',
          event_time: new Date(now + 3 * 60_000).toISOString(),
        },
      ]);
      expect(result, JSON.stringify(result)).toMatchObject({ accepted: true });
    }
    expect(
      await queryRows(
        ctx.database.db,
        sql`select status, sub_status from shipments where id in (${lost.id}, ${damaged.id}, ${held.id}) order by sub_status`,
      ),
    ).toEqual([
      { status: 'others', sub_status: 'damaged' },
      { status: 'others', sub_status: 'lost' },
      { status: 'others', sub_status: 'on_hold' },
    ]);

    ctx.clock.advance(364 * DAY);
    expect((await prune()).pruned.tracking_events).toBe(0);
    ctx.clock.advance(2 * DAY);
    expect((await prune()).pruned.tracking_events).toBe(4);
    const left = async (id: string) =>
      ids(sql`select coalesce(sub_status, status) as id from tracking_events where shipment_id = ${id}`);
    expect(await left(lost.id)).toEqual(['lost']);
    expect(await left(damaged.id)).toEqual(['damaged']);
    expect(await left(held.id)).toEqual(['in_transit', 'on_hold', 'picked_up']);

    // Every status with each of its sub-statuses (and none): the pick's predicate is isFinished.
    const pairs = SHIPMENT_STATUSES.flatMap((status) =>
      [...SUB_STATUSES[status], null].map((subStatus) => ({ status, subStatus })),
    );
    const values = sql.join(
      pairs.map(({ status, subStatus }, i) => sql`(${i}::int, ${status}::text, ${subStatus}::text)`),
      sql`, `,
    );
    const finished = await queryRows<{ i: number; finished: boolean }>(
      ctx.database.db,
      sql`select i, ${shipmentFinished(shipmentColumnsOf('p'))} as finished from (values ${values}) p(i, status, sub_status) order by i`,
    );
    expect(finished.map((row) => row.finished)).toEqual(pairs.map((p) => isFinished(p.status, p.subStatus)));
    expect(pairs.filter((p) => isFinished(p.status, p.subStatus) && p.status === 'others')).toEqual([
      { status: 'others', subStatus: 'lost' },
      { status: 'others', subStatus: 'damaged' },
      { status: 'others', subStatus: 'destroyed' },
    ]);
  });
});

describe("the events' pruning from where the last run left off", () => {
  it('walks only what the last run did not pass, and still takes a passed event once its subject has a newer one', async () => {
    const other = await merchant(ctx);
    const parcels = [];
    for (let i = 0; i < 20; i++) {
      const answer = await orchestrate(ctx, other.apiKey, orderBody(other.warehouseId));
      parcels.push({ awb: answer.awb_code!, id: answer.shipment_id! });
    }
    await consumersCaughtUp();
    // What names an event goes by its own period, before the events: here, gone already.
    await ctx.database.db.execute(sql`delete from webhook_attempts`);
    for (const table of ['webhook_deliveries', 'notifications', 'channel_writebacks'])
      await ctx.database.db.execute(sql`delete from ${sql.identifier(table)}`);
    const pruning = eventLogPruning(() => ctx.clock.now().getTime());
    const run = async () => {
      const cutoff = new Date(ctx.clock.now().getTime() + DAY);
      let statements = 0;
      let events = 0;
      for await (const batch of pruning(ctx.database.db, { cutoff }, 16)) {
        statements += 1;
        events += batch.events;
      }
      return { statements, events };
    };
    const eventsOf = () => ids(sql`select id from events where account_id = ${other.id}`);
    const lastOfOther = () =>
      ids(
        sql`select e.id from events e where e.account_id = ${other.id}
            and e.sequence = (select max(l.sequence) from events l where l.account_id = e.account_id and l.subject_id = e.subject_id)`,
      );

    // The first run walks the whole log: every event but each subject's last goes.
    const first = await run();
    expect(first.events).toBeGreaterThanOrEqual(20);
    expect(await eventsOf()).toEqual(await lastOfOther());
    const kept = await eventsOf();

    // The next starts where the first's run of kept events ended: one statement for the newer
    // events (none), one for the log after that place.
    expect(await run()).toEqual({ statements: 2, events: 0 });
    expect(first.statements).toBeGreaterThan(4);

    // A scan gives the first parcel newer events: its kept one, before that place, goes now.
    await scans(parcels[0]!.awb, ['picked_up']);
    await consumersCaughtUp();
    const before = await lastOfOther();
    const second = await run();
    expect(second.events).toBeGreaterThanOrEqual(1);
    const after = await eventsOf();
    expect(after).toEqual(await lastOfOther());
    expect(kept.filter((id) => !after.includes(id))).toHaveLength(1);
    expect(before).toEqual(after);
    expect(second.statements).toBeLessThan(first.statements);
  });
});
