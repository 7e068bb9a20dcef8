/*
 * A store's invoice numbers: one series per Indian financial year (1 April to 31 March, India
 * time), each number `<prefix>/<YY-YY>/<sequence>`, at most 16 characters of letters, digits, `-`
 * and `/` (CGST Rules, rule 46(b): consecutive, unique for a financial year, at most sixteen
 * characters, in one or multiple series). docs/paperwork.md, "The buyer's tax invoice".
 */

/** Rule 46(b)'s limit on an invoice number's length. */
export const INVOICE_NUMBER_MAX = 16;
/** The fewest digits a sequence is written with: 99,999 invoices a year per store before a number grows. */
export const MIN_SEQUENCE_DIGITS = 5;
/** `/25-26/`: the characters between a prefix and its sequence. */
const YEAR_PART = 7;
/** The longest prefix that leaves the sequence its digits within 16 characters. */
export const INVOICE_PREFIX_MAX = INVOICE_NUMBER_MAX - YEAR_PART - MIN_SEQUENCE_DIGITS;
/** Letters and digits, with `-` and `/` between them (rule 46(b)'s characters). */
export const INVOICE_PREFIX_PATTERN = `^[A-Za-z0-9](?:[A-Za-z0-9/-]{0,${INVOICE_PREFIX_MAX - 2}}[A-Za-z0-9])?$`;

const PREFIX = new RegExp(INVOICE_PREFIX_PATTERN);

/** Why a prefix cannot start a store's invoice numbers, or null when it can. */
export function invoicePrefixProblem(prefix: string): string | null {
  if (PREFIX.test(prefix)) return null;
  const why =
    prefix.length > INVOICE_PREFIX_MAX
      ? `${prefix}/25-26/00001 would be ${prefix.length + YEAR_PART + MIN_SEQUENCE_DIGITS} characters`
      : 'it takes only letters, digits, - and /';
  return (
    `must be 1 to ${INVOICE_PREFIX_MAX} letters or digits, with - or / between them: an invoice number is at most ` +
    `${INVOICE_NUMBER_MAX} characters (CGST Rules, rule 46(b)), and ${why}`
  );
}

const IST_MS = 330 * 60 * 1000;

/** The year (2025 for 2025-26) of the Indian financial year `at` falls in, by India's clock. */
export function financialYearOf(at: Date): number {
  const india = new Date(at.getTime() + IST_MS);
  const year = india.getUTCFullYear();
  // January to March belong to the year that began the April before.
  return india.getUTCMonth() < 3 ? year - 1 : year;
}

/** 2025 → "25-26". */
export function financialYearLabel(startYear: number): string {
  const two = (year: number) => String(year % 100).padStart(2, '0');
  return `${two(startYear)}-${two(startYear + 1)}`;
}

/** How many digits a prefix leaves the sequence within 16 characters (at least MIN_SEQUENCE_DIGITS). */
export const sequenceDigits = (prefix: string) =>
  Math.max(MIN_SEQUENCE_DIGITS, INVOICE_NUMBER_MAX - YEAR_PART - prefix.length);

/**
 * The number of a store's `sequence`th invoice of the financial year starting `startYear`: the
 * sequence zero-padded to fill 16 characters ("ACME/25-26/00123"). A sequence past its digits is
 * written whole, longer than 16 characters, never cut (a cut number would repeat an earlier one).
 */
export function invoiceNumber(prefix: string, startYear: number, sequence: number): string {
  return `${prefix}/${financialYearLabel(startYear)}/${String(sequence).padStart(sequenceDigits(prefix), '0')}`;
}
