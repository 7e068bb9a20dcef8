import { sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../../base/db/client.js';
import { BOOKING_MILESTONES, MILESTONE_NAMES, SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';

// The listing element of a shipment, as one statement's columns: the listing's page and the event
// log's snapshots both select ELEMENT_COLUMNS, so they cannot drift apart.

/** A shipment as the database writes its listing element; the service adds what only it knows. */
export interface ElementRow {
  id: string;
  /** created_at in milliseconds, as the keyset cursor carries it. */
  created_ms: string;
  carrier_id: string | null;
  awb: string | null;
  status: string;
  /** The secret of the customer's tracking link. */
  track_token: string;
  // The facts of its granular status (granular-statuses.ts), which the service names.
  sub_status: string | null;
  attempt_count: number;
  rto_started: boolean;
  reattempt_requested: boolean;
  /** The attributes the database knows, as one JSON object's text (see ATTRIBUTES). */
  attributes: string;
}

/** These shipments as the listing writes them, by the same statement's columns (event snapshots). */
export function findElements(db: Executor, accountId: string, shipmentIds: string[]): Promise<ElementRow[]> {
  if (shipmentIds.length === 0) return Promise.resolve([]);
  return queryPreparedRows<ElementRow>(
    db,
    sql`select ${ELEMENT_COLUMNS}
        from shipments s
        join orders o on o.id = s.order_id
        left join stores st on st.id = s.store_id
        where s.account_id = ${accountId} and s.id = any(${`{${shipmentIds.join(',')}}`}::uuid[])`,
  );
}

const MILESTONE_ORDER = `'{${[...BOOKING_MILESTONES, ...SHIPMENT_STATUSES.map((status) => MILESTONE_NAMES[status])].join(',')}}'`;

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Paise as rupees, the division JavaScript does (paiseToRupees): double precision, shortest form. */
const rupees = (column: string) => `${column}::float8 / 100`;

/**
 * A listing element's attributes, written by the database from the page's row (s: shipment, o: its
 * order, st: its store). The fields only the API process knows (the courier's name from the
 * catalogue; signed or per-request links) are added by the service in its one pass over the rows.
 */
const ATTRIBUTES = sql.raw(`json_build_object(
  'tracking_number', s.awb,
  'test_mode', s.test_mode,
  'status', s.status,
  'sub_status', s.sub_status,
  'created_at', ${iso('s.created_at')},
  'expected_delivery_date', s.expected_delivery_date,
  'warehouse_id', s.warehouse_id,
  'total_price', ${rupees('s.total_price_paise')},
  'cod_amount', ${rupees('s.cod_amount_paise')},
  'is_cod', s.is_cod,
  'zone', 'zone_' || lower(s.zone),
  'applied_weight', json_build_object('value', s.applied_weight_grams, 'metric_unit', 'g'),
  'attempt_count', s.attempt_count,
  'ndr_reason', s.ndr_reason,
  'rto_reason', s.rto_reason,
  -- Couriers carry the parcel back under its forward AWB: the RTO leg's AWB is that one, once the RTO began.
  'rto_awb', case when s.rto_initiated_at is not null then s.awb end,
  'fare_breakup', case when s.freight_paise is not null then json_build_object(
    'forward_charges', ${rupees('s.freight_paise')},
    'cod_charges', ${rupees('coalesce(s.cod_charges_paise, 0)')},
    'rto_charges', ${rupees('(case when s.rto_initiated_at is not null then coalesce(s.rto_charges_paise, 0) else 0 end)')},
    'total_charges', ${rupees('(s.freight_paise + coalesce(s.cod_charges_paise, 0) + case when s.rto_initiated_at is not null then coalesce(s.rto_charges_paise, 0) else 0 end)')}) end,
  'return', (
    -- At most one live return per shipment (returns_forward_shipment_key): it is shown over
    -- cancelled ones, else the latest.
    select json_build_object('return_id', r.id, 'awb_code', r.awb, 'status', r.status)
      from returns r where r.account_id = s.account_id and r.forward_shipment_id = s.id
     order by r.status <> 'return_cancelled' desc, r.created_at desc limit 1),
  'order', json_build_object(
    'id', o.id,
    'order_date', ${iso('o.order_date')},
    'channel', o.channel,
    'display_id', o.merchant_order_id,
    'external_id', o.merchant_order_id,
    'store_name', st.store_name,
    'channel_id', o.channel_ref,
    'vendor_details', o.vendor_details),
  'items', coalesce((
    select json_agg(json_build_object('id', i.id, 'quantity', i.units, 'price', ${rupees('i.selling_price_paise')}, 'name', i.name, 'sku', i.sku)
                    order by i.position)
      from order_items i where i.account_id = s.account_id and i.order_id = o.id), '[]'),
  'shipping_address', json_build_object(
    'name', concat_ws(' ', nullif(o.shipping_name, ''), nullif(o.shipping_last_name, '')),
    'phone', o.shipping_phone,
    'city', o.shipping_city,
    'state', o.shipping_state,
    'zip', o.shipping_pincode),
  'shipment_milestones', coalesce((
    -- Booking milestones share instants (order_created and courier_assigned; the two promised
    -- dates): lifecycle order breaks the tie.
    select json_agg(json_build_object('milestone', m.milestone, 'milestone_at', ${iso('m.milestone_at')})
                    order by m.milestone_at, array_position(${MILESTONE_ORDER}::text[], m.milestone))
      from shipment_milestones m where m.account_id = s.account_id and m.shipment_id = s.id), '[]'),
  'ndr_actions', coalesce((
    select json_agg(json_build_object('id', a.id, 'action', a.action, 'requested_by', a.requested_by,
                                      'requested_at', ${iso('a.created_at')}, 'acknowledged_at', ${iso('a.acknowledged_at')},
                                      'details', a.payload)
                    order by a.created_at, a.id)
      from shipment_actions a where a.account_id = s.account_id and a.shipment_id = s.id), '[]'),
  'tracking_details', coalesce((
    select json_agg(json_build_object('id', e.id, 'status', e.status, 'last_location', e.location,
                                      'event_date_time', ${iso('e.event_time')}, 'description', e.description)
                    order by e.event_time, e.received_at)
      from tracking_events e where e.account_id = s.account_id and e.shipment_id = s.id), '[]'))`);

export const ELEMENT_COLUMNS = sql`s.id, floor(extract(epoch from s.created_at) * 1000)::bigint::text as created_ms, s.carrier_id, s.awb, s.status, s.track_token,
  s.sub_status, s.attempt_count, s.rto_initiated_at is not null as rto_started,
  exists (select 1 from shipment_actions a where a.account_id = s.account_id and a.shipment_id = s.id
          and a.action = 'reattempt' and a.attempt = s.attempt_count) as reattempt_requested,
  ${ATTRIBUTES}::text as attributes`;
