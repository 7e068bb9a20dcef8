import { describe, expect, it } from 'vitest';
import { canonicalIndianMobile, normalizeIndianPhone } from './phone.js';

describe('normalizeIndianPhone', () => {
  it.each([
    ['9876543210', '9876543210'],
    ['6000000000', '6000000000'],
    ['7012345678', '7012345678'],
    ['8123456789', '8123456789'],
    ['+919876543210', '9876543210'],
    ['+91 98765 43210', '9876543210'],
    ['+91-98765-43210', '9876543210'],
    ['919876543210', '9876543210'],
    ['91 9876543210', '9876543210'],
    ['09876543210', '9876543210'],
    ['0 98765 43210', '9876543210'],
    ['98765 43210', '9876543210'],
    ['98765-43210', '9876543210'],
    ['(987) 654-3210', '9876543210'],
    [' 9876543210 ', '9876543210'],
    // Landlines: STD code and number, 10 digits without the trunk 0.
    ['022 2345 6789', '2223456789'],
    ['(080) 41234567', '8041234567'],
    ['+91 44 2345 6789', '4423456789'],
    ['011 2345 6789', '1123456789'],
    ['0124 412 3456', '1244123456'],
    // Ten digits beginning with 91 are a number, not a country code.
    ['9198765432', '9198765432'],
  ])('reads %j as %s', (input, expected) => {
    expect(normalizeIndianPhone(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['987654321', 'nine digits'],
    ['98765432101', 'eleven digits without a trunk 0'],
    ['+9198765432101', 'thirteen digits'],
    ['0123456789', 'ten digits starting with 0'],
    ['00919876543210', 'international 00 prefix'],
    ['+1 415 555 0100', 'a US number'],
    ['+44 20 7946 0958', 'a UK number'],
    ['98765O4321', 'a letter O for a zero'],
    ['9876543210 ext 12', 'an extension'],
    ['9876543210.', 'a trailing full stop'],
    ['+91 98765 43210 0000', 'too many digits after the prefix'],
    ['98765 43210 98765 43210 9', 'more than 20 characters'],
    ['++++++++++', 'no digits'],
    ['091 98765 43210', 'both 0 and 91'],
  ])('refuses %j (%s)', (input) => {
    expect(normalizeIndianPhone(input)).toBeUndefined();
  });
});

describe('canonicalIndianMobile', () => {
  it.each([
    ['+919876543210', '+919876543210'],
    ['919876543210', '+919876543210'],
    ['09876543210', '+919876543210'],
    ['9876543210', '+919876543210'],
    ['+91 98765 43210', '+919876543210'],
    ['+91-98765-43210', '+919876543210'],
    ['91 98765-43210', '+919876543210'],
    ['0 98765 43210', '+919876543210'],
    ['98765-43210', '+919876543210'],
    [' 9876543210 ', '+919876543210'],
    ['6000000000', '+916000000000'],
    // Ten digits beginning with 91 are a number, not a country code.
    ['9198765432', '+919198765432'],
  ])('reads %j as %s', (input, expected) => {
    expect(canonicalIndianMobile(input)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['+14155550100', 'a US number'],
    ['+44 20 7946 0958', 'a UK number'],
    ['5876543210', 'ten digits not starting 6 to 9'],
    ['022 2345 6789', 'a landline'],
    ['987654321', 'nine digits'],
    ['+91987654', 'too short after +91'],
    ['98765432101', 'eleven digits without a trunk 0'],
    ['+9198765432101', 'thirteen digits'],
    ['0919876543210', 'both 0 and 91'],
    ['+9876543210', 'a + without 91'],
    ['(987) 654-3210', 'brackets'],
    ['98765.43210', 'a full stop'],
    ['98765\t43210', 'a tab'],
    ['acme.ops', 'not a number at all'],
  ])('refuses %j (%s)', (input) => {
    expect(canonicalIndianMobile(input)).toBeUndefined();
  });
});
