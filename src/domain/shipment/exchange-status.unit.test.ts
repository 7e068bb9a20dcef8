import { describe, expect, it } from 'vitest';
import { type ExchangeLegs, type ExchangeStatus, exchangeStatus } from './exchange-status.js';

const legs = (
  forward: ExchangeLegs['forward'],
  ret: ExchangeLegs['return'],
  more: Partial<ExchangeLegs> = {},
): ExchangeLegs => ({ forward, return: ret, qcStatus: null, replacementHeld: false, ...more });

describe('an exchange status read from its legs', () => {
  const cases: [string, ExchangeLegs, ExchangeStatus][] = [
    ['both just booked', legs('pending', 'return_pickup_scheduled'), 'pending'],
    [
      'both just booked, the replacement held',
      legs('pending', 'return_pickup_scheduled', { replacementHeld: true }),
      'awaiting_return',
    ],
    [
      'the old item picked up, the replacement still held',
      legs('pending', 'return_picked_up', { replacementHeld: true }),
      'awaiting_return',
    ],
    ['the old item picked up, the replacement not yet moving', legs('pending', 'return_picked_up'), 'in_progress'],
    ['the replacement moving', legs('in_transit', 'return_pickup_scheduled'), 'in_progress'],
    [
      'the replacement out for delivery, the return in transit',
      legs('out_for_delivery', 'return_in_transit'),
      'in_progress',
    ],
    ['the replacement failed a delivery', legs('ndr_raised', 'return_in_transit'), 'in_progress'],
    ['the replacement delivered', legs('delivered', 'return_in_transit'), 'replacement_delivered'],
    ['the old item back at the warehouse', legs('in_transit', 'return_delivered'), 'return_received'],
    ['the old item back, the replacement pending', legs('pending', 'return_delivered'), 'return_received'],
    ['both delivered', legs('delivered', 'return_delivered'), 'completed'],
    ['QC failed at pickup', legs('pending', 'return_pickup_scheduled', { qcStatus: 'failed' }), 'qc_failed'],
    ['QC failed, the return then cancelled', legs('pending', 'return_cancelled', { qcStatus: 'failed' }), 'qc_failed'],
    ['QC passed', legs('pending', 'return_picked_up', { qcStatus: 'passed' }), 'in_progress'],
    ['both cancelled', legs('cancelled', 'return_cancelled'), 'cancelled'],
    ['both cancelled after a QC failure', legs('cancelled', 'return_cancelled', { qcStatus: 'failed' }), 'cancelled'],
    ['only the return cancelled', legs('in_transit', 'return_cancelled'), 'needs_attention'],
    ['only the replacement cancelled', legs('cancelled', 'return_picked_up'), 'needs_attention'],
    ['the old item lost', legs('delivered', 'return_lost'), 'needs_attention'],
    ['the replacement turned back', legs('rto_initiated', 'return_in_transit'), 'needs_attention'],
    ['the replacement back at the warehouse', legs('rto_delivered', 'return_delivered'), 'needs_attention'],
  ];
  it.each(cases)('%s', (_, given, expected) => {
    expect(exchangeStatus(given)).toBe(expected);
  });
});
