import { describe, expect, it } from 'vitest';
import {
  FORWARD_GRANULAR,
  forwardFilterConditions,
  GRANULAR_STATUSES,
  granularReturnStatus,
  granularStatus,
  meetsCondition,
  meetsReturnCondition,
  RETURN_GRANULAR,
  type ReturnFacts,
  type ShipmentFacts,
  UNPRODUCED_STATUSES,
} from './granular-statuses.js';
import { RETURN_STATUSES, RETURN_SUB_STATUSES } from './return-status-machine.js';
import { SHIPMENT_STATUSES, SUB_STATUSES } from './status-machine.js';

const facts = (over: Partial<ShipmentFacts> & Pick<ShipmentFacts, 'status'>): ShipmentFacts => ({
  subStatus: null,
  courierBooked: true,
  rtoStarted: false,
  attemptCount: 0,
  reattemptRequested: false,
  ...over,
});

describe("a forward shipment's granular status", () => {
  it.each([
    ['pending, no courier', facts({ status: 'pending', courierBooked: false }), 'pending'],
    ['pending, booked, no scan', facts({ status: 'pending' }), 'ready_for_pickup'],
    ['pending, pickup_scheduled scan', facts({ status: 'pending', subStatus: 'pickup_scheduled' }), 'pickup_scheduled'],
    ['pending, pickup_failed scan', facts({ status: 'pending', subStatus: 'pickup_failed' }), 'not_picked'],
    ['in_transit, picked_up', facts({ status: 'in_transit', subStatus: 'picked_up' }), 'in_transit'],
    ['in_transit, misrouted', facts({ status: 'in_transit', subStatus: 'misrouted' }), 'in_transit'],
    ['out_for_delivery', facts({ status: 'out_for_delivery', attemptCount: 1 }), 'out_for_delivery'],
    ['delivered', facts({ status: 'delivered', subStatus: 'delivered', attemptCount: 1 }), 'delivered'],
    ['first failed delivery', facts({ status: 'ndr_raised', subStatus: 'refused', attemptCount: 1 }), 'ndr_raised'],
    ['second failed delivery', facts({ status: 'ndr_raised', attemptCount: 2 }), 'ndr_raised'],
    ['third failed delivery: reattempts spent', facts({ status: 'ndr_raised', attemptCount: 3 }), 'need_attention'],
    [
      'failed delivery, reattempt requested',
      facts({ status: 'ndr_raised', attemptCount: 1, reattemptRequested: true }),
      'reattempt_delivery',
    ],
    [
      'cancelled by the merchant',
      facts({ status: 'cancelled', subStatus: 'cancelled_by_merchant', courierBooked: false }),
      'cancelled',
    ],
    ['others, lost', facts({ status: 'others', subStatus: 'lost' }), 'lost'],
    ['others, destroyed', facts({ status: 'others', subStatus: 'destroyed' }), 'lost'],
    ['others, damaged', facts({ status: 'others', subStatus: 'damaged' }), 'need_attention'],
    ['others, on hold', facts({ status: 'others', subStatus: 'on_hold' }), 'need_attention'],
    ['others, no sub-status', facts({ status: 'others' }), 'need_attention'],
    ['rto_initiated', facts({ status: 'rto_initiated', rtoStarted: true }), 'rto_initiated'],
    [
      'rto_in_transit, out for delivery to the seller',
      facts({ status: 'rto_in_transit', subStatus: 'rto_out_for_delivery', rtoStarted: true }),
      'rto_in_transit',
    ],
    [
      'others after the RTO began',
      facts({ status: 'others', subStatus: 'on_hold', rtoStarted: true }),
      'rto_need_attention',
    ],
    ['lost after the RTO began', facts({ status: 'others', subStatus: 'lost', rtoStarted: true }), 'lost'],
    ['rto_delivered', facts({ status: 'rto_delivered', rtoStarted: true }), 'rto_delivered'],
  ] as const)('%s → %s', (_name, shipment, word) => {
    expect(granularStatus(shipment)).toBe(word);
  });

  it('gives every combination of the facts exactly one word (the conditions are exclusive and complete)', () => {
    const subs = (status: (typeof SHIPMENT_STATUSES)[number]) => [null, ...SUB_STATUSES[status]];
    let combinations = 0;
    for (const status of SHIPMENT_STATUSES)
      for (const subStatus of subs(status))
        for (const courierBooked of [true, false])
          for (const rtoStarted of [true, false])
            for (const reattemptRequested of [true, false])
              for (const attemptCount of [0, 1, 2, 3, 4]) {
                const f = { status, subStatus, courierBooked, rtoStarted, reattemptRequested, attemptCount };
                const words = Object.entries(FORWARD_GRANULAR).filter(([, cs]) => cs.some((c) => meetsCondition(f, c)));
                expect(
                  words.map(([w]) => w),
                  JSON.stringify(f),
                ).toHaveLength(1);
                combinations++;
              }
    expect(combinations).toBe((SHIPMENT_STATUSES.length + Object.values(SUB_STATUSES).flat().length) * 2 * 2 * 2 * 5);
  });
});

