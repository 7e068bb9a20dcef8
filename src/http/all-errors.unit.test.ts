import { describe, expect, it } from 'vitest';
import { withinValues } from './all-errors.js';
import { MAX_REPORTED_ERRORS, validationErrorBody } from './errors.js';
import { describeValidationErrors } from './validation-errors.js';

describe('withinValues: which failing bodies get every error explained', () => {
  it.each([
    [{}, 1, true],
    [{ a: 1 }, 1, false],
    [{ a: 1 }, 2, true],
    [[1, [2, 3]], 5, true],
    [[1, [2, 3]], 4, false],
    [Array.from({ length: 20_000 }, () => ({})), 10_000, false],
  ])('%j within %d values: %s', (value, budget, expected) => {
    expect(withinValues(value, budget)).toBe(expected);
  });
});

describe('the 400 for many problems', () => {
  const missing = (name: string) => ({ keyword: 'required', instancePath: '', params: { missingProperty: name } });
  it('puts missing fields first, then wrong values, then unknown fields, each in the order found', () => {
    const details = describeValidationErrors([
      { keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'colour' } },
      { keyword: 'minLength', instancePath: '/name', params: { limit: 1 } },
      missing('sku'),
      missing('units'),
    ]);
    expect(details.map((d) => d.message)).toEqual([
      'sku is required',
      'units is required',
      'name must be at least 1 character long',
      'colour is not a known field',
    ]);
  });

  it(`lists at most ${MAX_REPORTED_ERRORS} and counts the rest`, () => {
    const body = validationErrorBody(
      describeValidationErrors(Array.from({ length: 70 }, (_, i) => missing(`field_${i}`))),
    );
    expect(body.details).toHaveLength(MAX_REPORTED_ERRORS);
    expect(body.errors).toHaveLength(MAX_REPORTED_ERRORS + 1);
    expect(body.errors.at(-1)).toBe('... and 20 more problems');
    expect(body.message).toBe('field_0 is required');
  });
});
