import { describe, expect, it } from 'vitest';
import { amountInWords, indianNumberInWords } from './amount-in-words.js';
import {
  financialYearLabel,
  financialYearOf,
  INVOICE_NUMBER_MAX,
  invoiceNumber,
  invoicePrefixProblem,
} from './invoice-number.js';

describe('an amount in words, in Indian numbering', () => {
  it.each([
    [12_345_678, 'Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Seventy-Eight Paise Only'],
    [100, 'Rupees One Only'],
    [0, 'Rupees Zero Only'],
    [50, 'Rupees Zero and Fifty Paise Only'],
    [1_900, 'Rupees Nineteen Only'],
    [2_100, 'Rupees Twenty-One Only'],
    [10_000, 'Rupees One Hundred Only'],
    [100_100, 'Rupees One Thousand One Only'],
    [129_900, 'Rupees One Thousand Two Hundred Ninety-Nine Only'],
    [5_000_000, 'Rupees Fifty Thousand Only'],
    [5_000_001, 'Rupees Fifty Thousand and One Paise Only'],
    [10_000_000, 'Rupees One Lakh Only'],
    [1_000_000_000, 'Rupees One Crore Only'],
    [
      9_999_999_999,
      'Rupees Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand Nine Hundred Ninety-Nine and Ninety-Nine Paise Only',
    ],
    [
      123_456_789_000,
      'Rupees One Hundred Twenty-Three Crore Forty-Five Lakh Sixty-Seven Thousand Eight Hundred Ninety Only',
    ],
    [100_000_000_000_000, 'Rupees One Lakh Crore Only'],
  ])('%d paise: %s', (paise, words) => {
    expect(amountInWords(paise)).toBe(words);
  });

  it.each([
    [11, 'Eleven'],
    [40, 'Forty'],
    [101, 'One Hundred One'],
    [1_10_000, 'One Lakh Ten Thousand'],
    [10_00_00_000, 'Ten Crore'],
  ])('%d: %s', (n, words) => {
    expect(indianNumberInWords(n)).toBe(words);
  });

  it.each([[-1], [1.5], [Number.NaN]])('refuses %d', (n) => {
    expect(() => amountInWords(n)).toThrow(RangeError);
    expect(() => indianNumberInWords(n)).toThrow(RangeError);
  });
});

describe('the financial year, by India time', () => {
  it.each([
    ['2026-03-31T18:29:59.999Z', 2025, '25-26'], // 31 March 23:59:59 IST
    ['2026-03-31T18:30:00.000Z', 2026, '26-27'], // 1 April 00:00 IST
    ['2026-04-01T00:00:00.000Z', 2026, '26-27'],
    ['2026-12-31T20:00:00.000Z', 2026, '26-27'], // 1 January IST: still 2026-27
    ['2027-01-15T10:00:00.000Z', 2026, '26-27'],
    ['2099-06-01T00:00:00.000Z', 2099, '99-00'],
  ])('%s: %d (%s)', (at, year, label) => {
    expect(financialYearOf(new Date(at))).toBe(year);
    expect(financialYearLabel(year)).toBe(label);
  });
});

describe("a store's invoice numbers", () => {
  it.each([
    ['ACME', 2025, 123, 'ACME/25-26/00123'],
    ['A', 2025, 1, 'A/25-26/00000001'],
    ['AB-1', 2026, 99_999, 'AB-1/26-27/99999'],
    ['ACM', 2025, 123_456, 'ACM/25-26/123456'],
    // Past its digits a sequence is written whole, never cut into an earlier number.
    ['ACME', 2025, 100_000, 'ACME/25-26/100000'],
  ])('%s, %d, %d: %s', (prefix, year, sequence, number) => {
    expect(invoiceNumber(prefix, year, sequence)).toBe(number);
  });

  it('fills 16 characters while the sequence fits', () => {
    for (const prefix of ['A', 'AB', 'A/B', 'ACME'])
      expect(invoiceNumber(prefix, 2025, 1)).toHaveLength(INVOICE_NUMBER_MAX);
  });

  it.each([
    ['ACME', null],
    ['A', null],
    ['a-1', null],
    ['A/B', null],
    ['ACMEX', 'ACMEX/25-26/00001 would be 17 characters'],
    ['A ME', 'it takes only letters, digits, - and /'],
    ['AC_M', 'it takes only letters, digits, - and /'],
    ['-AB', 'it takes only letters, digits, - and /'],
    ['AB/', 'it takes only letters, digits, - and /'],
    ['', 'it takes only letters, digits, - and /'],
  ])('prefix %j: %s', (prefix, why) => {
    const problem = invoicePrefixProblem(prefix);
    if (why === null) expect(problem).toBeNull();
    else expect(problem).toMatch(new RegExp(`${why.replace(/[/.-]/g, '\\$&')}$`));
  });
});
