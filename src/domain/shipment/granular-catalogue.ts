import {
  FORWARD_GRANULAR,
  GRANULAR_STATUSES,
  type GranularStatus,
  RETURN_GRANULAR,
  type ReturnCondition,
  type ShipmentType,
  type StatusCondition,
  UNPRODUCED_STATUSES,
} from './granular-statuses.js';
import { RETURN_SUB_STATUSES, type ReturnStatus } from './return-status-machine.js';
import { type ShipmentStatus, SUB_STATUSES } from './status-machine.js';

/** What each word means to a merchant, for GET /meta/statuses. */
const DESCRIPTIONS: Record<GranularStatus, string> = {
  pending: 'Created, no courier booked yet (forward-order, reverse-order).',
  rejected: 'Refused by the courier at booking.',
  processing: 'A courier being assigned.',
  ready_for_pickup: 'Courier booked, AWB and label made, pickup asked for; no scan from the courier yet.',
  pickup_scheduled: 'The courier confirmed the pickup.',
  not_picked: 'The courier came or was due and did not pick the parcel up.',
  in_transit: 'Picked up and on its way.',
  out_for_delivery: 'With the delivery agent.',
  delivered: 'Delivered to the customer.',
  ndr_raised: "Delivery failed; a reattempt or an RTO is the merchant's to ask for.",
  need_attention:
    'Every reattempt is spent (only an RTO is left), or the parcel is damaged or held before any RTO, or a box of a multi-piece shipment went its own way (box_exception).',
  reattempt_delivery:
    "Delivery failed and a reattempt is asked for (POST /reattempt, or the customer's tracking page).",
  cancelled: 'Cancelled before pickup.',
  lost: 'Lost or destroyed, on either leg (a return too).',
  rto_initiated: 'The return to origin began.',
  rto_cancelled: 'The return to origin was called off.',
  rto_in_transit: 'On its way back to the warehouse.',
  rto_need_attention: 'Damaged or held on its way back.',
  rto_delivered: 'Back at the warehouse.',
  return_rejected: 'A return request refused.',
  return_pickup_scheduled: 'Return booked; the courier will collect it from the customer.',
  return_not_picked: 'The courier did not collect the return.',
  return_qc_failed: "The quality check at the customer's door failed; the parcel stays with the customer.",
  return_in_transit: 'Collected from the customer and on its way to the warehouse.',
  return_delivered: 'The return reached the warehouse.',
  return_cancelled: 'The return was cancelled (by the merchant, the courier, or the customer refusing).',
  return_ndr_raised: 'Delivery of a return to the warehouse failed.',
  return_need_attention: 'The return was damaged on its way.',
  externally_fulfilled: 'Fulfilled outside the platform.',
};

export interface GranularCatalogueEntry {
  granular_status: GranularStatus;
  shipment_type: ShipmentType;
  /** Dakiya's status (SPEC's ten, or a return's); null for a word Dakiya never produces. */
  status: string | null;
  /** The sub-statuses of `status` that give this word. */
  sub_statuses: string[];
  /** Whether the status with no sub-status gives it too. */
  without_sub_status: boolean;
  /** The other facts the word needs, when it needs any. */
  when: Record<string, boolean | number>;
  produced: boolean;
  description: string;
}

const typeOfForward = (c: StatusCondition): ShipmentType =>
  c.rtoStarted === true || c.status.startsWith('rto_') ? 'rto' : 'forward';

type AnyCondition = Omit<StatusCondition, 'status'> & Omit<ReturnCondition, 'status' | 'subStatuses'>;

const whenOf = (c: AnyCondition) =>
  Object.fromEntries(
    (
      [
        ['courier_booked', c.courierBooked],
        ['rto_started', c.rtoStarted],
        ['reattempt_requested', c.reattemptRequested],
        ['attempts_at_most', c.attemptsAtMost],
        ['attempts_above', c.attemptsAbove],
        ['qc_failed', c.qcFailed],
      ] as const
    ).filter(([, v]) => v !== undefined),
  );

function entry(
  word: GranularStatus,
  type: ShipmentType,
  c: StatusCondition | ReturnCondition,
  subs: readonly string[],
): GranularCatalogueEntry {
  const allows = (sub: string | null) =>
    (c.subStatuses === undefined || (c.subStatuses as readonly (string | null)[]).includes(sub)) &&
    (c.notSubStatuses === undefined || sub === null || !c.notSubStatuses.includes(sub));
  return {
    granular_status: word,
    shipment_type: type,
    status: c.status,
    sub_statuses: subs.filter(allows),
    without_sub_status: allows(null),
    when: whenOf(c as AnyCondition),
    produced: true,
    description: DESCRIPTIONS[word],
  };
}

const unproducedType = (word: string): ShipmentType =>
  word.startsWith('rto_') ? 'rto' : word.startsWith('return_') ? 'return' : 'forward';

/**
 * Every way a shipment or return gets each of Velocity's words, one entry per way, in Velocity's
 * order; words Dakiya never produces have one entry with status null and the reason.
 */
export function granularCatalogue(): GranularCatalogueEntry[] {
  return GRANULAR_STATUSES.flatMap((word) => {
    const forward = (FORWARD_GRANULAR[word] ?? []).map((c) =>
      entry(word, typeOfForward(c), c, SUB_STATUSES[c.status as ShipmentStatus]),
    );
    const returns = (RETURN_GRANULAR[word] ?? []).map((c) =>
      entry(word, 'return', c, RETURN_SUB_STATUSES[c.status as ReturnStatus]),
    );
    const reason = UNPRODUCED_STATUSES[word];
    if (reason === undefined) return [...forward, ...returns];
    return [
      {
        granular_status: word,
        shipment_type: unproducedType(word),
        status: null,
        sub_statuses: [],
        without_sub_status: false,
        when: {},
        produced: false,
        description: `${DESCRIPTIONS[word]} Never produced: ${reason}`,
      },
    ];
  });
}
