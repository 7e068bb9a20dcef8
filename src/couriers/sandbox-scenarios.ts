import type { CarrierEvent } from './carrier-event.js';

export const SANDBOX_SCENARIOS = ['delivered', 'ndr_delivered', 'rto', 'lost'] as const;
export type SandboxScenario = (typeof SANDBOX_SCENARIOS)[number];

/** What the sandbox courier knows of one parcel. */
export interface SandboxParcel {
  awb: string;
  scenario: SandboxScenario;
  bookedAt: Date;
  cancelledAt: Date | null;
  /** Instructions as received, oldest first. */
  instructions: readonly { action: string; at: Date }[];
}

type Step = Omit<CarrierEvent, 'awb' | 'event_time' | 'event_id'> & { step: number };

const PICKED_UP: Step = {
  step: 1,
  status: 'in_transit',
  sub_status: 'picked_up',
  location: 'Origin hub',
  description: 'Shipment picked up',
};
const TO_DESTINATION: Step[] = [
  PICKED_UP,
  {
    step: 2,
    status: 'in_transit',
    sub_status: 'reached_destination_hub',
    location: 'Destination hub',
    description: 'Reached the destination hub',
  },
  {
    step: 3,
    status: 'out_for_delivery',
    sub_status: 'out_for_delivery',
    location: 'Destination hub',
    description: 'Out for delivery',
  },
];
const DELIVERED = (step: number): Step => ({
  step,
  status: 'delivered',
  sub_status: 'delivered',
  location: 'Destination',
  description: 'Delivered',
});
const OUT_AGAIN = (step: number): Step => ({
  step,
  status: 'out_for_delivery',
  sub_status: 'out_for_delivery',
  location: 'Destination hub',
  description: 'Out for delivery again',
});
const RTO_HOME = (step: number): Step[] => [
  {
    step,
    status: 'rto_in_transit',
    sub_status: 'rto_in_transit',
    location: 'Destination hub',
    description: 'Returning to origin',
  },
  {
    step: step + 1,
    status: 'rto_delivered',
    sub_status: 'rto_delivered',
    location: 'Origin',
    description: 'Returned to the warehouse',
  },
];

/** Steps a parcel waits after a failed delivery for an instruction before the courier acts on its own. */
export const NDR_WAIT_STEPS = 2;

/**
 * The scans of a parcel's scenario, in order, whose time (booking + step × stepMs) has come by
 * `now`. A pure function of the parcel and the time, so pulling again gives the same events (the
 * intake takes replays as no-ops) and a restart loses nothing.
 *
 * - delivered: picked up, destination hub, out for delivery, delivered (steps 1–4).
 * - ndr_delivered: the first attempt fails (customer unavailable, step 4); the courier goes again
 *   one step after a reattempt instruction, or at step 4 + NDR_WAIT_STEPS without one, and delivers.
 * - rto: the customer refuses (step 4); the parcel goes back after an RTO instruction, or on its
 *   own at step 4 + NDR_WAIT_STEPS (reason customer_refused). A reattempt instruction gets one more
 *   attempt, refused again, then the return.
 * - lost: picked up, then lost at the origin hub (step 2).
 * A cancellation before pickup (step 1) stops everything; after it, the courier ignores it.
 * An RTO instruction at any point after pickup sends the parcel back from there.
 */
export function sandboxScans(parcel: SandboxParcel, stepMs: number, now: Date): CarrierEvent[] {
  const timeOf = (step: number) => parcel.bookedAt.getTime() + Math.round(step * stepMs);
  if (parcel.cancelledAt !== null && parcel.cancelledAt.getTime() < timeOf(1)) return [];
  return plan(parcel, stepMs)
    .map(({ step, ...event }) => ({
      awb: parcel.awb,
      ...event,
      event_time: new Date(timeOf(step)).toISOString(),
      event_id: `sbx:${event.status}:${step}`,
    }))
    .filter((event) => Date.parse(event.event_time) <= now.getTime());
}

function plan(parcel: SandboxParcel, stepMs: number): Step[] {
  // An instruction's time in steps from the booking (fractional): later steps count from it.
  const stepOf = (at: Date) => (at.getTime() - parcel.bookedAt.getTime()) / stepMs;
  const full = fullPlan(parcel, stepOf);
  // The merchant's RTO (initiate-rto) recorded the return's start already; the courier brings it home.
  const rto = parcel.instructions.find((i) => i.action === 'rto' && stepOf(i.at) >= 1);
  if (!rto) return full;
  const from = stepOf(rto.at);
  const before = full.filter((s) => s.step < from && !s.status.startsWith('rto_'));
  if (before.some((s) => s.status === 'delivered' || s.sub_status === 'lost')) return full;
  return [...before, ...RTO_HOME(from + 1)];
}

function fullPlan(parcel: SandboxParcel, stepOf: (at: Date) => number): Step[] {
  if (parcel.scenario === 'lost') {
    return [
      PICKED_UP,
      { step: 2, status: 'others', sub_status: 'lost', location: 'Origin hub', description: 'Shipment lost' },
    ];
  }
  if (parcel.scenario === 'delivered') return [...TO_DESTINATION, DELIVERED(4)];
  const refused = parcel.scenario === 'rto';
  const reason = refused ? 'refused' : 'customer_unavailable';
  const steps: Step[] = [
    ...TO_DESTINATION,
    {
      step: 4,
      status: 'ndr_raised',
      sub_status: reason,
      ndr_reason: reason,
      location: 'Destination',
      description: refused ? 'Customer refused the parcel' : 'Customer not available',
    },
  ];
  const deadline = 4 + NDR_WAIT_STEPS;
  const reattempt = parcel.instructions.find(
    (i) => i.action === 'reattempt' && stepOf(i.at) >= 4 && stepOf(i.at) < deadline,
  );
  const next = reattempt ? stepOf(reattempt.at) + 1 : deadline;
  if (!refused) return [...steps, OUT_AGAIN(next), DELIVERED(next + 1)];
  if (reattempt) {
    steps.push(OUT_AGAIN(next), {
      step: next + 1,
      status: 'ndr_raised',
      sub_status: 'refused',
      ndr_reason: 'refused',
      location: 'Destination',
      description: 'Customer refused the parcel again',
    });
    return [...steps, rtoStart(next + 2), ...RTO_HOME(next + 3)];
  }
  return [...steps, rtoStart(next), ...RTO_HOME(next + 1)];
}

const rtoStart = (step: number): Step => ({
  step,
  status: 'rto_initiated',
  sub_status: 'rto_initiated',
  rto_reason: 'customer_refused',
  location: 'Destination hub',
  description: 'Return to origin started',
});
