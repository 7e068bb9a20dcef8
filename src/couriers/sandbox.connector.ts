import type { Clock } from '../base/clock.js';
import type { Db } from '../base/db/client.js';
import { type BookingRequest, type Connector, courierRefused } from './connector.js';
import * as repo from './couriers.repository.js';
import { SANDBOX_SCENARIOS, type SandboxScenario, sandboxScans } from './sandbox-scenarios.js';
import { asReturnScan, type CarrierEvent, type ParcelScans } from './carrier-event.js';
import type { HealthReport } from './connector-health.js';

export interface SandboxSettings {
  stepSeconds: number;
  /** The scenario for order ids ending in 0 to 9. */
  scenarioByDigit: readonly SandboxScenario[];
}

const SCENARIO_TAG = 'sandbox_scenario:';

/** A `sandbox_scenario:<name>` tag wins; else the last digit of the merchant's order id picks; else delivered. */
export function chooseScenario(
  request: Pick<BookingRequest, 'tags' | 'merchantOrderId'>,
  byDigit: readonly SandboxScenario[],
): SandboxScenario {
  for (const tag of request.tags) {
    const name = tag.startsWith(SCENARIO_TAG) ? tag.slice(SCENARIO_TAG.length).trim() : '';
    if ((SANDBOX_SCENARIOS as readonly string[]).includes(name)) return name as SandboxScenario;
  }
  const last = request.merchantOrderId.at(-1) ?? '';
  return /\d/.test(last) ? (byDigit[Number(last)] ?? 'delivered') : 'delivered';
}

/**
 * A simulated courier for demos and tests. It issues waybills from the service's own series, keeps
 * its parcels in its own table, and moves each through a scenario on a clock: its scans are
 * computed from the booking time, the scenario and the instructions it received, and reach the
 * tracking intake through the poller like any pulled courier's.
 */
export function createSandboxConnector({
  db,
  clock,
  settings,
  health,
}: {
  db: Db;
  clock: Clock;
  settings: SandboxSettings;
  health?: HealthReport;
}): Connector {
  const stepMs = settings.stepSeconds * 1000;
  return {
    name: 'sandbox',
    pulls: true,
    batchSize: 50,
    // Its scans fall due a step apart: asking at that beat shows each soon after it happens.
    pollEverySeconds: settings.stepSeconds,

    async book(service, request, draw, ex) {
      // Our shipment id is the reference: a repeated booking answers the parcel already booked
      // (the number drawn for it is then a gap in the series). In the booking's own executor: the
      // parcel stands or falls with the booking.
      const awb = await repo.bookSandboxParcel(ex, {
        awb: await draw(),
        carrierId: service.id,
        reference: request.reference,
        scenario: chooseScenario(request, settings.scenarioByDigit),
        bookedAt: clock.now(),
        instructions: [],
      });
      // Its "calls" are to our own database; reported so that the connections screen shows it in use.
      health?.success();
      return { awb, routingCode: `SBX/${request.consignee.pincode.slice(0, 3)}` };
    },

    requestPickup: async (service, pickup) => `${service.code}-${pickup.date}-${pickup.locationName}`.slice(0, 64),

    parcelsInDatabase: true,

    // In the caller's executor: an idempotent request's transaction holds PGlite's one connection.
    async cancel(service, awb, ex = db) {
      const [parcel] = await repo.findSandboxParcels(ex, service.id, [awb]);
      if (!parcel) throw courierRefused(service.name, `waybill ${awb} is unknown`);
      if (clock.now().getTime() >= parcel.bookedAt.getTime() + stepMs) {
        throw courierRefused(service.name, 'the parcel has already been picked up');
      }
      await repo.updateSandboxParcel(ex, awb, { cancelledAt: parcel.cancelledAt ?? clock.now() });
    },

    async instruct(service, awb, instruction) {
      const [parcel] = await repo.findSandboxParcels(db, service.id, [awb]);
      if (!parcel) throw courierRefused(service.name, `waybill ${awb} is unknown`);
      await repo.updateSandboxParcel(db, awb, {
        instructions: [...parcel.instructions, { action: instruction.action, at: instruction.at.toISOString() }],
      });
    },

    async pull(service, parcels) {
      const now = clock.now();
      const scans = new Map<string, ParcelScans>();
      const journeys = new Map(parcels.map((parcel) => [parcel.awb, parcel.journey]));
      for (const parcel of await repo.findSandboxParcels(db, service.id, [...journeys.keys()])) {
        const known = {
          ...parcel,
          scenario: parcel.scenario as SandboxScenario,
          instructions: parcel.instructions.map((i) => ({ action: i.action, at: new Date(i.at) })),
        };
        const events = sandboxScans(known, stepMs, now);
        scans.set(parcel.awb, journeys.get(parcel.awb) === 'return' ? asReturnScans(events) : { events, unread: [] });
      }
      health?.success();
      return scans;
    },
  };
}

/**
 * A return booked on the sandbox plays its scenario as a reverse pickup. The scenario's steps with
 * no meaning on a return (an RTO) are left out: they are Dakiya's own scans, not a courier's.
 */
function asReturnScans(events: CarrierEvent[]): ParcelScans {
  const read = events.map(asReturnScan).filter((scan): scan is CarrierEvent => !('unread' in scan));
  return { events: read, unread: [] };
}
