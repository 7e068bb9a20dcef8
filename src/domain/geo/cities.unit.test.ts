import { describe, expect, it } from 'vitest';
import { defaultRatesContext } from '../../data-files.js';
import { cityOfPincode } from './cities.js';

describe("a pincode's city", () => {
  const directory = defaultRatesContext().directory;
  it.each([
    ['560034', 'Bengaluru'],
    ['110020', 'Delhi'],
    ['110001', 'New Delhi'],
    ['400059', 'Mumbai'],
    ['400001', 'Mumbai'],
    ['201301', 'Noida'],
    ['380001', 'Ahmedabad'],
    ['700016', 'Kolkata'],
    ['600002', 'Chennai'],
  ])('%s is in %s, as addresses write it', (pincode, city) => {
    expect(cityOfPincode(directory.lookup(pincode)!)).toBe(city);
  });
});
