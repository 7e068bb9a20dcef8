import { describe, expect, it } from 'vitest';
import { createCalendar } from '../calendar.js';
import { SHIPMENT_STATUSES, type ShipmentStatus } from './status-machine.js';
import {
  addressCorrectionProblem,
  otherPincodeIn,
  type ReattemptRequest,
  reattemptDays,
  reattemptProblems,
  reattemptsUsedWith,
  rtoProblem,
} from './ndr-rules.js';

// Friday 20 November 2026, 15:30 India time; Sunday 22 and Tuesday 24 (a holiday) are not working days.
const calendar = createCalendar([{ date: '2026-11-24', name: "Guru Nanak's Birthday" }]);
const now = new Date('2026-11-20T10:00:00Z');
const facts = {
  status: 'ndr_raised' as ShipmentStatus,
  attemptCount: 1,
  shippingPincode: '400001',
  earlierReattempts: [] as number[],
  correctedAttempts: [] as number[],
  now,
  calendar,
};

describe('reattemptDays', () => {
  it.each([
    ['Friday afternoon', '2026-11-20T10:00:00Z', ['2026-11-21', '2026-11-23', '2026-11-25']],
    ['Friday just before midnight India time', '2026-11-20T18:29:59Z', ['2026-11-21', '2026-11-23', '2026-11-25']],
    ['Saturday just after midnight India time', '2026-11-20T18:30:00Z', ['2026-11-23', '2026-11-25', '2026-11-26']],
    ['a Sunday', '2026-11-22T06:00:00Z', ['2026-11-23', '2026-11-25', '2026-11-26']],
  ])('%s', (_name, at, days) => {
    expect(reattemptDays(new Date(at), calendar)).toEqual(days);
  });
});

describe('reattemptProblems', () => {
  const cases: [string, ReattemptRequest, Partial<typeof facts>, { field: string; message: string }[]][] = [
    ['a plain request', {}, {}, []],
    [
      'a corrected address in the same pincode, on a working day',
      {
        updated_address: { address_line: 'Flat 2, Mumbai 400001', landmark: 'Near the post office' },
        reattempt_date: '2026-11-25',
      },
      {},
      [],
    ],
    ['the second reattempt after another failed delivery', {}, { attemptCount: 2, earlierReattempts: [1] }, []],
    [
      'not in ndr_raised',
      {},
      { status: 'out_for_delivery' },
      [
        {
          field: 'awb',
          message:
            'Shipment is out_for_delivery: a reattempt can be requested only after a failed delivery (ndr_raised)',
        },
      ],
    ],
    [
      'both reattempts used',
      {},
      { attemptCount: 3, earlierReattempts: [1, 2] },
      [{ field: 'awb', message: 'All 2 reattempts allowed for this shipment are used: initiate an RTO instead' }],
    ],
    [
      // PUT /order passed a corrected address on for this failed delivery: the reattempt it asks is the same one.
      'after an address correction for this failed delivery',
      {},
      { correctedAttempts: [1] },
      [],
    ],
    [
      'a third failed delivery after one reattempt and one correction',
      {},
      { attemptCount: 3, earlierReattempts: [1], correctedAttempts: [2] },
      [{ field: 'awb', message: 'All 2 reattempts allowed for this shipment are used: initiate an RTO instead' }],
    ],
    [
      'already requested for this failed delivery',
      {},
      { earlierReattempts: [1] },
      [
        {
          field: 'awb',
          message: 'A reattempt is already requested for this failed delivery: wait for the courier to report it',
        },
      ],
    ],
    [
      'a new city and pincode',
      { updated_address: { pincode: '110001', city: 'New Delhi' } },
      {},
      [
        {
          field: 'updated_address.pincode',
          message:
            'The pincode cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address',
        },
        {
          field: 'updated_address.city',
          message:
            'The city cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address',
        },
      ],
    ],
    [
      'an address line naming another pincode',
      { updated_address: { address_line: '5 MG Road, Bengaluru 560001' } },
      {},
      [
        {
          field: 'updated_address.address_line',
          message:
            'address_line names pincode 560001 but the shipment goes to 400001: the pincode and city cannot be changed on a reattempt',
        },
      ],
    ],
    [
      'a 10-digit phone number in the address line is not a pincode',
      { updated_address: { address_line: 'Call 9123456780 at the gate' } },
      {},
      [],
    ],
    ...(['2026-11-20', '2026-11-22', '2026-11-24', '2026-11-26'] as const).map(
      (day): [string, ReattemptRequest, Partial<typeof facts>, { field: string; message: string }[]] => [
        `reattempt_date ${day}`,
        { reattempt_date: day },
        {},
        [
          {
            field: 'reattempt_date',
            message: 'reattempt_date must be one of the next 3 working days: 2026-11-21, 2026-11-23, 2026-11-25',
          },
        ],
      ],
    ),
  ];
  it.each(cases)('%s', (_name, request, overrides, expected) => {
    expect(reattemptProblems(request, { ...facts, ...overrides })).toEqual(expected);
  });
});

describe('addressCorrectionProblem', () => {
  const ALL_USED = 'All 2 reattempts allowed for this shipment are used: initiate an RTO instead';
  it.each([
    ['the first instruction for a failed delivery', {}, null],
    ['after a reattempt for the same failed delivery', { earlierReattempts: [1] }, null],
    ['after another correction for the same failed delivery', { correctedAttempts: [1] }, null],
    ['the second failed delivery, one reattempt used', { attemptCount: 2, earlierReattempts: [1] }, null],
    [
      'the third failed delivery, both used',
      { attemptCount: 3, earlierReattempts: [1], correctedAttempts: [2] },
      ALL_USED,
    ],
    ['the second of two used, a further correction', { attemptCount: 2, earlierReattempts: [1, 2] }, null],
    [
      'in transit',
      { status: 'in_transit' as ShipmentStatus },
      'Shipment is in_transit: a delivery address can be corrected after pickup only while a failed delivery waits (ndr_raised)',
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(addressCorrectionProblem({ ...facts, ...overrides })).toBe(expected);
  });

  it('counts each failed delivery once, whatever instructions it had', () => {
    expect(reattemptsUsedWith({ ...facts, attemptCount: 2, earlierReattempts: [1], correctedAttempts: [1, 2] })).toBe(
      2,
    );
  });

  it('finds a pincode an address names other than the shipment’s own', () => {
    expect(otherPincodeIn('Flat 2, Mumbai 400001', '400001')).toBeUndefined();
    expect(otherPincodeIn('Flat 2, Pune 411001', '400001')).toBe('411001');
    expect(otherPincodeIn('Call 9123456780 at the gate', '400001')).toBeUndefined();
  });
});

describe('rtoProblem', () => {
  const expected: Record<ShipmentStatus, string | null> = {
    pending: 'Shipment is pending (not picked up yet): cancel it with cancel-order instead',
    in_transit: null,
    out_for_delivery:
      'Shipment is out_for_delivery: request an RTO once the courier reports the outcome of this attempt',
    delivered: 'Shipment is delivered and can no longer be returned to origin',
    ndr_raised: null,
    rto_initiated: 'Shipment is rto_initiated: its RTO is already under way',
    rto_in_transit: 'Shipment is rto_in_transit: its RTO is already under way',
    rto_delivered: 'Shipment is rto_delivered and can no longer be returned to origin',
    cancelled: 'Shipment is cancelled and can no longer be returned to origin',
    others: null,
  };
  it.each(SHIPMENT_STATUSES.map((status) => [status, expected[status]]))('%s', (status, problem) => {
    expect(rtoProblem(status as ShipmentStatus)).toBe(problem);
  });
});
