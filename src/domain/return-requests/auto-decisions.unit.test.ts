import { describe, expect, it } from 'vitest';
import { type AutoDecisionFacts, type AutoRule, autoDecision } from './auto-decisions.js';

const rule = (over: Partial<AutoRule>): AutoRule => ({
  action: 'approve',
  message: null,
  reasons: null,
  orderValueMaxPaise: null,
  skus: null,
  pickupPincodes: null,
  buyerReturnsMax: null,
  buyerReturnsMin: null,
  buyerRtoMax: null,
  buyerRtoMin: null,
  ...over,
});

const FACTS: AutoDecisionFacts = {
  reason: 'damaged',
  orderValuePaise: 99_800,
  skus: ['KURTA-M-BLUE'],
  pickupPincode: '400001',
  buyerReturns: 1,
  buyerRto: 0,
};

const SERIAL_RETURNER = rule({ action: 'reject', message: 'Too many returns on this account.', buyerReturnsMin: 3 });
const DAMAGED_CHEAP = rule({ reasons: ['damaged', 'defective'], orderValueMaxPaise: 150_000 });

describe("a store's rules deciding a return request", () => {
  const cases: [string, AutoRule[], Partial<AutoDecisionFacts>, ReturnType<typeof autoDecision>][] = [
    ['no rules: the queue', [], {}, undefined],
    [
      'a rule with no conditions holds for every request',
      [rule({})],
      {},
      { action: 'approve', rule: 0, message: null },
    ],
    [
      'damaged and under ₹1,500: approved',
      [SERIAL_RETURNER, DAMAGED_CHEAP],
      {},
      { action: 'approve', rule: 1, message: null },
    ],
    [
      'exactly ₹1,500 is within',
      [DAMAGED_CHEAP],
      { orderValuePaise: 150_000 },
      { action: 'approve', rule: 0, message: null },
    ],
    ['a paisa over ₹1,500: the queue', [DAMAGED_CHEAP], { orderValuePaise: 150_001 }, undefined],
    ['another reason: the queue', [DAMAGED_CHEAP], { reason: 'changed_mind' }, undefined],
    [
      'a buyer with three returns: rejected by the first rule, before the approval',
      [SERIAL_RETURNER, DAMAGED_CHEAP],
      { buyerReturns: 3 },
      { action: 'reject', rule: 0, message: 'Too many returns on this account.' },
    ],
    [
      'every SKU asked must be listed',
      [rule({ skus: ['KURTA-M-BLUE'] })],
      { skus: ['KURTA-M-BLUE', 'SOCKS-3PK'] },
      undefined,
    ],
    [
      'SKUs all listed',
      [rule({ skus: ['KURTA-M-BLUE', 'SOCKS-3PK'] })],
      { skus: ['SOCKS-3PK'] },
      { action: 'approve', rule: 0, message: null },
    ],
    ['a pincode not listed', [rule({ pickupPincodes: ['110020'] })], {}, undefined],
    ['a buyer with an RTO, where none is allowed', [rule({ buyerRtoMax: 0 })], { buyerRto: 1 }, undefined],
    [
      'a buyer with two RTOs, rejected',
      [rule({ action: 'reject', message: 'Please contact us.', buyerRtoMin: 2 })],
      { buyerRto: 2 },
      { action: 'reject', rule: 0, message: 'Please contact us.' },
    ],
  ];
  it.each(cases)('%s', (_label, rules, facts, decided) => {
    expect(autoDecision(rules, { ...FACTS, ...facts })).toEqual(decided);
  });
});
