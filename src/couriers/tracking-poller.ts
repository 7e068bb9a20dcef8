import { and, asc, eq, gte, inArray } from 'drizzle-orm';
import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import { isDatabaseUnavailable } from '../base/db/errors.js';
import { returns, shipmentBoxes, shipments } from '../base/db/schema.js';
import { RETURN_TERMINAL_STATUSES, type ReturnStatus } from '../domain/shipment/return-status-machine.js';
import { TERMINAL_STATUSES, type ShipmentStatus } from '../domain/shipment/status-machine.js';
import type { Couriers } from './couriers.service.js';
import { CourierCallError } from './courier-http.js';
import * as repo from './couriers.repository.js';
import { nextPollDelayMs, pollingEnded } from './poll-schedule.js';
import type { ParcelScans } from './carrier-event.js';
import type { Connector, PolledParcel } from './connector.js';

/** Parcels handed to the intake in one call (each commits apart from the others). */
const INTAKE_BATCH = 50;
/** Rows one process leases per round. */
const LEASE_LIMIT = 500;

interface Logger {
  warn(object: object, message: string): void;
}

export interface PollerDeps {
  db: Db;
  clock: Clock;
  couriers: Couriers;
  /**
   * The tracking intake (tracking.service's ingestPulled): pulled scans are applied exactly as
   * pushed ones, and what cannot be applied (or read) is kept with the reason; `gone`: the scans of
   * parcels that went while their courier was asked (their account deleted), dropped with them.
   */
  ingest(carrierId: string, scans: ReadonlyMap<string, ParcelScans>): Promise<{ gone: number }>;
  pollSeconds: number;
  /** How long a leased row stays with this process while its courier is asked. */
  leaseMs?: number;
  log?: Logger;
}

/**
 * Asks pull couriers for the scans of open shipments, and hands out NDR instructions, on a timer.
 * Rows are leased (couriers.repository's leaseDue), so any number of processes can run it.
 */
