import { MAX_REATTEMPTS } from './ndr-rules.js';
import { RETURN_SUB_STATUSES, type ReturnStatus } from './return-status-machine.js';
import { type ShipmentStatus, SUB_STATUSES } from './status-machine.js';

/**
 * Velocity's thirty statuses (VELOCITY.md, "Status vocabulary"), in its document's order. SPEC's
 * ten are the coarse view; these are what Velocity shows in tracking, webhooks and `granular_status[]`.
 */
export const GRANULAR_STATUSES = [
  'pending',
  'rejected',
  'processing',
  'ready_for_pickup',
  'pickup_scheduled',
  'not_picked',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'ndr_raised',
  'need_attention',
  'reattempt_delivery',
  'cancelled',
  'lost',
  'rto_initiated',
  'rto_cancelled',
  'rto_in_transit',
  'rto_need_attention',
  'rto_delivered',
  'return_rejected',
  'return_pickup_scheduled',
  'return_not_picked',
  'return_qc_failed',
  'return_in_transit',
  'return_delivered',
  'return_cancelled',
  'return_ndr_raised',
  'return_need_attention',
  'externally_fulfilled',
] as const;
export type GranularStatus = (typeof GRANULAR_STATUSES)[number];

/**
 * Words Dakiya never produces, and why: Velocity shows them for steps Dakiya does not have. They
 * are accepted as filters (matching nothing) so integrations that send them keep working.
 */
export const UNPRODUCED_STATUSES: Readonly<Partial<Record<GranularStatus, string>>> = {
  rejected: 'Dakiya books couriers synchronously: a booking it cannot make is refused, no shipment is left rejected.',
  processing: 'Booking is synchronous: a shipment has a courier or not, never one being assigned.',
  rto_cancelled: 'Once a courier reports an RTO the parcel goes back; Dakiya has no way to call an RTO off.',
  return_rejected: 'Returns are booked by the merchant, who has no request to reject.',
  return_ndr_raised: 'Couriers report no failed delivery of a return to the warehouse (RETURN_SUB_STATUSES has none).',
  externally_fulfilled: 'Dakiya has no orders fulfilled outside it.',
};

/** forward: the way out; rto: a forward shipment once its return to origin began; return: a reverse pickup. */
export type ShipmentType = 'forward' | 'rto' | 'return';

/** What decides a shipment's granular word; the listing filter reads the same facts from columns. */
export interface ShipmentFacts {
  status: ShipmentStatus;
  subStatus: string | null;
  /** A courier (and so an AWB and a label) is booked. */
  courierBooked: boolean;
  /** rto_initiated_at is set: the parcel is (or was) on its way back. */
  rtoStarted: boolean;
  /** Failed deliveries and deliveries so far (attempt_count). */
  attemptCount: number;
  /** A reattempt is requested for the current failed delivery (an action whose attempt is attemptCount). */
  reattemptRequested: boolean;
}

export interface ReturnFacts {
  status: ReturnStatus;
  subStatus: string | null;
  qcStatus: string | null;
}

/**
 * One way for a forward shipment to have a word: its status and, when given, the other facts. A
 * sub-status list with `null` in it matches no sub-status too.
 */
export interface StatusCondition {
  status: ShipmentStatus;
  subStatuses?: readonly (string | null)[];
  /** Matches a sub-status that is none of these, or none at all. */
  notSubStatuses?: readonly string[];
  courierBooked?: boolean;
  rtoStarted?: boolean;
  reattemptRequested?: boolean;
  attemptsAtMost?: number;
  attemptsAbove?: number;
}

export interface ReturnCondition {
  status: ReturnStatus;
  subStatuses?: readonly string[];
  notSubStatuses?: readonly string[];
  /** qc_status is failed (the courier's QC result). */
  qcFailed?: boolean;
}

const GONE = ['lost', 'destroyed'] as const;

/**
 * The words of forward shipments (and their RTO legs), each as conditions any of which a shipment
 * meets. They are exclusive: every shipment meets exactly one (granular-statuses.unit.test.ts).
 */
