import { describe, expect, it } from 'vitest';
import { parseDay } from '../calendar.js';
import {
  lastReturnDay,
  type Refusal,
  type ReturnRequestAsk,
  type ReturnRequestFacts,
  requestGate,
  returnableItems,
  returnRequestRefusals,
} from './return-request-rules.js';

// Delivered at 18:00 on 20 November 2026, India time (12:30 UTC), under a 7-day window: requests
// are taken until the end of 27 November, India time.
const DELIVERED = new Date('2026-11-20T12:30:00.000Z');

const facts = (more: Partial<ReturnRequestFacts> = {}): ReturnRequestFacts => ({
  status: 'delivered',
  deliveredAt: DELIVERED,
  items: [
    { sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', units: 2, category: 'Apparel' },
    { sku: 'EARRINGS-GOLD', name: 'Gold Earrings', units: 1, category: 'Jewellery' },
    { sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', units: 1, category: 'Apparel' },
    { sku: 'SOCKS-3PK', name: 'Socks, three pairs', units: 1, category: null },
  ],
  unitsAsked: new Map(),
  openSkus: new Set(),
  returnUnderWay: false,
  policy: {
    windowDays: 7,
    reasons: ['size_issue', 'damaged', 'not_as_described'],
    nonReturnableSkus: ['SOCKS-3PK'],
    nonReturnableCategories: [' jewellery '],
  },
  now: new Date('2026-11-22T10:00:00.000Z'),
  ...more,
});

const ask = (more: Partial<ReturnRequestAsk> = {}): ReturnRequestAsk => ({
  items: [{ sku: 'KURTA-M-BLUE', quantity: 1 }],
  reason: 'size_issue',
  photos: 0,
  ...more,
});

describe('whether an order takes return requests now', () => {
  const cases: [string, Partial<ReturnRequestFacts>, Refusal | undefined][] = [
    ['delivered two days ago, in a 7-day window', {}, undefined],
    ['on the last day, at 23:59 India time', { now: new Date('2026-11-27T18:29:00.000Z') }, undefined],
    [
      'the next day, at 00:00 India time',
      { now: new Date('2026-11-27T18:30:00.000Z') },
      { code: 'window_closed', field: 'order', lastDay: '2026-11-27' },
    ],
    [
      'a store whose window is 0 (requests off)',
      { policy: { ...facts().policy, windowDays: 0 } },
      { code: 'requests_off', field: 'order' },
    ],
    ['still moving', { status: 'out_for_delivery', deliveredAt: null }, { code: 'not_delivered', field: 'order' }],
    [
      'stuck after a failed delivery',
      { status: 'ndr_raised', deliveredAt: null },
      { code: 'not_delivered', field: 'order' },
    ],
    ['gone back to the seller', { status: 'rto_delivered' }, { code: 'not_delivered', field: 'order' }],
    ['delivered without a delivery time', { deliveredAt: null }, { code: 'not_delivered', field: 'order' }],
    ['with a return already under way', { returnUnderWay: true }, { code: 'already_returned', field: 'order' }],
  ];
  it.each(cases)('%s', (_, given, gate) => {
    expect(requestGate(facts(given))).toEqual(gate);
  });

  it('names the last day, India time, only for a delivered order of a store that takes requests', () => {
    expect(lastReturnDay(facts())).toBe(parseDay('2026-11-27'));
    // Delivered at 00:10 on 21 November India time (still the 20th in UTC): the 28th.
    expect(lastReturnDay(facts({ deliveredAt: new Date('2026-11-20T18:40:00.000Z') }))).toBe(parseDay('2026-11-28'));
    expect(lastReturnDay(facts({ deliveredAt: null }))).toBeUndefined();
    expect(lastReturnDay(facts({ policy: { ...facts().policy, windowDays: 0 } }))).toBeUndefined();
  });
});

describe('what a request may ask for', () => {
  const cases: [string, Partial<ReturnRequestFacts>, Partial<ReturnRequestAsk>, Refusal[]][] = [
    ['one of three kurtas', {}, {}, []],
    ['all three kurtas, on two lines of the order', {}, { items: [{ sku: 'KURTA-M-BLUE', quantity: 3 }] }, []],
    [
      'four kurtas of three',
      {},
      { items: [{ sku: 'KURTA-M-BLUE', quantity: 4 }] },
      [{ code: 'quantity_over', field: 'items[0].quantity', sku: 'KURTA-M-BLUE', unitsLeft: 3 }],
    ],
    [
      'two kurtas when two were asked for before',
      { unitsAsked: new Map([['KURTA-M-BLUE', 2]]) },
      { items: [{ sku: 'KURTA-M-BLUE', quantity: 2 }] },
      [{ code: 'quantity_over', field: 'items[0].quantity', sku: 'KURTA-M-BLUE', unitsLeft: 1 }],
    ],
    ['the last kurta when two were asked for before', { unitsAsked: new Map([['KURTA-M-BLUE', 2]]) }, {}, []],
    [
      'a kurta while a request for kurtas waits for the merchant',
      { openSkus: new Set(['KURTA-M-BLUE']) },
      {},
      [{ code: 'request_open', field: 'items[0].sku', sku: 'KURTA-M-BLUE' }],
    ],
    [
      'socks the store marked non-returnable',
      {},
      { items: [{ sku: 'SOCKS-3PK', quantity: 1 }] },
      [{ code: 'non_returnable_sku', field: 'items[0].sku', sku: 'SOCKS-3PK' }],
    ],
    [
      'earrings, of a category the store does not take back (case and spaces aside)',
      {},
      { items: [{ sku: 'EARRINGS-GOLD', quantity: 1 }] },
      [{ code: 'non_returnable_category', field: 'items[0].sku', sku: 'EARRINGS-GOLD' }],
    ],
    [
      'an item the order does not have, and a kurta twice',
      {},
      {
        items: [
          { sku: 'SAREE-RED', quantity: 1 },
          { sku: 'KURTA-M-BLUE', quantity: 1 },
          { sku: 'KURTA-M-BLUE', quantity: 1 },
        ],
      },
      [
        { code: 'item_not_in_order', field: 'items[0].sku', sku: 'SAREE-RED' },
        { code: 'item_repeated', field: 'items[2].sku', sku: 'KURTA-M-BLUE' },
      ],
    ],
    [
      'zero kurtas',
      {},
      { items: [{ sku: 'KURTA-M-BLUE', quantity: 0 }] },
      [{ code: 'quantity_invalid', field: 'items[0].quantity', sku: 'KURTA-M-BLUE' }],
    ],
    [
      'half a kurta',
      {},
      { items: [{ sku: 'KURTA-M-BLUE', quantity: 0.5 }] },
      [{ code: 'quantity_invalid', field: 'items[0].quantity', sku: 'KURTA-M-BLUE' }],
    ],
    [
      'nothing, for a reason the store does not list, with six photos: every problem at once',
      {},
      { items: [], reason: 'changed_mind', photos: 6 },
      [
        { code: 'no_items', field: 'items' },
        { code: 'reason_unknown', field: 'reason' },
        { code: 'too_many_photos', field: 'photos' },
      ],
    ],
    ['five photos', {}, { photos: 5 }, []],
    [
      'a pickup pincode that exists, served for returns',
      {},
      { pickup: { pincodeKnown: true, reverseServiceable: true } },
      [],
    ],
    [
      'a pickup pincode that does not exist: named, not also called unserviceable',
      {},
      { pickup: { pincodeKnown: false, reverseServiceable: false } },
      [{ code: 'pickup_pincode_unknown', field: 'pickup.pincode' }],
    ],
    [
      'a pickup pincode no courier collects from',
      {},
      { pickup: { pincodeKnown: true, reverseServiceable: false } },
      [{ code: 'pickup_unserviceable', field: 'pickup.pincode' }],
    ],
    [
      'a closed window: its refusal alone, whatever else is wrong',
      { now: new Date('2026-12-01T06:00:00.000Z') },
      { items: [], reason: 'changed_mind' },
      [{ code: 'window_closed', field: 'order', lastDay: '2026-11-27' }],
    ],
  ];
  it.each(cases)('%s', (_, given, asked, refusals) => {
    expect(returnRequestRefusals(facts(given), ask(asked))).toEqual(refusals);
  });
});

describe('the items the request form offers', () => {
  it('lists each SKU once with its units, what is left and why one cannot be asked for', () => {
    const given = facts({ unitsAsked: new Map([['KURTA-M-BLUE', 3]]) });
    expect(returnableItems(given)).toEqual([
      {
        sku: 'KURTA-M-BLUE',
        name: 'Cotton Kurta',
        units: 3,
        unitsLeft: 0,
        refusal: { code: 'quantity_over', field: 'items', sku: 'KURTA-M-BLUE', unitsLeft: 0 },
      },
      {
        sku: 'EARRINGS-GOLD',
        name: 'Gold Earrings',
        units: 1,
        unitsLeft: 1,
        refusal: { code: 'non_returnable_category', field: 'items', sku: 'EARRINGS-GOLD' },
      },
      {
        sku: 'SOCKS-3PK',
        name: 'Socks, three pairs',
        units: 1,
        unitsLeft: 1,
        refusal: { code: 'non_returnable_sku', field: 'items', sku: 'SOCKS-3PK' },
      },
    ]);
    expect(returnableItems(facts())[0]).toEqual({ sku: 'KURTA-M-BLUE', name: 'Cotton Kurta', units: 3, unitsLeft: 3 });
  });
});
