import type { CarrierEvent } from './carrier-event.js';

/**
 * Delhivery's NSL codes (`StatusCode`) and what each means, by the scan type it comes under.
 * Where the words come from (docs/couriers.md, "Connecting a Delhivery account"):
 *   [s1] manishgiri31/motoxplus, delhivery-reference.md: live captures (index id 59345523566);
 *   [s3] a production aggregator's `class Delhivery`, getShipStatus (index id 53245290456);
 *   [s4] Pickrr's DELHIVERY_NSL_CODE_TO_STATUS_TYPE_MAPPER, code → Delhivery's remark (index id 24501714723);
 *   [s5] WareIQ's delhivery_status_code_mapping_dict (index id 35046236656);
 *   [s7] piercing-wind/gurukirpaayurveda src/lib/example.ts: two live tracking histories.
 * The remark beside each row is Delhivery's own word for the code, from those sources.
 */
export type Mapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'ndr_reason' | 'rto_reason'>;

const ndr = (reason: NonNullable<CarrierEvent['ndr_reason']>): Mapped => ({
  status: 'ndr_raised',
  sub_status: reason,
  ndr_reason: reason,
});
/** A failed attempt whose reason none of the other NDR reasons names (out of delivery area, no id proof, an unknown code). */
export const NDR_OTHER: Mapped = ndr('other');

/** A table's row for a Scan word, whatever its case ("In Transit", "IN TRANSIT", "LOST", "Lost"). */
export function byWord<T>(table: Readonly<Record<string, T>>, word: string | undefined): T | undefined {
  if (word === undefined) return undefined;
  const key = Object.keys(table).find((k) => k.toLowerCase() === word.toLowerCase());
  return key === undefined ? undefined : table[key];
}
const inTransit = (sub_status = 'in_transit'): Mapped => ({ status: 'in_transit', sub_status });

/** Codes under ScanType UD (the way to the buyer). */
export const UD_CODES: Readonly<Record<string, Mapped>> = {
  'X-UCI': { status: 'pending', sub_status: 'pickup_scheduled' }, // Manifest uploaded [s1]
  'FMPUR-101': { status: 'pending', sub_status: 'pickup_scheduled' }, // Pickup scheduled [s7]
  'FMEOD-118': { status: 'pending', sub_status: 'pickup_failed' }, // Seller cancelled order [s4]: a pickup attempt's outcome
  'X-PNP': { status: 'pending', sub_status: 'pickup_failed' }, // Package not picked/received from client [s4]; Not Picked [s1]
  // Seller cancelled the order, Scan "Not Picked" [s1]: what a pre-pickup cancellation leaves in
  // tracking (never "Cancelled"); the seller is the merchant, whether through Dakiya or Delhivery's panel.
  'DTUP-210': { status: 'cancelled', sub_status: 'cancelled_by_merchant' },
  'X-PPOM': inTransit('picked_up'), // Shipment picked up [s7]
  'X-PIOM': inTransit('reached_origin_hub'), // Shipment Recieved at Origin Center [s7]
  'X-DLL2F': inTransit('departed_origin_hub'), // Bag Added To Trip [s7]
  'X-ILL1F': inTransit('reached_destination_hub'), // Bag Received at Facility [s7]
  'X-DDD3FD': { status: 'out_for_delivery', sub_status: 'out_for_delivery' }, // Out for delivery [s7]
  'DLYLH-151': inTransit(), // a line-haul delay (the DLY* codes are delays [s4]); in transit in [s3]
  // Scan "Pending" at a facility, no attempt made: [s3] reads each as in transit.
  'X-IBD3F': inTransit('reached_destination_hub'), // Shipment Received at Facility [s7]
  'ST-105': inTransit(), // Reattempt requested [s5]
  'ST-107': inTransit(), // Reattempt requested [s5]
  'ST-110': inTransit(),
  'ST-115': inTransit(),
  'ST-116': inTransit(),
  'L-PMA': inTransit(),
  'U-PMA': inTransit(),
  'X-UNEX': inTransit(),
  'X-AWD': inTransit(),
  'X-RWD': inTransit(),
  'DTUP-205': inTransit(),
  'DTUP-207': inTransit(),
  'DTUP-209': inTransit(),
  'DLYRG-130': inTransit(), // Region Specific Off [s4]
  'DLYB2B-101': inTransit(),
  'DLYHD-007': inTransit(),
  'DLYDC-102': inTransit(), // Natural Disaster [s4]
  'DLYDC-105': inTransit(),
  // Failed attempts (Scan "Pending"), each with the reason Delhivery's remark gives.
  'EOD-11': ndr('customer_unavailable'), // Consignee unavailable [s4, s5, s7]
  'EOD-86': NDR_OTHER, // Not attempted [s4, s5]: the courier's doing, not the buyer's
  'EOD-74': ndr('address_incomplete'), // Bad/Incomplete Address [s4]; Bad Address [s5]
  'EOD-15': ndr('address_incomplete'), // Consignee moved/shifted [s4]
  // Self Collect [s4]: the buyer is to collect it from Delhivery's centre; no attempt failed at the
  // door for want of the buyer, the address or payment, and the delivery waits on the buyer's
  // own arrangement, which is what future_delivery_requested says.
  'EOD-43': ndr('future_delivery_requested'),
  'EOD-104': ndr('premises_closed'), // Entry restricted area [s4, s5]
  'EOD-6': ndr('refused'), // Customer Refused to accept/Order Cancelled [s4]
  'EOD-6O': ndr('refused'), // OTP verified cancellation [s4]
  'EOD-6I': ndr('refused'), // IVR verified cancellation [s3]
  'EOD-69': ndr('refused'), // Customer asked for open delivery [s4, s5]
  'EOD-111': ndr('refused'), // Consignee opened the package and refused to accept [s4, s5]
  'EOD-3': ndr('future_delivery_requested'), // Asked to reschedule on [s4]; Delivery rescheduled [s5]
  'DLYDC-110': ndr('future_delivery_requested'), // Delivery rescheduled [s5]
  'EOD-16': ndr('cod_not_ready'), // Payment not ready with customer [s4]
  'EOD-40': ndr('cod_not_ready'), // Payment Mode / Amt Dispute [s4]
  'EOD-134': ndr('cod_not_ready'), // Consignee asked for card/wallet on delivery payment [s4]
  'EOD-133': ndr('cod_not_ready'), // Cheque Data Incorrect [s4]
  // OTP code mismatch, OTP not available [s4]: the buyer's phone did not confirm, as Ekart's
  // "OTP Not Received/OTP Mismatch" is read (ekart-scans.ts).
  'EOD-137': ndr('contact_unreachable'),
  'EOD-138': ndr('contact_unreachable'),
  'DLYDC-107': ndr('premises_closed'), // Office/Institute closed [s4, s5]
  'SC-104': ndr('address_incomplete'), // Bad Address [s4]
  'SC-103': ndr('future_delivery_requested'), // Self Collect requested by customer [s4]
  'SC-102': NDR_OTHER, // ODA Shipments [s4]
  'SC-106': NDR_OTHER, // Package marked for self collect [s4]
  'X-SC': NDR_OTHER, // Reached out to customer for Self Collect [s4]
  'DLYDC-132': NDR_OTHER, // Out of Delivery Area (ODA) [s4, s5]: not damage
  'EOD-105': NDR_OTHER, // Consignment seized by consignee [s4]
  'EOD-146': NDR_OTHER, // No Id Proof [s4]
  'ST-108': NDR_OTHER, // Reached maximum attempt count [s5]
};

