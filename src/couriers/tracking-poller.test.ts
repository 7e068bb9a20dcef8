import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../base/db/client.js';
import { leaseDue } from './couriers.repository.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { DELHIVERY_SURFACE, ratesWith } from '../../test/kit/couriers.js';
import { admin } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import { type DelhiverySimulator, SIM_TOKEN, startDelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';

const TRACK = '/api/v1/packages/json';

describe('tracking poller', () => {
  let sim: DelhiverySimulator;
  let first: TestContext;
  let second: TestContext;
  const awbs: string[] = [];

  beforeAll(async () => {
    sim = await startDelhiverySimulator();
    const options = {
      rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
      settings: {
        couriers: {
          delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl },
          timeoutMs: 5000,
          pollSeconds: 60,
        },
      },
    };
    first = await createTestApp(options);
    // A second API process on the same database, with a clock of its own at the same time.
    second = await createTestApp({ ...options, database: first.database });
    const { apiKey } = await first.createAccount();
    const warehouseId = await createWarehouse(first, apiKey);
    for (let i = 0; i < 101; i++)
      awbs.push(
        (await orchestrate(first, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }))).awb_code!,
      );
  }, 300_000);
  afterAll(async () => {
    await second?.app.close();
    await first?.close();
    await sim?.close();
  });

  const askedAbout = (from: number) =>
    sim
      .callsTo(TRACK)
      .slice(from)
      .map((r) => r.query.get('waybill'))
      .filter((w): w is string => w !== null)
      .map((w) => w.split(','));

  it('a lease writes no index entry: the row versions it makes go beside the old ones (HOT)', async () => {
    // Before any poll: the queue's pages hold only what the bookings wrote, each page filled to the
    // table's fillfactor. Filled to the brim (as before migration 0086), none of these was HOT.
    const later = new Date(first.clock.now().getTime() + 86_400_000);
    const Rollback = class extends Error {};
    let seen: { leased: number; hot: number } | undefined;
    await first.database.db
      .transaction(async (tx) => {
        // The backend's count includes its earlier transactions' not yet reported: a difference.
        const hotUpdates = async () =>
          (
            await queryRows<{ hot: number }>(
              tx,
              sql`select pg_stat_get_xact_tuples_hot_updated('courier_polls'::regclass)::int as hot`,
            )
          )[0]!.hot;
        const before = await hotUpdates();
        const leased = await leaseDue(tx, [DELHIVERY_SURFACE], later, 10, 60_000);
        seen = { leased: leased.length, hot: (await hotUpdates()) - before };
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    expect(seen).toEqual({ leased: 10, hot: 10 });
  });

  it('shares the due shipments between processes: each asked for once, in batches of at most 50', async () => {
    const from = sim.callsTo(TRACK).length;
    const [a, b] = await Promise.all([first.app.courierPoller.runOnce(), second.app.courierPoller.runOnce()]);
    expect(a.polled + b.polled).toBe(101);
    const batches = askedAbout(from);
    expect(batches.every((batch) => batch.length >= 1 && batch.length <= 50)).toBe(true);
    expect(batches.flat().sort()).toEqual([...awbs].sort());
    // Nothing is due again until the schedule says so (4 × 60 s for a parcel not yet picked up).
    const again = sim.callsTo(TRACK).length;
    await Promise.all([first.app.courierPoller.runOnce(), second.app.courierPoller.runOnce()]);
    expect(sim.callsTo(TRACK).length).toBe(again);
    const [row] = await queryRows<{ next: Date | string }>(
      first.database.db,
      sql`select min(next_poll_at) as next from courier_polls`,
    );
    expect(new Date(row!.next).getTime()).toBe(first.clock.now().getTime() + 240_000);
  });

  it('stops asking at a terminal status, and a crashed lease frees its rows', async () => {
    const [done, ...open] = awbs;
    sim.scan(
      done!,
      { ScanType: 'UD', Scan: 'In Transit', StatusCode: 'X-PPOM', ScanDateTime: '2026-11-20T12:01:00' },
      { ScanType: 'DL', Scan: 'Delivered', StatusCode: 'EOD-38', ScanDateTime: '2026-11-20T12:02:00' },
    );
    for (const ctx of [first, second]) ctx.clock.advance(5 * 60_000);
    const from = sim.callsTo(TRACK).length;
    await first.app.courierPoller.runOnce();
    expect(askedAbout(from).flat()).toContain(done);
    // The poll that moved it is written down as the courier's doing, once; the parcels it found
    // unchanged write nothing.
    const written = await queryRows<{ actor_name: string; action: string; changes: { awb: string } }>(
      first.database.db,
      sql`select actor_name, action, changes from audit_log where action = 'shipment.tracked'`,
    );
    expect(written).toEqual([
      {
        actor_name: `the courier service ${DELHIVERY_SURFACE}, by poll`,
        action: 'shipment.tracked',
        changes: { awb: done, scans: 2, applied: 2 },
      },
    ]);
    const [{ count }] = (await queryRows<{ count: number | string }>(
      first.database.db,
      sql`select count(*) as count from courier_polls`,
    )) as [{ count: number | string }];
    expect(Number(count)).toBe(100);

    // A process that leased rows and died: nobody takes them until the lease runs out.
    await queryRows(
      first.database.db,
      sql`update courier_polls set next_poll_at = ${new Date(first.clock.now().getTime() - 60_000).toISOString()}::timestamptz, lease_until = ${new Date(first.clock.now().getTime() + 60_000).toISOString()}::timestamptz`,
    );
    const before = sim.callsTo(TRACK).length;
    await second.app.courierPoller.runOnce();
    expect(sim.callsTo(TRACK).length).toBe(before);
    second.clock.advance(61_000);
    await second.app.courierPoller.runOnce();
    expect(askedAbout(before).flat().sort()).toEqual([...open].sort());
  });

  it('asks about a parcel one last time once 90 days have passed since its booking, then stops', async () => {
    const [, old, young] = awbs;
    const now = first.clock.now().getTime();
    const day = 24 * 60 * 60_000;
    const due = new Date(now - 60_000).toISOString();
    await queryRows(
      first.database.db,
      sql`update courier_polls set lease_until = null, next_poll_at = case when awb in (${old}, ${young}) then ${due}::timestamptz else ${new Date(now + day).toISOString()}::timestamptz end,
            booked_at = case awb when ${old} then ${new Date(now - 90 * day - 1000).toISOString()}::timestamptz
                                  when ${young} then ${new Date(now - 90 * day + 60_000).toISOString()}::timestamptz else booked_at end`,
    );
    const from = sim.callsTo(TRACK).length;
    await first.app.courierPoller.runOnce();
    expect(askedAbout(from).flat().sort()).toEqual([old, young].sort());
    const left = await queryRows<{ awb: string }>(
      first.database.db,
      sql`select awb from courier_polls where awb in (${old}, ${young})`,
    );
    expect(left).toEqual([{ awb: young }]);
    const [{ count }] = (await queryRows<{ count: number | string }>(
      first.database.db,
      sql`select count(*) as count from courier_polls`,
    )) as [{ count: number | string }];
    expect(Number(count)).toBe(99);
  });

  it('stops its timer with the app (npm run demo shows it running)', async () => {
    const poller = second.app.courierPoller;
    poller.start();
    await poller.stop();
    poller.start();
    await second.app.close();
    // close() stopped it: starting after stop is what a restart does, and stop is idempotent.
    await expect(poller.stop()).resolves.toBeUndefined();
  });

  it('drops, with a warning, the scans of a parcel whose account was deleted while its courier was asked', async () => {
    const lines: string[] = [];
    let deleting: string | undefined;
    // Delhivery, as the poller of a third process reaches it: the account goes as the call comes in.
    const courier = http.createServer(async (request, response) => {
      if (deleting !== undefined) {
        const deleted = await first.app.inject({
          method: 'DELETE',
          url: `/admin/v1/accounts/${deleting}`,
          headers: admin,
        });
        expect(deleted.statusCode).toBe(200);
        deleting = undefined;
      }
      const answer = await fetch(`${sim.baseUrl}${request.url}`, {
        headers: { authorization: request.headers.authorization! },
      });
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type')! });
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => courier.listen(0, '127.0.0.1', resolve));
    const third = await createTestApp({
      database: first.database,
      rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery' }),
      settings: {
        couriers: {
          delhivery: { token: SIM_TOKEN, baseUrl: `http://127.0.0.1:${(courier.address() as AddressInfo).port}` },
          timeoutMs: 5000,
          pollSeconds: 60,
        },
      },
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const { id, apiKey } = await first.createAccount();
      const warehouseId = await createWarehouse(first, apiKey);
      const { awb_code: awb } = await orchestrate(
        first,
        apiKey,
        orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }),
      );
      sim.scan(awb!, { ScanType: 'UD', Scan: 'In Transit', StatusCode: 'X-PPOM', ScanDateTime: '2026-11-20T12:01:00' });
      third.clock.set(first.clock.now().toISOString());
      await queryRows(
        first.database.db,
        sql`update courier_polls set next_poll_at = case when awb = ${awb} then ${new Date(first.clock.now().getTime() - 60_000).toISOString()}::timestamptz else ${new Date(first.clock.now().getTime() + 86_400_000).toISOString()}::timestamptz end`,
      );
      deleting = id;
      const from = sim.callsTo(TRACK).length;
      await third.app.courierPoller.runOnce();
      expect(askedAbout(from)).toEqual([[awb]]);
      expect(deleting).toBeUndefined();
      const warned = lines.map((line) => JSON.parse(line)).filter((line) => line.scans !== undefined);
      expect(warned).toMatchObject([
        {
          level: 40,
          carrierId: DELHIVERY_SURFACE,
          scans: 1,
          msg: 'scans of parcels deleted while their courier was asked: dropped with them',
        },
      ]);
      const kept = await queryRows(first.database.db, sql`select awb from kept_scans where awb = ${awb}`);
      expect(kept).toEqual([]);
    } finally {
      await third.app.close();
      await new Promise((resolve) => courier.close(resolve));
    }
  });
});