export const FORWARD_GRANULAR: Readonly<Partial<Record<GranularStatus, readonly StatusCondition[]>>> = {
  pending: [{ status: 'pending', courierBooked: false }],
  // Booked: AWB and label made, pickup asked for (the booking answer's pickup_generated), no courier scan yet.
  ready_for_pickup: [{ status: 'pending', courierBooked: true, notSubStatuses: ['pickup_scheduled', 'pickup_failed'] }],
  pickup_scheduled: [{ status: 'pending', courierBooked: true, subStatuses: ['pickup_scheduled'] }],
  not_picked: [{ status: 'pending', courierBooked: true, subStatuses: ['pickup_failed'] }],
  in_transit: [{ status: 'in_transit' }],
  out_for_delivery: [{ status: 'out_for_delivery' }],
  delivered: [{ status: 'delivered' }],
  ndr_raised: [{ status: 'ndr_raised', reattemptRequested: false, attemptsAtMost: MAX_REATTEMPTS }],
  // Every reattempt spent (only an RTO is left), or an exception on the way out (damaged, on hold).
  need_attention: [
    { status: 'ndr_raised', reattemptRequested: false, attemptsAbove: MAX_REATTEMPTS },
    { status: 'others', rtoStarted: false, notSubStatuses: GONE },
  ],
  reattempt_delivery: [{ status: 'ndr_raised', reattemptRequested: true }],
  cancelled: [{ status: 'cancelled' }],
  lost: [{ status: 'others', subStatuses: GONE }],
  rto_initiated: [{ status: 'rto_initiated' }],
  rto_in_transit: [{ status: 'rto_in_transit' }],
  rto_need_attention: [{ status: 'others', rtoStarted: true, notSubStatuses: GONE }],
  rto_delivered: [{ status: 'rto_delivered' }],
};

/** The words of returns, on the returns' own statuses; exclusive like the forward ones. */
export const RETURN_GRANULAR: Readonly<Partial<Record<GranularStatus, readonly ReturnCondition[]>>> = {
  // Velocity's thirty have no word for a return awaiting its courier; its forward one is pending.
  pending: [{ status: 'return_requested' }],
  return_pickup_scheduled: [{ status: 'return_pickup_scheduled', notSubStatuses: ['return_pickup_failed'] }],
  return_not_picked: [{ status: 'return_pickup_scheduled', subStatuses: ['return_pickup_failed'] }],
  // Velocity has no return_picked_up: a collected parcel is on its way.
  return_in_transit: [{ status: 'return_picked_up' }, { status: 'return_in_transit' }],
  return_delivered: [{ status: 'return_delivered' }],
  return_qc_failed: [
    { status: 'return_cancelled', subStatuses: ['qc_failed'] },
    { status: 'return_cancelled', notSubStatuses: ['qc_failed'], qcFailed: true },
  ],
  return_cancelled: [{ status: 'return_cancelled', notSubStatuses: ['qc_failed'], qcFailed: false }],
  lost: [{ status: 'return_lost', notSubStatuses: ['return_damaged'] }],
  return_need_attention: [{ status: 'return_lost', subStatuses: ['return_damaged'] }],
};

const matchesSub = (
  sub: string | null,
  c: { subStatuses?: readonly (string | null)[]; notSubStatuses?: readonly string[] },
) =>
  (c.subStatuses === undefined || c.subStatuses.includes(sub)) &&
  (c.notSubStatuses === undefined || sub === null || !c.notSubStatuses.includes(sub));

export function meetsCondition(f: ShipmentFacts, c: StatusCondition): boolean {
  return (
    c.status === f.status &&
    matchesSub(f.subStatus, c) &&
    (c.courierBooked === undefined || c.courierBooked === f.courierBooked) &&
    (c.rtoStarted === undefined || c.rtoStarted === f.rtoStarted) &&
    (c.reattemptRequested === undefined || c.reattemptRequested === f.reattemptRequested) &&
    (c.attemptsAtMost === undefined || f.attemptCount <= c.attemptsAtMost) &&
    (c.attemptsAbove === undefined || f.attemptCount > c.attemptsAbove)
  );
}

export const isQcFailed = (f: ReturnFacts) => f.qcStatus === 'failed';

