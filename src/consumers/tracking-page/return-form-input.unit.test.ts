import { describe, expect, it } from 'vitest';
import { anchorOf, formValues, openingValues, readPickup } from './return-form-input.js';

const DELIVERY = {
  name: 'Asha',
  last_name: 'Menon',
  address: '12 Marine Drive',
  address_2: 'Flat 4',
  city: 'Mumbai',
  state: 'Maharashtra',
  country: 'India',
  pincode: '400001',
  email: 'asha@example.com',
  phone: '9123456780',
};

describe('the pickup address of the return form', () => {
  it('keeps the delivery address, second line too, when the buyer leaves it as it was', () => {
    const values = openingValues(2, DELIVERY);
    expect(values.pickup.address).toBe('12 Marine Drive, Flat 4');
    expect(readPickup(values, DELIVERY, 'en')).toEqual({ pickup: DELIVERY, problems: [] });
  });

  it('takes a changed address as one line, and a mobile as its ten digits', () => {
    const values = formValues(
      {
        pickup_address: '  Flat 9,   Sea View ',
        pickup_pincode: '400005',
        pickup_city: 'Mumbai',
        pickup_state: 'Maharashtra',
        pickup_phone: '+91 98765 43210',
      },
      0,
    );
    expect(readPickup(values, DELIVERY, 'en')).toEqual({
      pickup: { ...DELIVERY, address: 'Flat 9, Sea View', address_2: null, pincode: '400005', phone: '9876543210' },
      problems: [],
    });
  });

  it("lets a delivery address longer than the form's 200 characters stand, but not a typed one", () => {
    const long = { ...DELIVERY, address: 'A'.repeat(250), address_2: null };
    expect(readPickup(openingValues(0, long), long, 'en').problems).toEqual([]);
    const typed = { ...openingValues(0, long), pickup: { ...openingValues(0, long).pickup, address: 'B'.repeat(201) } };
    expect(readPickup(typed, long, 'en').problems).toEqual([
      { anchor: 'pickup-address', message: 'House or flat number, building and street: this is too long' },
    ]);
  });

  it('names each bad field in the buyer language, in the order of the form', () => {
    const values = formValues(
      {
        pickup_address: '',
        pickup_pincode: '04000',
        pickup_city: 'Mumbai',
        pickup_state: '',
        pickup_phone: '12345',
        exchange_for: 'x'.repeat(101),
      },
      0,
    );
    expect(readPickup(values, DELIVERY, 'hi').problems).toEqual([
      { anchor: 'pickup-address', message: 'मकान या फ़्लैट नंबर, बिल्डिंग और गली: कृपया भरें' },
      { anchor: 'pickup-pincode', message: 'पिनकोड: पिनकोड 6 अंकों का होता है' },
      { anchor: 'pickup-state', message: 'राज्य: कृपया भरें' },
      { anchor: 'pickup-phone', message: 'मोबाइल नंबर: कृपया 10 अंकों का भारतीय मोबाइल नंबर दें' },
      { anchor: 'exchange_for', message: 'कौन-सा साइज़ या रंग: यह बहुत लंबा है' },
    ]);
  });
});

describe('the form values', () => {
  it.each([
    [{ item_0: '2', item_1: 'x', item_2: '-1', item_3: '1.5' }, [2, 0, 0, 0]],
    [{}, [0, 0, 0, 0]],
  ])('reads quantities %o as %o', (fields, quantities) => {
    expect(formValues(fields, 4).quantities).toEqual(quantities);
  });

  it('reads an unknown resolution as a refund', () => {
    expect(formValues({ resolution: 'cash' }, 0).resolution).toBe('refund');
    expect(formValues({ resolution: 'exchange' }, 0).resolution).toBe('exchange');
  });
});

describe('where a refusal points on the form', () => {
  it.each([
    ['items[1].quantity', [0, 2], 1, 'item-2'],
    ['items[0].sku', [3], 0, 'item-3'],
    ['items', [], 1, 'item-1'],
    ['reason', [0], 0, 'reason'],
    ['photos', [0], 0, 'photos'],
    ['pickup.pincode', [0], 0, 'pickup-pincode'],
    ['order', [0], 0, ''],
  ] as const)('%s (asked %o, first open %i): #%s', (field, asked, firstOpen, anchor) => {
    expect(anchorOf(field, asked, firstOpen)).toBe(anchor);
  });
});
