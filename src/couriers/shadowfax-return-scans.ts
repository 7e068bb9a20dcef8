import {
  asReturnScan,
  type CarrierEvent,
  type Journey,
  type ParcelScans,
  type ReadScan,
  type UnreadScan,
} from './carrier-event.js';
import { record, text } from './courier-answers.js';
import { mapTrackingDetails, readScan, scanTime, type ShadowfaxTrackDetail } from './shadowfax-scans.js';

/**
 * A reverse pickup's scans in return statuses. Shadowfax tracks a reverse request at GET
 * /api/v4/clients/requests/{id} (a PHP client, index id 56079360066), whose
 * `pickup_request_state_histories` name each `state` in Shadowfax's display words ("Out For
 * Pickup", "Returned To Client"), with `created_at`, `current_location` and `comment` (answers
 * captured for a client account, index id 5990078441; a client's reverse table,
 * Sauravambuskar/parcel-hub55 supabase/functions/shadowfax-tracking/index.ts). Its R… AWB also
 * answers on the forward v4 tracking with `status_id`s, where the way to the seller is the RTS leg
 * (the same capture): that leg is a return's own delivery, not a failed one. Bump the forward
 * table's version (shadowfax-scans.ts) when a row here changes.
 */
type Mapped = Pick<CarrierEvent, 'status' | 'sub_status' | 'qc_status'>;

const scheduled: Mapped = { status: 'return_pickup_scheduled' };
const notCollected: Mapped = { status: 'return_pickup_scheduled', sub_status: 'return_pickup_failed' };
const collected: Mapped = { status: 'return_picked_up', sub_status: 'return_picked_up' };
const moving: Mapped = { status: 'return_in_transit', sub_status: 'return_in_transit' };
const atHub: Mapped = { status: 'return_in_transit', sub_status: 'return_reached_hub' };
const outToWarehouse: Mapped = { status: 'return_in_transit', sub_status: 'return_out_for_delivery' };
const handedBack: Mapped = { status: 'return_delivered', sub_status: 'return_delivered' };

/** By `state`, lower-cased, spaces single. */
export const RETURN_BY_STATE: Readonly<Record<string, Mapped>> = {
  new: scheduled,
  'order received': scheduled,
  assigned: scheduled,
  'out for pickup': scheduled,
  'not contactable': notCollected,
  'not attempted': notCollected,
  'on hold': notCollected,
  cid: { status: 'return_pickup_scheduled', sub_status: 'return_pickup_rescheduled' },
  picked: collected,
  // "Received at hub Successfully": the first scan after a pickup the rider did not scan.
  received: atHub,
  'item added to bag': moving,
  'bag in transit for return': moving,
  'bag received': atHub,
  'bag received at via': atHub,
  'received at return dc': atHub,
  // On a reverse pickup the return to seller is its way to the warehouse.
  'return to seller initiated': moving,
  'received at rts destination hub': atHub,
  'return shipment out for delivery': outToWarehouse,
  // The hand-over at the warehouse failed; Shadowfax comes again.
  undelivered: moving,
  'returned to client': handedBack,
  'qc failed': { status: 'return_cancelled', sub_status: 'qc_failed', qc_status: 'failed' },
  cancelled: { status: 'return_cancelled', sub_status: 'return_cancelled_by_courier' },
  lost: { status: 'return_lost', sub_status: 'return_lost' },
};

/** By `status_id`, for an R… AWB on the forward tracking; the others read as a forward scan would. */
export const RETURN_BY_STATUS_ID: Readonly<Record<string, Mapped>> = {
  new: scheduled,
  assigned_for_seller_pickup: scheduled,
  assigned_for_pickup: scheduled,
  ofp: scheduled,
  picked: collected,
  rts: moving,
  recd_at_rev_hub: atHub,
  item_manifested: moving,
  bag_in_transit: moving,
  in_transit_return: moving,
  rts_in_process: moving,
  rts_nd: moving,
  bag_received: atHub,
  bag_received_at_via: atHub,
  recd_at_dc_rts: atHub,
  received_at_rts_hub: atHub,
  rts_ofd: outToWarehouse,
  rts_d: handedBack,
};

export interface ShadowfaxRequestState {
  state?: unknown;
  created_at?: unknown;
  current_location?: unknown;
  comment?: unknown;
}

const stateKey = (state: string) => state.toLowerCase().replace(/\s+/g, ' ');

/** One entry of a reverse request's history. */
export function readRequestState(entry: ShadowfaxRequestState): Omit<CarrierEvent, 'awb'> | { unread: string } {
  const state = text(entry.state);
  const mapped = state === undefined ? undefined : RETURN_BY_STATE[stateKey(state)];
  if (!mapped) return { unread: `no return status for state '${state ?? String(entry.state)}'` };
  const eventTime = scanTime(entry.created_at);
  if (!eventTime) return { unread: `created_at '${String(entry.created_at)}' is not a time` };
  const location = text(entry.current_location)?.slice(0, 200);
  const comment = text(entry.comment);
  const description = (comment ?? state)?.slice(0, 500);
  return {
    ...mapped,
    ...(mapped.qc_status === 'failed' && {
      qc_reason: (comment ?? "QC failed at the customer's door").slice(0, 200),
    }),
    event_time: eventTime,
    ...(location && { location }),
    ...(description && { description }),
    event_id: `shadowfax:return:${stateKey(state!).replace(/ /g, '_')}:${eventTime}`.slice(0, 100),
  };
}

/** One v4 tracking entry of an R… AWB. */
export function readReturnDetail(detail: ShadowfaxTrackDetail): Omit<CarrierEvent, 'awb'> | { unread: string } {
  const mapped = RETURN_BY_STATUS_ID[text(detail.status_id)?.toLowerCase() ?? ''];
  const reading = readScan(detail);
  if ('unread' in reading) return reading;
  if (!mapped) return asReturnScan({ awb: '', ...reading });
  const { ndr_reason: _n, rto_reason: _r, sub_status: _s, ...rest } = reading;
  return { ...rest, ...mapped };
}

/** A return's scans, whichever way Shadowfax answered them, oldest first; the unreadable kept with why. */
export function mapReturnScans(awb: string, items: readonly unknown[]): ParcelScans {
  const events: ReadScan[] = [];
  const unread: UnreadScan[] = [];
  for (const item of items) {
    const entry = record(item);
    const reading =
      entry === undefined
        ? { unread: 'not a tracking entry' }
        : 'state' in entry
          ? readRequestState(entry)
          : readReturnDetail(entry as ShadowfaxTrackDetail);
    if ('unread' in reading) unread.push({ raw: item, reason: reading.unread });
    else {
      const { awb: _awb, ...event } = reading as CarrierEvent;
      events.push({ ...event, awb, raw: item });
    }
  }
  events.sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time));
  return { events, unread };
}

/** A parcel's scans as Shadowfax answered them (or as they were kept), read for its journey. */
export function readShadowfaxScans(awb: string, journey: Journey, items: readonly unknown[]): ParcelScans {
  return journey === 'return' ? mapReturnScans(awb, items) : mapTrackingDetails(awb, items);
}
