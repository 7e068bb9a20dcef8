import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO_BY_DIGIT } from './couriers.settings.js';
import { chooseScenario } from './sandbox.connector.js';
import { type SandboxParcel, sandboxScans } from './sandbox-scenarios.js';

const STEP = 60_000;
const BOOKED = new Date('2026-11-20T06:30:00Z');
const atStep = (step: number) => new Date(BOOKED.getTime() + step * STEP);
const parcel = (overrides: Partial<SandboxParcel>): SandboxParcel => ({
  awb: 'DLS0000000001',
  scenario: 'delivered',
  bookedAt: BOOKED,
  cancelledAt: null,
  instructions: [],
  ...overrides,
});
/** status/sub_status@step of every scan due by `now`. */
const trail = (p: SandboxParcel, now: Date) =>
  sandboxScans(p, STEP, now).map(
    (e) => `${e.status}/${e.sub_status}@${(Date.parse(e.event_time) - BOOKED.getTime()) / STEP}`,
  );

describe('sandbox scenarios', () => {
  it.each([
    [
      'delivered',
      [],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'delivered/delivered@4',
      ],
    ],
    [
      'ndr_delivered',
      [],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'ndr_raised/customer_unavailable@4',
        'out_for_delivery/out_for_delivery@6',
        'delivered/delivered@7',
      ],
    ],
    [
      'ndr_delivered',
      [{ action: 'reattempt', at: atStep(4.5) }],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'ndr_raised/customer_unavailable@4',
        'out_for_delivery/out_for_delivery@5.5',
        'delivered/delivered@6.5',
      ],
    ],
    [
      'ndr_delivered',
      [{ action: 'rto', at: atStep(5) }],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'ndr_raised/customer_unavailable@4',
        'rto_in_transit/rto_in_transit@6',
        'rto_delivered/rto_delivered@7',
      ],
    ],
    [
      'rto',
      [],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'ndr_raised/refused@4',
        'rto_initiated/rto_initiated@6',
        'rto_in_transit/rto_in_transit@7',
        'rto_delivered/rto_delivered@8',
      ],
    ],
    [
      'rto',
      [{ action: 'reattempt', at: atStep(5) }],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'ndr_raised/refused@4',
        'out_for_delivery/out_for_delivery@6',
        'ndr_raised/refused@7',
        'rto_initiated/rto_initiated@8',
        'rto_in_transit/rto_in_transit@9',
        'rto_delivered/rto_delivered@10',
      ],
    ],
    ['lost', [], ['in_transit/picked_up@1', 'others/lost@2']],
    // A reattempt asked after the courier's own deadline changes nothing.
    [
      'ndr_delivered',
      [{ action: 'reattempt', at: atStep(6.5) }],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'out_for_delivery/out_for_delivery@3',
        'ndr_raised/customer_unavailable@4',
        'out_for_delivery/out_for_delivery@6',
        'delivered/delivered@7',
      ],
    ],
    // An RTO in transit brings the parcel back from there.
    [
      'delivered',
      [{ action: 'rto', at: atStep(2.5) }],
      [
        'in_transit/picked_up@1',
        'in_transit/reached_destination_hub@2',
        'rto_in_transit/rto_in_transit@3.5',
        'rto_delivered/rto_delivered@4.5',
      ],
    ],
  ] as const)('%s with %j plays out in order', (scenario, instructions, expected) => {
    expect(trail(parcel({ scenario, instructions: [...instructions] }), atStep(20))).toEqual(expected);
  });

  it('gives only the scans whose time has come, with stable ids, so a second pull replays the first', () => {
    const first = sandboxScans(parcel({}), STEP, atStep(2.5));
    expect(first.map((e) => e.event_id)).toEqual(['sbx:in_transit:1', 'sbx:in_transit:2']);
    expect(sandboxScans(parcel({}), STEP, atStep(2.5))).toEqual(first);
    expect(sandboxScans(parcel({}), STEP, atStep(0.9))).toEqual([]);
  });

  it('stops at a cancellation before pickup, and ignores one after it', () => {
    expect(sandboxScans(parcel({ cancelledAt: atStep(0.5) }), STEP, atStep(20))).toEqual([]);
    expect(trail(parcel({ cancelledAt: atStep(1.5) }), atStep(20))).toHaveLength(4);
  });

  it.each([
    [{ tags: ['sandbox_scenario:rto'], merchantOrderId: 'DEMO-1001' }, 'rto'],
    [{ tags: ['gift', 'sandbox_scenario:lost'], merchantOrderId: 'DEMO-1006' }, 'lost'],
    [{ tags: ['sandbox_scenario:unknown'], merchantOrderId: 'DEMO-1006' }, 'ndr_delivered'],
    [{ tags: [], merchantOrderId: 'DEMO-1000' }, 'delivered'],
    [{ tags: [], merchantOrderId: 'DEMO-1007' }, 'ndr_delivered'],
    [{ tags: [], merchantOrderId: 'DEMO-1008' }, 'rto'],
    [{ tags: [], merchantOrderId: 'DEMO-1009' }, 'lost'],
    [{ tags: [], merchantOrderId: 'DEMO-100A' }, 'delivered'],
  ])('chooses the scenario of %j: %s', (request, expected) => {
    expect(chooseScenario(request, DEFAULT_SCENARIO_BY_DIGIT)).toBe(expected);
  });
});
