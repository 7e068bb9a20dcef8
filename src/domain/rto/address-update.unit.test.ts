import { describe, expect, it } from 'vitest';
import { loadPincodeDirectory } from '../../data-files.js';
import { type AddressUpdateForm, readAddressUpdate } from './address-update.js';

const directory = loadPincodeDirectory();
const GOOD: AddressUpdateForm = {
  address: ' 14,  Shivaji Marg ',
  landmark: 'Near Colaba Market',
  pincode: '400001',
  city: 'Mumbai',
  state: 'Maharashtra',
  alternate_phone: '+91 98765 43210',
};

describe('readAddressUpdate', () => {
  it('reads a good form, spaces collapsed, the other phone canonical', () => {
    expect(readAddressUpdate(GOOD, directory, '400001')).toEqual({
      update: {
        address: '14, Shivaji Marg',
        landmark: 'Near Colaba Market',
        pincode: '400001',
        city: 'Mumbai',
        state: 'Maharashtra',
        alternatePhone: '+919876543210',
      },
      problems: [],
    });
    expect(readAddressUpdate({ ...GOOD, landmark: ' ', alternate_phone: '' }, directory, null).update).toMatchObject({
      landmark: null,
      alternatePhone: null,
    });
  });

  it.each([
    ['no address', { address: '' }, [{ field: 'address', code: 'required' }]],
    ['an address of four letters', { address: 'a-b c d' }, [{ field: 'address', code: 'too_short' }]],
    ['a landmark too long', { landmark: 'x'.repeat(101) }, [{ field: 'landmark', code: 'too_long' }]],
    ['a pincode of 5 digits', { pincode: '40001' }, [{ field: 'pincode', code: 'not_a_pincode' }]],
    ['a pincode nowhere', { pincode: '999999' }, [{ field: 'pincode', code: 'unknown_pincode' }]],
    ['another pincode once booked', { pincode: '400050' }, [{ field: 'pincode', code: 'pincode_locked' }]],
    [
      'no city nor state',
      { city: ' ', state: undefined },
      [
        { field: 'city', code: 'required' },
        { field: 'state', code: 'required' },
      ],
    ],
    [
      'a landline as the other phone',
      { alternate_phone: '022 2345 6789' },
      [{ field: 'alternate_phone', code: 'not_a_mobile' }],
    ],
  ])('refuses %s, naming the field', (_name, change, problems) => {
    expect(readAddressUpdate({ ...GOOD, ...change }, directory, '400001')).toEqual({ problems });
  });

  it('lets the pincode move while no courier is booked', () => {
    expect(readAddressUpdate({ ...GOOD, pincode: '400050' }, directory, null).update?.pincode).toBe('400050');
  });
});
