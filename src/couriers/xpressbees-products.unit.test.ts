import { describe, expect, it } from 'vitest';
import { XPRESSBEES_ACCOUNT_PRODUCTS } from './fixtures/xpressbees.fixtures.js';
import { chooseXpressbeesProduct, namedSlabGrams } from './xpressbees-products.js';

/**
 * The serviceability answer as a real account's products (fixtures: names and ids as production
 * clients captured them, in the account's alphabetical order), with no weight fields: the slab
 * comes from the name, as index id 2437522655 reads it.
 */
const ACCOUNT = XPRESSBEES_ACCOUNT_PRODUCTS.map((p) => ({ ...p, freight_charges: 40, total_charges: 40 }));

describe('chooseXpressbeesProduct: the slab that holds the parcel, never the first name without Air', () => {
  it.each([
    // The old rule ("the first name without Air") booked id 8, "Express Reverse", for every one of these.
    ['surface', 300, '1', 'Surface Xpressbees 0.5 K.G'],
    ['surface', 500, '1', 'Surface Xpressbees 0.5 K.G'],
    ['surface', 501, '12298', 'Xpressbees 1 K.G'],
    ['surface', 1000, '12298', 'Xpressbees 1 K.G'],
    ['surface', 1800, '2', 'Xpressbees 2 K.G'],
    ['surface', 4200, '3', 'Xpressbees 5 K.G'],
    ['surface', 9000, '4', 'Xpressbees 10 K.G'],
    // Heavier than every slab: the largest, whose additional-weight rate carries the rest.
    ['surface', 12_000, '4', 'Xpressbees 10 K.G'],
    ['air', 500, '6', 'Air Xpressbees 0.5 K.G'],
    ['air', 2000, '6', 'Air Xpressbees 0.5 K.G'],
  ] as const)('%s, %i g → %s (%s)', (level, weight, id, name) => {
    expect(chooseXpressbeesProduct(ACCOUNT, level, weight)).toEqual({ id, name });
  });

  it('never books the reverse, next-day or same-day products, and says what was offered when nothing fits', () => {
    const special = ACCOUNT.filter((p) => ['8', '12939', '12938'].includes(p.id));
    expect(chooseXpressbeesProduct(special, 'surface', 500)).toEqual({
      none: 'no surface product among those offered (Express Reverse, Xpressbees Next Day Delivery, Xpressbees Same Day Delivery)',
    });
    const surfaceOnly = ACCOUNT.filter((p) => !p.name.startsWith('Air'));
    expect(chooseXpressbeesProduct(surfaceOnly, 'air', 500)).toMatchObject({ none: expect.stringMatching(/^no air /) });
    expect(chooseXpressbeesProduct([], 'surface', 500)).toEqual({ none: 'no surface product' });
  });

  it('reads the slab from min_weight, then chargeable_weight (grams, numbers or strings) when the name states none', () => {
    const byNumbers = [
      { id: '21', name: 'Xpressbees Big', min_weight: 5000, chargeable_weight: 5000, total_charges: 90 },
      { id: '22', name: 'Xpressbees Small', min_weight: '500', chargeable_weight: '500', total_charges: 45 },
      { id: '23', name: 'Xpressbees Medium', chargeable_weight: 2000, total_charges: 70 },
    ];
    expect(chooseXpressbeesProduct(byNumbers, 'surface', 450)).toEqual({ id: '22', name: 'Xpressbees Small' });
    expect(chooseXpressbeesProduct(byNumbers, 'surface', 1500)).toEqual({ id: '23', name: 'Xpressbees Medium' });
  });

  it('takes the cheaper of two equal slabs, and the first of the level when no product states a slab', () => {
    const twins = [
      { id: '31', name: 'Xpressbees 1 K.G', total_charges: 80 },
      { id: '32', name: 'Surface Xpressbees 1 K.G', total_charges: 65 },
    ];
    expect(chooseXpressbeesProduct(twins, 'surface', 700)).toEqual({ id: '32', name: 'Surface Xpressbees 1 K.G' });
    const plain = [
      { id: '6', name: 'Xpressbees Air' },
      { id: '1', name: 'Xpressbees Surface' },
      { id: 2, name: 'Xpressbees Economy' },
    ];
    expect(chooseXpressbeesProduct(plain, 'surface', 700)).toEqual({ id: '1', name: 'Xpressbees Surface' });
    expect(chooseXpressbeesProduct(plain, 'air', 700)).toEqual({ id: '6', name: 'Xpressbees Air' });
  });

  it.each([
    ['Air Xpressbees 0.5 K.G', 500],
    ['Surface Xpressbees 0.5 K.G', 500],
    ['Xpressbees 10 K.G', 10_000],
    ['Xpressbees 2kg', 2000],
    ['Express Reverse', undefined],
  ] as const)('the slab named in %s is %s g', (name, slab) => {
    expect(namedSlabGrams(name)).toBe(slab);
  });
});
