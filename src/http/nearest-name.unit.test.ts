import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from './nearest-name.js';

const ORDER_FIELDS = [
  'order_id',
  'dead_weight',
  'billing_customer_name',
  'billing_address',
  'billing_city',
  'billing_pincode',
  'billing_phone',
  'shipping_pincode',
  'weight',
  'length',
  'breadth',
  'height',
  'sub_total',
];

describe('editDistance (optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['weight', 'weight', 0],
    ['billing_pincod', 'billing_pincode', 1],
    ['weigth', 'weight', 1],
    ['colour', 'color', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
  ])('%j to %j is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it('stops at the limit it is given', () => {
    expect(editDistance('kitten', 'sitting', 2)).toBe(2);
    expect(editDistance('a', 'abcdef', 3)).toBe(3);
  });
});

describe('nearestName', () => {
  it.each([
    ['billing_pincod', 'billing_pincode'],
    ['billing_pincodee', 'billing_pincode'],
    ['Billing_Pincode', 'billing_pincode'],
    ['billing-pincode', 'billing_pincode'],
    ['biling_phone', 'billing_phone'],
    ['weigth', 'weight'],
    ['WEIGHT', 'weight'],
    ['widht', undefined],
    ['bredth', 'breadth'],
    ['subtotal', 'sub_total'],
    ['shipping_pin', undefined],
    ['idempotency_key', undefined],
    ['x', undefined],
    ['', undefined],
    // A whole part of a known name means it.
    ['phone', 'billing_phone'],
    ['customer_name', 'billing_customer_name'],
    ['id', undefined],
  ])('%j → %j', (name, nearest) => {
    expect(nearestName(name, ORDER_FIELDS)).toBe(nearest);
  });

  it('prefers the nearer of two, and the first of two as near', () => {
    expect(nearestName('billing_pincode_', ['shipping_pincode', 'billing_pincode'])).toBe('billing_pincode');
    expect(nearestName('lenght', ['length', 'height'])).toBe('length');
    expect(nearestName('heigth', ['height', 'weight'])).toBe('height');
  });

  it('takes a whole part of a known name before a name a letter away: weight is dead_weight, not height', () => {
    const quote = ['journey_type', 'dead_weight', 'length', 'width', 'height', 'shipment_value'];
    expect(nearestName('weight', quote)).toBe('dead_weight');
    expect(nearestName('value', quote)).toBe('shipment_value');
    expect(nearestName('widht', quote)).toBe('width');
  });

  it('suggests nothing from no candidates', () => {
    expect(nearestName('weight', [])).toBeUndefined();
  });
});
