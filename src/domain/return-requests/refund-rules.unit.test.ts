import { describe, expect, it } from 'vitest';
import type { ReturnStatus } from '../shipment/return-status-machine.js';
import { type RefundRelease, refundAmount, refundCancelled, refundReleased } from './refund-rules.js';

describe('what a refund comes to', () => {
  const cases: [string, { unitPaise: number; units: number }[], number, number, ReturnType<typeof refundAmount>][] = [
    [
      'two kurtas at ₹449, nothing kept',
      [{ unitPaise: 44_900, units: 2 }],
      0,
      0,
      { itemsPaise: 89_800, deductionPaise: 0, returnShippingFeePaise: 0, amountPaise: 89_800 },
    ],
    [
      'a 10 % deduction and a ₹60 fee',
      [
        { unitPaise: 44_900, units: 2 },
        { unitPaise: 19_900, units: 1 },
      ],
      10,
      6_000,
      { itemsPaise: 109_700, deductionPaise: 10_970, returnShippingFeePaise: 6_000, amountPaise: 92_730 },
    ],
    [
      '15 % of ₹3.33 is 49.95 paise, rounded half up to 50',
      [{ unitPaise: 333, units: 1 }],
      15,
      0,
      { itemsPaise: 333, deductionPaise: 50, returnShippingFeePaise: 0, amountPaise: 283 },
    ],
    [
      'a fee larger than what is left takes what is left, never below nothing',
      [{ unitPaise: 5_000, units: 1 }],
      50,
      10_000,
      { itemsPaise: 5_000, deductionPaise: 2_500, returnShippingFeePaise: 2_500, amountPaise: 0 },
    ],
    [
      'the whole value kept',
      [{ unitPaise: 5_000, units: 3 }],
      100,
      500,
      { itemsPaise: 15_000, deductionPaise: 15_000, returnShippingFeePaise: 0, amountPaise: 0 },
    ],
  ];
  it.each(cases)('%s', (_label, items, deductionPercent, returnShippingFeePaise, amount) => {
    expect(refundAmount(items, { deductionPercent, returnShippingFeePaise })).toEqual(amount);
  });
});

describe('when a refund falls due', () => {
  const state = (status: ReturnStatus, qcStatus: string | null = null) => ({ status, qcStatus });
  const cases: [RefundRelease, ReturnType<typeof state>, boolean][] = [
    ['pickup', state('return_pickup_scheduled'), false],
    ['pickup', state('return_picked_up'), true],
    ['pickup', state('return_in_transit'), true],
    ['pickup', state('return_delivered'), true],
    ['pickup', state('return_cancelled'), false],
    ['pickup', state('return_picked_up', 'failed'), false],
    ['warehouse', state('return_in_transit'), false],
    ['warehouse', state('return_delivered'), true],
    ['warehouse', state('return_lost'), false],
    ['qc_pass', state('return_picked_up', 'passed'), true],
    ['qc_pass', state('return_picked_up', null), false],
    ['qc_pass', state('return_delivered', null), true],
    ['qc_pass', state('return_picked_up', 'failed'), false],
  ];
  it.each(cases)('%s, the return %o: %s', (release, given, released) => {
    expect(refundReleased(release, given)).toBe(released);
  });
});

describe('when a refund is cancelled with its return', () => {
  const cases: [ReturnStatus, boolean][] = [
    ['return_requested', false],
    ['return_pickup_scheduled', false],
    ['return_picked_up', false],
    ['return_in_transit', false],
    ['return_delivered', false],
    ['return_cancelled', true],
    // Lost in the courier's hands after the pickup: the buyer sent the items back and is still owed.
    ['return_lost', false],
  ];
  it.each(cases)('the return %s: %s', (status, cancelled) => {
    expect(refundCancelled({ status })).toBe(cancelled);
  });
});
