import { describe, expect, it } from 'vitest';
import { loadPincodeDirectory } from '../../data-files.js';
import { type AddressInput, checkAddress } from './address-check.js';

const directory = loadPincodeDirectory();

/** A sound address in Koramangala; each case changes what it names. */
const GOOD: AddressInput = {
  address: '42, 5th Cross, Koramangala 4th Block',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560034',
  phone: '9123456780',
};

describe('checkAddress', () => {
  it.each([
    ['a full address', {}, 'valid', []],
    ['the old name of the city', { city: 'Bangalore' }, 'valid', []],
    ['a state abbreviation', { state: 'KA' }, 'valid', []],
    ['a locality as the city (not a district anywhere)', { city: 'Koramangala' }, 'valid', []],
    [
      'a metro city for a pincode of a neighbouring district of the same state',
      { city: 'Hyderabad', state: 'Telangana', pincode: '501218' },
      'valid',
      [],
    ],
    ['a street word and no number', { address: 'Opposite the Shiva temple, Main Road' }, 'valid', []],
    ['the state of another pincode', { state: 'Maharashtra' }, 'suspicious', ['state_mismatch']],
    ['a city of another state', { city: 'Mumbai' }, 'suspicious', ['city_mismatch']],
    ['an old name of a city of another state', { city: 'Bombay' }, 'suspicious', ['city_mismatch']],
    [
      'a city whose districts only start with its name',
      { city: 'Bengaluru', state: 'Maharashtra', pincode: '400001' },
      'suspicious',
      ['city_mismatch'],
    ],
    ['a short word is no district by its start', { city: 'Raj' }, 'valid', []],
    ['placeholder text', { address: 'test address 123' }, 'suspicious', ['placeholder_text']],
    ['repeated characters', { address: 'aaaaaa 12 bbbb street' }, 'suspicious', ['repeated_characters']],
    ['a keyboard run', { address: 'qwerty 12, sector 4' }, 'suspicious', ['placeholder_text', 'keyboard_run']],
    ['a keyboard run that is no placeholder word', { address: 'House 9, asdfgh lane' }, 'suspicious', ['keyboard_run']],
    ['too short', { address: 'H 12' }, 'incomplete', ['address_too_short']],
    ['no number and no street word', { address: 'Priya Sharma Koramangala' }, 'incomplete', ['no_house_or_street']],
    ['a landline', { phone: '4023456789' }, 'incomplete', ['phone_not_mobile']],
    [
      'everything wrong at once',
      { address: 'asdf', city: 'Mumbai', state: 'MH', phone: '1123456789' },
      'suspicious',
      [
        'state_mismatch',
        'city_mismatch',
        'placeholder_text',
        'address_too_short',
        'no_house_or_street',
        'phone_not_mobile',
      ],
    ],
  ] as const)('%s', (_, change, validity, reasons) => {
    expect(checkAddress({ ...GOOD, ...change }, directory)).toEqual({ validity, reasons });
  });

  it('reads address line 2 with line 1', () => {
    expect(checkAddress({ ...GOOD, address: 'Flat 3B', address2: 'Koramangala 4th Block' }, directory)).toEqual({
      validity: 'valid',
      reasons: [],
    });
  });
});
