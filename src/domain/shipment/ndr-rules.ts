import type { FieldError } from '../errors.js';
import { formatDay, type IndiaDay, indiaDayOf, type WorkingCalendar } from '../calendar.js';
import { type ShipmentStatus, TRANSITIONS } from './status-machine.js';

/** Velocity's limit: two more tries after the first failed delivery, then the parcel goes back. */
export const MAX_REATTEMPTS = 2;
/** How far ahead a merchant may book the next attempt; couriers plan their routes a few days out. */
export const REATTEMPT_WINDOW_WORKING_DAYS = 3;
/** A reattempt may not move the parcel to another delivery area: the lane was priced and routed for it. */
export const FIXED_ADDRESS_FIELDS = ['pincode', 'city', 'state'] as const;

export interface ReattemptRequest {
  updated_address?: { address_line?: string; landmark?: string; pincode?: string; city?: string; state?: string };
  reattempt_date?: string;
}

export interface ReattemptFacts {
  status: ShipmentStatus;
  attemptCount: number;
  shippingPincode: string;
  /** attempt_count at each earlier reattempt request of the shipment. */
  earlierReattempts: readonly number[];
  /**
   * attempt_count at each address correction the merchant's order update passed on (PUT /order):
   * an instruction to deliver again, so a failed delivery it was made for counts as reattempted.
   */
  correctedAttempts?: readonly number[];
  now: Date;
  calendar: WorkingCalendar;
}

/** The working days (India time) a reattempt may be booked on: the next few after today. */
export function reattemptDays(now: Date, calendar: WorkingCalendar): string[] {
  const days: IndiaDay[] = [];
  let day = indiaDayOf(now);
  while (days.length < REATTEMPT_WINDOW_WORKING_DAYS) {
    day = calendar.nextWorkingDay(day);
    days.push(day);
  }
  return days.map(formatDay);
}

const PINCODE_IN_TEXT = /(?<!\d)[1-9]\d{5}(?!\d)/g;

/** A pincode an address line names other than the shipment's own, if any: the lane cannot change. */
export function otherPincodeIn(addressLine: string, shippingPincode: string): string | undefined {
  return [...addressLine.matchAll(PINCODE_IN_TEXT)].map((m) => m[0]).find((pin) => pin !== shippingPincode);
}

/** The failed deliveries that have had an instruction to deliver again: a reattempt or an address correction. */
type AttemptFacts = Pick<ReattemptFacts, 'status' | 'attemptCount' | 'earlierReattempts' | 'correctedAttempts'>;

const reattemptedAttempts = (facts: AttemptFacts) =>
  new Set([...facts.earlierReattempts, ...(facts.correctedAttempts ?? [])]);

const ALL_USED = `All ${MAX_REATTEMPTS} reattempts allowed for this shipment are used: initiate an RTO instead`;

/** How many reattempts the shipment will have used once this failed delivery is reattempted. */
export const reattemptsUsedWith = (facts: AttemptFacts) =>
  new Set([...reattemptedAttempts(facts), facts.attemptCount]).size;

/** Every reason a reattempt request cannot be carried out, each naming its field; empty when it can. */
export function reattemptProblems(request: ReattemptRequest, facts: ReattemptFacts): FieldError[] {
  const problems: FieldError[] = [];
  if (facts.status !== 'ndr_raised') {
    problems.push({
      field: 'awb',
      message: `Shipment is ${facts.status}: a reattempt can be requested only after a failed delivery (ndr_raised)`,
    });
  } else if (facts.earlierReattempts.length >= MAX_REATTEMPTS) {
    problems.push({ field: 'awb', message: ALL_USED });
  } else if (facts.earlierReattempts.includes(facts.attemptCount)) {
    // A second click for the same failed delivery would spend an attempt the courier never made.
    problems.push({
      field: 'awb',
      message: 'A reattempt is already requested for this failed delivery: wait for the courier to report it',
    });
  } else if (reattemptsUsedWith(facts) > MAX_REATTEMPTS) {
    problems.push({ field: 'awb', message: ALL_USED });
  }
  const address = request.updated_address ?? {};
  for (const field of FIXED_ADDRESS_FIELDS) {
    if (address[field] !== undefined) {
      problems.push({
        field: `updated_address.${field}`,
        message: `The ${field} cannot be changed on a reattempt: initiate an RTO and book a new shipment to the new address`,
      });
    }
  }
  const named = otherPincodeIn(address.address_line ?? '', facts.shippingPincode);
  if (named !== undefined) {
    problems.push({
      field: 'updated_address.address_line',
      message: `address_line names pincode ${named} but the shipment goes to ${facts.shippingPincode}: the pincode and city cannot be changed on a reattempt`,
    });
  }
  if (request.reattempt_date !== undefined) {
    const allowed = reattemptDays(facts.now, facts.calendar);
    if (!allowed.includes(request.reattempt_date)) {
      problems.push({
        field: 'reattempt_date',
        message: `reattempt_date must be one of the next 3 working days: ${allowed.join(', ')}`,
      });
    }
  }
  return problems;
}

/**
 * Why a delivery address corrected after a failed delivery cannot go to the courier, or null. It is
 * an instruction to deliver again, so it needs a failed delivery that waits (ndr_raised) and, unless
 * this failed delivery already has an instruction (a further correction then follows it), a
 * reattempt left. What the address may say is the order update's to check, in its own fields.
 */
export function addressCorrectionProblem(facts: AttemptFacts): string | null {
  if (facts.status !== 'ndr_raised')
    return `Shipment is ${facts.status}: a delivery address can be corrected after pickup only while a failed delivery waits (ndr_raised)`;
  if (reattemptsUsedWith(facts) > MAX_REATTEMPTS) return ALL_USED;
  return null;
}

/** Why an RTO cannot be requested from this status, or null when the status machine allows it. */
export function rtoProblem(status: ShipmentStatus): string | null {
  if (TRANSITIONS[status].includes('rto_initiated')) return null;
  switch (status) {
    case 'pending':
      return 'Shipment is pending (not picked up yet): cancel it with cancel-order instead';
    case 'out_for_delivery':
      return 'Shipment is out_for_delivery: request an RTO once the courier reports the outcome of this attempt';
    case 'rto_initiated':
    case 'rto_in_transit':
      return `Shipment is ${status}: its RTO is already under way`;
    default:
      return `Shipment is ${status} and can no longer be returned to origin`;
  }
}