export function meetsReturnCondition(f: ReturnFacts, c: ReturnCondition): boolean {
  return (
    c.status === f.status && matchesSub(f.subStatus, c) && (c.qcFailed === undefined || c.qcFailed === isQcFailed(f))
  );
}

/**
 * The first word of the table whose conditions the facts meet, the table read once into lists per
 * status: a listing names the word of each of its rows, and walking every word's conditions for each
 * row cost it more than signing the row's label link.
 */
function wordFinder<F extends { status: string }, C extends { status: string }>(
  table: Readonly<Partial<Record<GranularStatus, readonly C[]>>>,
  meets: (f: F, c: C) => boolean,
): (facts: F) => GranularStatus {
  const byStatus = new Map<string, [GranularStatus, C][]>();
  for (const [word, conditions] of Object.entries(table) as [GranularStatus, readonly C[]][]) {
    for (const condition of conditions) {
      const list = byStatus.get(condition.status) ?? [];
      list.push([word, condition]);
      byStatus.set(condition.status, list);
    }
  }
  return (facts) => {
    for (const [word, condition] of byStatus.get(facts.status) ?? []) if (meets(facts, condition)) return word;
    // Unreachable while the tables cover every status (the unit test checks they do).
    throw new Error(`no granular status for ${JSON.stringify(facts)}`);
  };
}

/** Velocity's word for a forward shipment (tracking's shipment_status, webhooks' status). */
export const granularStatus: (facts: ShipmentFacts) => GranularStatus = wordFinder(FORWARD_GRANULAR, meetsCondition);

/** Velocity's word for a return. */
export const granularReturnStatus: (facts: ReturnFacts) => GranularStatus = wordFinder(
  RETURN_GRANULAR,
  meetsReturnCondition,
);

export const shipmentTypeOf = (facts: Pick<ShipmentFacts, 'rtoStarted'>): ShipmentType =>
  facts.rtoStarted ? 'rto' : 'forward';

/** Today's sub-statuses, which `granular_status[]` also takes (matching that sub-status). */
export const FORWARD_SUB_STATUS_WORDS = [...new Set(Object.values(SUB_STATUSES).flat())];
export const RETURN_SUB_STATUS_WORDS = [...new Set(Object.values(RETURN_SUB_STATUSES).flat())];

/** What `granular_status[]` accepts on each listing: the thirty, then sub-statuses that are not one of them. */
export const forwardGranularFilterWords = [
  ...GRANULAR_STATUSES,
  ...FORWARD_SUB_STATUS_WORDS.filter((w) => !isGranular(w)),
];
export const returnGranularFilterWords = [
  ...GRANULAR_STATUSES,
  ...RETURN_SUB_STATUS_WORDS.filter((w) => !isGranular(w)),
];

export function isGranular(word: string): word is GranularStatus {
  return (GRANULAR_STATUSES as readonly string[]).includes(word);
}

/**
 * A `granular_status[]` filter on forward shipments as conditions: a word of the thirty by its
 * conditions (none for a return-only or unproduced word), any other by the sub-status it names.
 * Where a word is both (in_transit, delivered, lost, …) its granular meaning covers every shipment
 * with that sub-status, so the old filter's matches are kept.
 */
export function forwardFilterConditions(words: readonly string[]): StatusCondition[] {
  return words.flatMap((word): StatusCondition[] => {
    if (isGranular(word)) return [...(FORWARD_GRANULAR[word] ?? [])];
    const status = (Object.keys(SUB_STATUSES) as ShipmentStatus[]).find((s) => SUB_STATUSES[s].includes(word));
    return status ? [{ status, subStatuses: [word] }] : [];
  });
}

export function returnFilterConditions(words: readonly string[]): ReturnCondition[] {
  return words.flatMap((word): ReturnCondition[] => {
    if (isGranular(word)) return [...(RETURN_GRANULAR[word] ?? [])];
    const status = (Object.keys(RETURN_SUB_STATUSES) as ReturnStatus[]).find((s) =>
      RETURN_SUB_STATUSES[s].includes(word),
    );
    return status ? [{ status, subStatuses: [word] }] : [];
  });
}