/** ScanType UD by its Scan word, for codes UD_CODES does not list. */
export const UD_WORDS: Readonly<Record<string, Mapped>> = {
  Manifested: { status: 'pending', sub_status: 'pickup_scheduled' },
  'Not Picked': { status: 'pending', sub_status: 'pickup_failed' },
  'In Transit': inTransit(),
  // A failed attempt under a code no source lists: an NDR, never a hub arrival, so that the
  // merchant is asked (the facility arrivals that are "Pending" are listed above).
  Pending: NDR_OTHER,
  Dispatched: { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  LOST: { status: 'others', sub_status: 'lost' },
};

const rtoStart = (rto_reason?: NonNullable<CarrierEvent['rto_reason']>): Mapped => ({
  status: 'rto_initiated',
  sub_status: 'rto_initiated',
  ...(rto_reason && { rto_reason }),
});

/**
 * Codes under ScanType RT that say why the parcel turned back: the start of the RTO. Any other RT
 * scan is the way back, whatever its code (RT_WORDS).
 */
export const RT_START_CODES: Readonly<Record<string, Mapped>> = {
  'RT-101': rtoStart('merchant_requested'), // Returned as per Client Instructions [s4]
  // Returned as per Security Instructions [s4]: no RTO reason of SPEC's says so; the remark stays
  // in the event's description.
  'RT-113': rtoStart(),
  'RT-107': rtoStart('max_attempts_exceeded'), // Unsuccessful NDR Reattempt [s4]
  'ST-108': rtoStart('max_attempts_exceeded'), // Reached maximum attempt count [s5]; RT in [s3]
  'RT-108': rtoStart(), // No client instructions to Reattempt [s4]
  'RT-109': rtoStart(), // Returned due to poor packaging [s4]
  'RT-106': rtoStart(), // Packaging intact, content mismatch/missing from client at Origin [s4]
  'EOD-6O': rtoStart('customer_refused'), // OTP verified cancellation [s4], RT in [s3]
  'EOD-6I': rtoStart('customer_refused'), // IVR verified cancellation, RT in [s3]
};

const RTO_OUT_FOR_DELIVERY: Mapped = { status: 'rto_in_transit', sub_status: 'rto_out_for_delivery' };

/** ScanType RT by its Scan word: every RT scan is the way back to the seller [s3; source 2]. */
export const RT_WORDS: Readonly<Record<string, Mapped>> = {
  'In Transit': { status: 'rto_in_transit', sub_status: 'rto_in_transit' },
  Pending: { status: 'rto_in_transit', sub_status: 'rto_reached_origin_hub' },
  Dispatched: RTO_OUT_FOR_DELIVERY,
};

/**
 * An RT scan under a code no table lists: the way back, out for delivery to the seller when the
 * code is a dispatch (X-DDD…: Out for delivery; X-DR…R: Dispatched for RTO [s4]).
 */
export function rtoLeg(code: string | undefined, word: string | undefined): Mapped {
  if (code && /^X-(DDD|DR[DO])/.test(code)) return RTO_OUT_FOR_DELIVERY;
  return byWord(RT_WORDS, word) ?? { status: 'rto_in_transit', sub_status: 'rto_in_transit' };
}
