import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INDIAN_PHONE_PATTERN, normalizeIndianPhone } from './phone.js';

// The pattern the document states for a phone field takes exactly what the services read.

describe('INDIAN_PHONE_PATTERN', () => {
  it('matches exactly the numbers normalizeIndianPhone reads', () => {
    const pattern = new RegExp(INDIAN_PHONE_PATTERN, 'u');
    const text = fc.string({
      unit: fc.constantFrom(...'0123456789', '0', '9', '1', ' ', '-', '+', '(', ')'),
      minLength: 8,
      maxLength: 22,
    });
    fc.assert(
      fc.property(text, (phone) => {
        expect(pattern.test(phone), JSON.stringify(phone)).toBe(normalizeIndianPhone(phone) !== undefined);
      }),
      { numRuns: 50_000 },
    );
    for (const phone of ['9876543210', '+91 98765 43210', '(011) 2345 6789', '09876543210', '91-9876543210'])
      expect(pattern.test(phone), phone).toBe(true);
    for (const phone of ['0123456789', '98765', '+1 415 555 0100', '919876543210x'])
      expect(pattern.test(phone), phone).toBe(false);
  });
});
