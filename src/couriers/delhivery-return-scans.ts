import type { CarrierEvent } from './carrier-event.js';
import { byWord } from './delhivery-codes.js';

/**
 * A reverse pickup's scans. Delhivery books a return through the same create call (payment_mode
 * Pickup) and scans it under types of its own: PP before the pickup (Open, Scheduled,
 * Dispatched = out for pickup, Canceled, Closed), PU once picked up (In Transit, Pending,
 * Dispatched = out to the seller), CN cancelled, and DL with Scan DTO when the seller has it back.
 * The types, words and codes are those [s3] maps as ScanType_Scan_StatusCode (PP_SCHEDULED_X-ASP,
 * PU_IN_TRANSIT_EOD-77, DL_DTO_RD-AC, …), with the remarks [s4] gives each (its "R_" rows) and
 * the types source 6 reads (PP|OPEN, PP|SCHEDULED, PP|DISPATCHED, PU|IN TRANSIT, PU|PENDING,
 * PU|DISPATCHED, DL|DTO); no source shows a whole reverse history. Sources as in delhivery-codes.ts.
 */
export type ReturnMapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'qc_status' | 'qc_reason'>;

const scheduled: ReturnMapped = { status: 'return_pickup_scheduled' };
const pickupFailed: ReturnMapped = { status: 'return_pickup_scheduled', sub_status: 'return_pickup_failed' };
const byCourier: ReturnMapped = { status: 'return_cancelled', sub_status: 'return_cancelled_by_courier' };
const byMerchant: ReturnMapped = { status: 'return_cancelled', sub_status: 'return_cancelled_by_merchant' };
const moving = (sub_status: string): ReturnMapped => ({ status: 'return_in_transit', sub_status });

/** PP: the pickup at the buyer's door, by code, then by word. */
export const PP_CODES: Readonly<Record<string, ReturnMapped>> = {
  'EOD-73': pickupFailed, // Bad/Incomplete address [s4]
  'EOD-65': pickupFailed, // Not attempted [s4]
  'EOD-121': pickupFailed, // Entry restricted area [s4]
  'EOD-26': pickupFailed, // Consignee unavailable [s4]
  'DLYDC-107': pickupFailed, // Office/Institute closed [s4]
  'DLYDC-101': pickupFailed, // Heavy Rain/ Fog [s4]
  'DLYDC-102': pickupFailed, // Natural Disaster [s4]
  'EOD-68': { status: 'return_pickup_scheduled', sub_status: 'return_pickup_rescheduled' }, // Request for delayed pickup [s4]
  'CL-102': byMerchant, // As per client's instructions [s4], PP Canceled [s3]
  'CL-103': byMerchant, // As per client's instructions [s4], PP Closed [s3]
};
export const PP_WORDS: Readonly<Record<string, ReturnMapped>> = {
  Open: scheduled, // X-UCO Received soft data for consignment, X-UCI [s3, s4]
  Scheduled: scheduled, // X-ASP Auto scheduled, CL-101 [s4]
  Dispatched: scheduled, // X-DDD3FP Out for pickup, X-DDD3FR Out for Delivery and Pickup [s4]
  Canceled: byCourier,
};

/** PU: picked up and on its way to the seller, by code, then by word. */
export const PU_CODES: Readonly<Record<string, ReturnMapped>> = {
  'EOD-77': { status: 'return_picked_up', sub_status: 'return_picked_up' }, // DTO/REPL: Pick Up Completed [s4]
  'X-PRC': moving('return_reached_hub'), // Package Recieved [s4]
  'EOD-140': moving('return_in_transit'), // Shipments Count Mismatch [s4], in transit in [s3]
};
export const PU_WORDS: Readonly<Record<string, ReturnMapped>> = {
  'In Transit': moving('return_in_transit'), // X-DL…R Added to IST, DLY… delays [s4]
  Pending: moving('return_reached_hub'), // X-IBD…R Bag incoming at return city, RD-PD… at the seller's door [s4]
  Dispatched: moving('return_out_for_delivery'), // X-DR…R Dispatched for DTO [s4]
};

/** The cancellations a QC at the buyer's door ends in: the parcel stays with the buyer [s4]. */
export const QC_FAILED: Readonly<Record<string, string>> = {
  'EOD-84': 'Product description mismatch',
  'EOD-95': 'Damaged/Used product',
  'EOD-108': 'Product count mismatch',
  'EOD-131': 'Brand Mismatch',
  'EOD-132': 'Colour Mismatch',
  'EOD-777': 'RVP QC Fail', // Delhivery_API_2.md, PICKUP_RESCHEDULE (source 6)
};
/** Other CN codes on a return: the courier called the pickup off [s4]. */
export const CN_CODES: Readonly<Record<string, ReturnMapped>> = {
  'EOD-21': byCourier, // Cancelled the pickup request
  'EOD-106': byCourier, // Reached Maximum attempt count
  'ST-109': byCourier, // Out of service area
  'ST-112': byCourier, // Return Center is NSZ
};

const returned: ReturnMapped = { status: 'return_delivered', sub_status: 'return_delivered' };

/**
 * A return's scan by its type: null for a reverse type with no row for its word and code,
 * undefined for a type no reverse pickup uses, which is then read through the forward table
 * (asReturnScan). `type` and `code` come upper case, `word` lower case;
 * `remark` is Delhivery's text of the scan.
 */
export function mapReturnScan(
  type: string | undefined,
  word: string | undefined,
  code: string | undefined,
  remark: string | undefined,
): ReturnMapped | null | undefined {
  const byCode = <T>(table: Readonly<Record<string, T>>) => (code === undefined ? undefined : table[code]);
  switch (type) {
    case 'PP':
      return byCode(PP_CODES) ?? byWord(PP_WORDS, word) ?? null;
    case 'PU':
      // X-IL…R: IST received [s4], a hub on the way back.
      if (code && /^X-IL[DLO]\dR$/.test(code)) return moving('return_reached_hub');
      return byCode(PU_CODES) ?? byWord(PU_WORDS, word) ?? null;
    case 'CN': {
      const qc = byCode(QC_FAILED);
      if (qc)
        return {
          status: 'return_cancelled',
          sub_status: 'qc_failed',
          qc_status: 'failed',
          qc_reason: (remark ?? qc).slice(0, 200),
        };
      return byCode(CN_CODES) ?? (word === 'canceled' || word === 'cancelled' ? byCourier : null);
    }
    case 'DTO': // DTO_DELIVERED_RD-AC [s3]
      return returned;
    case 'DL': // DL_DTO_RD-AC RETURN Accepted, DL_DTO_RT-111 [s3, s4]
      return word === 'dto' ? returned : null;
    case 'LT':
      return { status: 'return_lost', sub_status: 'return_lost' }; // LT-100 Shipment Lost [s4]
    default:
      return undefined;
  }
}