describe("a return's granular status", () => {
  const ret = (status: ReturnFacts['status'], subStatus: string | null = null, qcStatus: string | null = null) => ({
    status,
    subStatus,
    qcStatus,
  });
  it.each([
    ['requested, no courier', ret('return_requested'), 'pending'],
    ['pickup scheduled', ret('return_pickup_scheduled'), 'return_pickup_scheduled'],
    ['pickup rescheduled', ret('return_pickup_scheduled', 'return_pickup_rescheduled'), 'return_pickup_scheduled'],
    ['pickup failed', ret('return_pickup_scheduled', 'return_pickup_failed'), 'return_not_picked'],
    ['picked up, QC passed', ret('return_picked_up', 'return_picked_up', 'passed'), 'return_in_transit'],
    ['in transit', ret('return_in_transit', 'return_reached_hub'), 'return_in_transit'],
    ['delivered to the warehouse', ret('return_delivered', 'return_delivered'), 'return_delivered'],
    ['cancelled on a failed QC', ret('return_cancelled', 'qc_failed', 'failed'), 'return_qc_failed'],
    ['cancelled with qc_status failed alone', ret('return_cancelled', null, 'failed'), 'return_qc_failed'],
    ['cancelled by the merchant', ret('return_cancelled', 'return_cancelled_by_merchant'), 'return_cancelled'],
    ['customer refused', ret('return_cancelled', 'customer_refused'), 'return_cancelled'],
    ['lost', ret('return_lost', 'return_lost'), 'lost'],
    ['damaged', ret('return_lost', 'return_damaged'), 'return_need_attention'],
  ] as const)('%s → %s', (_name, r, word) => {
    expect(granularReturnStatus(r)).toBe(word);
  });

  it('gives every combination exactly one word', () => {
    for (const status of RETURN_STATUSES)
      for (const subStatus of [null, ...RETURN_SUB_STATUSES[status]])
        for (const qcStatus of [null, 'passed', 'failed']) {
          const f = { status, subStatus, qcStatus };
          const words = Object.entries(RETURN_GRANULAR).filter(([, cs]) => cs.some((c) => meetsReturnCondition(f, c)));
          expect(
            words.map(([w]) => w),
            JSON.stringify(f),
          ).toHaveLength(1);
        }
  });
});

describe('the thirty words', () => {
  it("are Velocity's list, each produced by a table or named as never produced", () => {
    // VELOCITY.md calls them thirty; its list has 29 (14 forward, 5 RTO, 9 return, 1 other).
    expect(GRANULAR_STATUSES).toHaveLength(29);
    const produced = new Set([...Object.keys(FORWARD_GRANULAR), ...Object.keys(RETURN_GRANULAR)]);
    for (const word of GRANULAR_STATUSES) expect(produced.has(word) !== word in UNPRODUCED_STATUSES, word).toBe(true);
  });

  it("take today's sub-statuses as synonyms, keeping every shipment the sub-status matched", () => {
    expect(forwardFilterConditions(['customer_unavailable'])).toEqual([
      { status: 'ndr_raised', subStatuses: ['customer_unavailable'] },
    ]);
    expect(forwardFilterConditions(['in_transit'])).toEqual([{ status: 'in_transit' }]);
    expect(forwardFilterConditions(['return_delivered', 'rto_cancelled'])).toEqual([]);
  });
});
