import { describe, expect, it } from 'vitest';
import type { OrderPackage } from '../../base/db/schema.js';
import { readPackages, samePackages } from './order-packages.js';
import type { CreateOrderInput } from './orders.schemas.js';

// What the schema cannot check of a multi-piece order's boxes (the routes' refusals are
// multi-piece.test.ts's), and whether an update changes them.

const order = (packages: CreateOrderInput['packages'], weight = 2) =>
  ({
    weight,
    order_items: [
      { name: 'Kurta', sku: 'KURTA', units: 2, selling_price: 1 },
      { name: 'Kurta again', sku: 'KURTA', units: 1, selling_price: 1 },
      { name: 'Scarf', sku: 'SCARF', units: 1, selling_price: 1 },
    ],
    packages,
  }) as CreateOrderInput;

const box = (weight: number, items?: { sku: string; units: number }[]) => ({
  weight,
  length: 10,
  breadth: 10,
  height: 10,
  ...(items && { items }),
});

describe('readPackages', () => {
  it('is null for no packages and for []', () => {
    expect(readPackages(order(undefined), 2000)).toBeNull();
    expect(readPackages(order([]), 2000)).toBeNull();
  });

  it("counts a SKU the order lists twice as one, and a box's two lines of one SKU as one line", () => {
    const boxes = readPackages(
      order([
        box(1.5, [
          { sku: 'KURTA', units: 1 },
          { sku: ' KURTA', units: 2 },
        ]),
        box(0.5, [{ sku: 'SCARF', units: 1 }]),
      ]),
      2000,
    );
    expect(boxes?.map((b) => b.items)).toEqual([[{ sku: 'KURTA', units: 3 }], [{ sku: 'SCARF', units: 1 }]]);
  });

  it('takes a total within a gram of the boxes (a float sum), not one a gram off', () => {
    expect(readPackages(order([box(0.1), box(0.2)], 0.3), 300)).toHaveLength(2);
    expect(() => readPackages(order([box(0.1), box(0.2)], 0.301), 301)).toThrow(
      "weight must be the boxes' total weight when packages are sent: 0.3 kg, not 0.301 kg",
    );
  });
});

describe('samePackages', () => {
  const stored: OrderPackage[] = [
    { weightGrams: 1200, lengthCm: 30, breadthCm: 20, heightCm: 15, items: [{ sku: 'KURTA', units: 2 }] },
    { weightGrams: 800, lengthCm: 25, breadthCm: 20, heightCm: 10, items: [] },
  ];
  it.each([
    ['the same boxes', stored, true],
    ['the same weight written as a float', [{ ...stored[0]!, weightGrams: 1200.0000001 }, stored[1]!], true],
    ['one box fewer', [stored[0]!], false],
    ['a heavier box', [stored[0]!, { ...stored[1]!, weightGrams: 900 }], false],
    ['a longer box', [stored[0]!, { ...stored[1]!, lengthCm: 26 }], false],
    ['a wider box', [stored[0]!, { ...stored[1]!, breadthCm: 21 }], false],
    ['a taller box', [stored[0]!, { ...stored[1]!, heightCm: 11 }], false],
    ['other items', [stored[0]!, { ...stored[1]!, items: [{ sku: 'SCARF', units: 1 }] }], false],
    ['one box for boxes', null, false],
  ])('%s: %s', (_name, sent, same) => {
    expect(samePackages(stored, sent as OrderPackage[] | null)).toBe(same);
  });

  it('one box is one box', () => {
    expect(samePackages(null, null)).toBe(true);
    expect(samePackages(null, stored)).toBe(false);
  });
});
