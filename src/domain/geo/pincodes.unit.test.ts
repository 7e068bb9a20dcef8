import { describe, expect, it } from 'vitest';
import { parsePincode, parsePincodeCsv } from './pincodes.js';
import { loadPincodeDirectory } from '../../data-files.js';

const directory = loadPincodeDirectory();

describe('pincode directory', () => {
  it('loads every row of the data file', () => {
    expect(directory.size).toBe(19586);
    expect(directory.states.size).toBe(36);
  });

  it.each([
    ['110001', 'New Delhi', 'Delhi', 28.62273, 77.21954],
    ['560001', 'Bengaluru Urban', 'Karnataka', 12.98099, 77.59138],
    ['744101', 'South Andamans', 'Andaman and Nicobar Islands', 11.66583, 92.74111],
    ['682555', 'Lakshadweep District', 'Lakshadweep', null, null],
    ['900056', 'Kushi Nagar', 'Uttar Pradesh', null, null],
  ])('looks up %s', (pincode, district, state, latitude, longitude) => {
    expect(directory.lookup(pincode)).toEqual({ pincode, district, state, latitude, longitude });
  });

  it.each(['999999', '000000', '100000', '11000', ' 110001', '110001 ', ''])('has no entry for %j', (pincode) => {
    expect(directory.lookup(pincode)).toBeUndefined();
  });

  it('knows districts by state, not by name alone', () => {
    expect(directory.hasDistrict('Himachal Pradesh', 'Hamirpur')).toBe(true);
    expect(directory.hasDistrict('Uttar Pradesh', 'Hamirpur')).toBe(true);
    expect(directory.hasDistrict('Delhi', 'Hamirpur')).toBe(false);
  });

  it.each([
    ['pincode,district\n110001,X', 'expected header'],
    ['pincode,district,state,latitude,longitude\n11000,X,Y,,', 'line 2: invalid pincode'],
    ['pincode,district,state,latitude,longitude\n110001,X,Y,,\n110001,X,Y,,', 'line 3: duplicate pincode'],
    ['pincode,district,state,latitude,longitude\n110001,X,Y,abc,1', 'invalid coordinates'],
    ['pincode,district,state,latitude,longitude\n110001,X,Y', 'expected 5 fields'],
    ['pincode,district,state,latitude,longitude\n', 'no pincodes'],
  ])('rejects a broken file (%#)', (csv, message) => {
    expect(() => parsePincodeCsv(csv, 'test.csv')).toThrow(message);
  });

  it('accepts CRLF line endings', () => {
    const parsed = parsePincodeCsv('pincode,district,state,latitude,longitude\r\n110001,X,Y,1.5,2\r\n');
    expect(parsed.lookup('110001')).toEqual({
      pincode: '110001',
      district: 'X',
      state: 'Y',
      latitude: 1.5,
      longitude: 2,
    });
  });
});

describe('parsePincode', () => {
  it.each([
    ['110001', '110001'],
    [110001, '110001'],
    [999999, '999999'],
    ['999999', '999999'],
    [100000, '100000'],
    // Six digits are a pincode's form; that none starts with 0 is the directory's to say.
    ['011001', '011001'],
    ['000000', '000000'],
  ])('accepts %j as %j', (input, expected) => {
    expect(parsePincode(input)).toBe(expected);
  });

  it.each([
    '11000',
    '1100011',
    ' 110001',
    '110001\n',
    '11000a',
    '１１０００１',
    '110001.0',
    '1e5',
    110001.5,
    99999,
    1000000,
    -110001,
    Number.NaN,
    null,
    undefined,
    true,
    ['110001'],
    { pincode: '110001' },
  ])('refuses %j', (input) => {
    expect(parsePincode(input)).toBeUndefined();
  });
});