export function createTrackingPoller({ db, clock, couriers, ingest, pollSeconds, leaseMs = 120_000, log }: PollerDeps) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  const services = new Map(couriers.pulledServices.map((service) => [service.id, service]));
  // The timer looks at least as often as the fastest beat a courier is asked at.
  const tickSeconds = Math.min(
    pollSeconds,
    30,
    ...couriers.pulledServices.map((s) => couriers.connectorOf(s).pollEverySeconds ?? 30),
  );

  /** Each leased parcel's status now: a shipment's or a return's, whichever the row is. */
  async function statuses(rows: repo.PollRow[]) {
    const byAccount = new Map<string, repo.PollRow[]>();
    for (const row of rows) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
    const found = new Map<string, { status: string; terminal: boolean }>();
    for (const [accountId, own] of byAccount) {
      const ids = (journey: string) => own.filter((row) => row.journey === journey).map((row) => row.subjectId);
      const forward = ids('forward');
      const back = ids('return');
      const list = [
        ...(forward.length === 0
          ? []
          : await db
              .select({ id: shipments.id, status: shipments.status })
              .from(shipments)
              .where(and(eq(shipments.accountId, accountId), inArray(shipments.id, forward)))),
        ...(back.length === 0
          ? []
          : (
              await db
                .select({ id: returns.id, status: returns.status })
                .from(returns)
                .where(and(eq(returns.accountId, accountId), inArray(returns.id, back)))
            ).map((row) => ({ ...row, returned: true }))),
      ];
      for (const row of list) {
        const terminal =
          'returned' in row
            ? RETURN_TERMINAL_STATUSES.has(row.status as ReturnStatus)
            : TERMINAL_STATUSES.has(row.status as ShipmentStatus);
        found.set(row.id, { status: row.status, terminal });
      }
    }
    return found;
  }

  /**
   * The waybills a batch asks about: each row's, and after a multi-piece shipment's (its master
   * AWB) the AWBs of its other boxes, whose scans are their own (courier_polls keeps one row per
   * shipment, so its schedule stays the shipment's).
   */
  async function waybillsOf(rows: repo.PollRow[]): Promise<PolledParcel[]> {
    const forward = rows.filter((row) => row.journey === 'forward').map((row) => row.subjectId);
    const boxes =
      forward.length === 0
        ? []
        : await db
            .select({ shipmentId: shipmentBoxes.shipmentId, awb: shipmentBoxes.awb })
            .from(shipmentBoxes)
            .where(and(inArray(shipmentBoxes.shipmentId, forward), gte(shipmentBoxes.boxNo, 2)))
            .orderBy(asc(shipmentBoxes.shipmentId), asc(shipmentBoxes.boxNo));
    return rows.flatMap((row) => [
      { awb: row.awb, journey: row.journey },
      ...(row.journey === 'forward'
        ? boxes.filter((box) => box.shipmentId === row.subjectId).map((box) => ({ awb: box.awb, journey: row.journey }))
        : []),
    ]);
  }

  /** A batch asks each connector for its own parcels: accounts with courier credentials of their own have theirs. */
  async function pollBatch(carrierId: string, rows: repo.PollRow[]) {
    const service = services.get(carrierId)!;
    const byConnector = new Map<Connector, repo.PollRow[]>();
    for (const row of rows) {
      let connector: Connector;
      try {
        connector = await couriers.connectorFor(row.accountId, service);
      } catch (error) {
        // An account's credentials that cannot be read (sealed under another key): its parcels wait
        // for their lease to run out and are asked again, never with another account's credentials.
        if (isDatabaseUnavailable(error)) throw error;
        log?.warn({ carrierId, accountId: row.accountId, reason: (error as Error).message }, 'tracking pull skipped');
        continue;
      }
      byConnector.set(connector, [...(byConnector.get(connector) ?? []), row]);
    }
    let events = 0;
    for (const [connector, own] of byConnector) events += await pollWith(connector, carrierId, own);
    return events;
  }

  async function pollWith(connector: Connector, carrierId: string, rows: repo.PollRow[]) {
    const service = services.get(carrierId)!;
    const now = clock.now();
    const pulled = new Map<string, ParcelScans>();
    const waybills = await waybillsOf(rows);
    try {
      // A batch's boxes may take it past the courier's size: asked in as many calls as they need.
      const size = connector.batchSize > 0 ? connector.batchSize : waybills.length;
      for (let i = 0; i < waybills.length; i += size)
        for (const [awb, scans] of await connector.pull(service, waybills.slice(i, i + size))) pulled.set(awb, scans);
      const parcels = [...pulled];
      let gone = 0;
      for (let i = 0; i < parcels.length; i += INTAKE_BATCH)
        gone += (await ingest(carrierId, new Map(parcels.slice(i, i + INTAKE_BATCH)))).gone;
      if (gone > 0)
        log?.warn(
          { carrierId, scans: gone },
          'scans of parcels deleted while their courier was asked: dropped with them',
        );
    } catch (error) {
      // Our database failing is no failure of the courier's: the round fails, and the leased rows
      // are asked again once their lease runs out, with no failure counted against the courier.
      if (isDatabaseUnavailable(error)) throw error;
      const retryAfter = error instanceof CourierCallError ? error.retryAfterMs : undefined;
      log?.warn({ carrierId, waybills: rows.length, reason: (error as Error).message }, 'tracking pull failed');
      for (const row of rows) {
        if (pollingEnded(row.bookedAt, now)) {
          await repo.deletePoll(db, row.accountId, row.subjectId);
          continue;
        }
        const delay = Math.max(
          nextPollDelayMs('pending', row.bookedAt, now, pollSeconds, row.failures + 1),
          retryAfter ?? 0,
        );
        await repo.reschedule(db, row.accountId, row.subjectId, new Date(now.getTime() + delay), row.failures + 1);
      }
      return 0;
    }
    const current = await statuses(rows);
    for (const row of rows) {
      const found = current.get(row.subjectId);
      if (found === undefined || found.terminal || pollingEnded(row.bookedAt, now)) {
        await repo.deletePoll(db, row.accountId, row.subjectId);
      } else {
        const delay = connector.pollEverySeconds
          ? connector.pollEverySeconds * 1000
          : nextPollDelayMs(found.status, row.bookedAt, now, pollSeconds, 0);
        await repo.reschedule(db, row.accountId, row.subjectId, new Date(now.getTime() + delay), 0);
      }
    }
    let events = 0;
    for (const scans of pulled.values()) events += scans.events.length;
    return events;
  }

  /** One round: instructions out, then every due shipment asked once, in batches of each courier's size. */
  async function runOnce(): Promise<{ polled: number; events: number; instructions: number }> {
    const instructions = await couriers.dispatchInstructions();
    let polled = 0;
    let events = 0;
    const rows = await repo.leaseDue(db, [...services.keys()], clock.now(), LEASE_LIMIT, leaseMs);
    const byCarrier = new Map<string, repo.PollRow[]>();
    for (const row of rows) byCarrier.set(row.carrierId, [...(byCarrier.get(row.carrierId) ?? []), row]);
    for (const [carrierId, list] of byCarrier) {
      const size = couriers.connectorOf(services.get(carrierId)!).batchSize;
      for (let i = 0; i < list.length; i += size) {
        const batch = list.slice(i, i + size);
        events += await pollBatch(carrierId, batch);
        polled += batch.length;
      }
    }
    return { polled, events, instructions };
  }

  const tick = () => {
    running = runOnce()
      .catch((error: unknown) => log?.warn({ reason: (error as Error).message }, 'tracking poller round failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, tickSeconds * 1000);
    // Never what keeps a process (or a test run) alive.
    timer.unref();
  };

  return {
    runOnce,
    /** Starts the timer; nothing to do when no service pulls or takes instructions. */
    start() {
      if (!stopped || couriers.pulledServices.length === 0) return;
      stopped = false;
      schedule();
    },
    /** Stops the timer and waits for a round in progress, so the database can close after it. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type TrackingPoller = ReturnType<typeof createTrackingPoller>;
