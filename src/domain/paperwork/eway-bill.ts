import type { IndiaDay } from '../calendar.js';
import type { EwayBillRules } from './eway-bill-data.js';

/*
 * Rule 138 of the CGST Rules 2017 as it bears on a parcel: whether its movement needs Part A of an
 * e-way bill, and how long a bill stays valid over the parcel's distance. docs/paperwork.md gives
 * each rule with its source.
 */

/** The EBN the portal issues: 12 digits (Ekart's create API documents `ewbn` so). */
export const EWAY_BILL_NUMBER_PATTERN = '^[0-9]{12}$';

export interface ConsignmentLine {
  hsn: string | null;
  /** The line's value as invoiced: units × (price less discount). */
  valuePaise: number;
}

export interface Consignment {
  /** The invoice value, tax included (rule 138, Explanation 2): the order's value as declared. */
  valuePaise: number;
  lines: readonly ConsignmentLine[];
  /** The States of the pickup warehouse and of the delivery address, as the pincode directory names them. */
  fromState: string;
  toState: string;
}

export interface EwayBillNeed {
  needed: boolean;
  /** The value the limit is compared with: the invoice's less its exempt goods. */
  valuePaise: number;
  /** The exempt goods' share (rule 138(14) and its Annexure), not counted. */
  exemptPaise: number;
  limitPaise: number;
  /** Whose limit: rule 138(1)'s, or the State's own for movement within it. */
  limitSetBy: string;
}

const digits = (hsn: string | null) => (hsn ?? '').replace(/[^0-9]/g, '');
const startsWithAny = (hsn: string, prefixes: readonly string[]) => prefixes.some((p) => hsn.startsWith(p));

/**
 * Needed when the consignment's value, less the goods the Annexure exempts, exceeds the limit:
 * ₹50,000 (rule 138(1)), or within a State the State's own where it sets a higher one for these
 * goods. "Exceeding" is strict: ₹50,000.00 needs none, ₹50,000.01 does.
 */
export function ewayBillNeed(consignment: Consignment, rules: EwayBillRules): EwayBillNeed {
  const exemptPrefixes = rules.exempt.map((e) => e.hsnPrefix);
  let exemptPaise = 0;
  const taxable: string[] = [];
  for (const line of consignment.lines) {
    const hsn = digits(line.hsn);
    if (hsn !== '' && startsWithAny(hsn, exemptPrefixes)) exemptPaise += line.valuePaise;
    else taxable.push(hsn);
  }
  exemptPaise = Math.min(exemptPaise, consignment.valuePaise);
  const valuePaise = consignment.valuePaise - exemptPaise;

  let limitPaise = rules.interstateLimitPaise;
  let limitSetBy = 'rule 138(1) of the CGST Rules';
  const state = consignment.fromState === consignment.toState ? rules.stateLimits.get(consignment.toState) : undefined;
  if (state && !taxable.some((hsn) => hsn !== '' && startsWithAny(hsn, state.exceptHsnPrefixes))) {
    limitPaise = state.limitPaise;
    limitSetBy = `${consignment.toState}'s limit within the State (${state.notification})`;
  }
  return { needed: valuePaise > limitPaise, valuePaise, exemptPaise, limitPaise, limitSetBy };
}

/** Rule 138(10), from 1 January 2021 (Notification 94/2020-Central Tax): one day per 200 km or part of it. */
export const KM_PER_VALIDITY_DAY = 200;

export function validityDays(distanceKm: number): number {
  return Math.max(1, Math.ceil(distanceKm / KM_PER_VALIDITY_DAY));
}

/**
 * The last day a bill generated on `generatedOn` is valid: rule 138(10)'s explanation counts each
 * day as ending at midnight of the day after, so n days from a bill of day D run to the end of D + n.
 */
export function lastValidDay(generatedOn: IndiaDay, distanceKm: number): IndiaDay {
  return generatedOn + validityDays(distanceKm);
}
