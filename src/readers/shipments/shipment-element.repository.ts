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
        from shipments s ${ELEMENT_JOINS}
        where s.account_id = ${accountId} and s.id = any(${`{${shipmentIds.join(',')}}`}::uuid[])`,
  );
}

/**
 * What ELEMENT_COLUMNS reads beside the shipment `s`: its order `o`, its store `st`, and, when it
 * is an exchange's replacement, the exchange `xc` with the old item's return `xr`. The exchange is
 * one left join on unique keys (exchanges_forward_shipment_key, then the return's primary key), so
 * a page costs one index probe per row more, inside the same statement.
 */
export const ELEMENT_JOINS = sql.raw(`join orders o on o.id = s.order_id
        left join stores st on st.id = s.store_id
        left join (exchanges xc join returns xr on xr.id = xc.return_id)
          on xc.forward_shipment_id = s.id and xc.account_id = s.account_id`);

const MILESTONE_ORDER = `'{${[...BOOKING_MILESTONES, ...SHIPMENT_STATUSES.map((status) => MILESTONE_NAMES[status])].join(',')}}'`;

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** Paise as rupees, the division JavaScript does (paiseToRupees): double precision, shortest form. */
const rupees = (column: string) => `${column}::float8 / 100`;

// The database writes JSON compactly only through row_to_json and array_to_json: json_build_object
// and json_agg put spaces around ':' and after ',', and every answer must be written as
// JSON.stringify writes it (these cost the database less than json_build_object, too). A jsonb
// column inside (vendor_details, an action's payload) keeps jsonb's spacing: the service compacts
// those rows (compactJson, compact-json.ts).

/** A JSON object of these `expression as name` columns, in their order. */
const object = (columns: string) => `(select row_to_json(x) from (select ${columns}) x)`;

/** A JSON array (`[]` when empty) of `element` for each row of `from`, in `orderBy` order. */
const array = (element: string, from: string, orderBy: string) =>
  `coalesce((select array_to_json(array_agg(${element} order by ${orderBy})) ${from}), '[]')`;

/**
 * A listing element's attributes, written by the database from the page's row (s: shipment, o: its
 * order, st: its store). The fields only the API process knows (the courier's name from the
 * catalogue; signed or per-request links) are added by the service in its one pass over the rows.
 */
const ATTRIBUTES = sql.raw(
  object(`
  s.awb as tracking_number,
  s.test_mode,
  s.status,
  s.sub_status,
  ${iso('s.created_at')} as created_at,
  s.expected_delivery_date,
  s.warehouse_id,
  ${rupees('s.total_price_paise')} as total_price,
  ${rupees('s.cod_amount_paise')} as cod_amount,
  s.is_cod,
  'zone_' || lower(s.zone) as zone,
  ${object(`s.applied_weight_grams as value, 'g' as metric_unit`)} as applied_weight,
  s.attempt_count,
  s.ndr_reason,
  s.rto_reason,
  -- docs/rto.md: the booking's address checks and risk, and what was done about its NDRs.
  s.address_validity,
  s.address_reasons,
  s.rto_risk,
  s.rto_risk_score,
  s.rto_risk_reasons,
  s.ndr_outcomes as ndr_all_outcomes,
  -- Couriers carry the parcel back under its forward AWB: the RTO leg's AWB is that one, once the RTO began.
  case when s.rto_initiated_at is not null then s.awb end as rto_awb,
  -- Velocity's listing filters by these names (manifested, pickup_id): the pickup that covers it (features/pickups).
  s.pickup_id is not null as manifested,
  s.pickup_id,
  case when s.freight_paise is not null then ${object(`
    ${rupees('s.freight_paise')} as forward_charges,
    ${rupees('coalesce(s.cod_charges_paise, 0)')} as cod_charges,
    ${rupees('(case when s.rto_initiated_at is not null then coalesce(s.rto_charges_paise, 0) else 0 end)')} as rto_charges,
    ${rupees('(s.freight_paise + coalesce(s.cod_charges_paise, 0) + case when s.rto_initiated_at is not null then coalesce(s.rto_charges_paise, 0) else 0 end)')} as total_charges`)} end as fare_breakup,
  -- At most one live return per shipment (returns_forward_shipment_key): it is shown over
  -- cancelled ones, else the latest.
  (select row_to_json(x) from (
    select r.id as return_id, r.awb as awb_code, r.status
      from returns r where r.account_id = s.account_id and r.forward_shipment_id = s.id
     order by r.status <> 'return_cancelled' desc, r.created_at desc limit 1) x) as "return",
  -- An exchange's replacement (features/exchanges): 1 and the exchange with its other leg, the return.
  case when xc.id is null then 0 else 1 end as is_exchange,
  case when xc.id is not null then ${object(`
    xc.id, xc.display_id, xc.unique_id, xc.return_id, xr.awb as return_awb`)} end as exchange,
  ${object(`
    o.id,
    ${iso('o.order_date')} as order_date,
    o.channel,
    o.merchant_order_id as display_id,
    o.merchant_order_id as external_id,
    st.store_name,
    o.channel_ref as channel_id,
    o.channel_order_id,
    o.channel_order_name,
    o.vendor_details`)} as "order",
  ${array(
    object(`i.id, i.units as quantity, ${rupees('i.selling_price_paise')} as price, i.name, i.sku`),
    'from order_items i where i.account_id = s.account_id and i.order_id = o.id',
    'i.position',
  )} as items,
  ${object(`
    concat_ws(' ', nullif(o.shipping_name, ''), nullif(o.shipping_last_name, '')) as name,
    o.shipping_phone as phone,
    o.shipping_alternate_phone as alternate_phone,
    o.shipping_address as address,
    nullif(o.shipping_address_2, '') as address_2,
    o.shipping_city as city,
    o.shipping_state as state,
    o.shipping_pincode as zip`)} as shipping_address,
  -- Booking milestones share instants (order_created and courier_assigned; the two promised
  -- dates): lifecycle order breaks the tie.
  ${array(
    object(`m.milestone, ${iso('m.milestone_at')} as milestone_at`),
    'from shipment_milestones m where m.account_id = s.account_id and m.shipment_id = s.id',
    `m.milestone_at, array_position(${MILESTONE_ORDER}::text[], m.milestone)`,
  )} as shipment_milestones,
  ${array(
    object(
      `a.id, a.action, a.requested_by, ${iso('a.created_at')} as requested_at, ${iso('a.acknowledged_at')} as acknowledged_at,
      case when a.refused_at is not null then 'refused' when a.confirmed_at is not null then 'done'
           when a.acknowledged_at is not null then 'queued' else 'waiting' end as courier_status,
      a.refusal, a.payload as details`,
    ),
    'from shipment_actions a where a.account_id = s.account_id and a.shipment_id = s.id',
    'a.created_at, a.id',
  )} as ndr_actions,
  -- Buyer messaging's order confirmation (consumers/messaging), null when none was asked.
  (select row_to_json(x) from (
    select oc.outcome, oc.held, oc.channel, oc.cod_to_prepaid
      from order_confirmations oc where oc.account_id = s.account_id and oc.shipment_id = s.id) x) as order_confirmation,
  ${array(
    object(`e.id, e.status, e.location as last_location, ${iso('e.event_time')} as event_date_time, e.description`),
    'from tracking_events e where e.account_id = s.account_id and e.shipment_id = s.id',
    'e.event_time, e.received_at',
  )} as tracking_details,
  -- A multi-piece shipment's boxes (docs/tracking.md), read only for an order in several boxes
  -- (o.packages): a one-box row costs no probe more.
  case when o.packages is null then 1 else jsonb_array_length(o.packages) end as box_count,
  case when o.packages is not null then ${array(
    object(`b.box_no, b.awb, b.status, b.sub_status, ${iso('b.status_at')} as status_at`),
    'from shipment_boxes b where b.account_id = s.account_id and b.shipment_id = s.id',
    'b.box_no',
  )} end as boxes`),
);

export const ELEMENT_COLUMNS = sql`s.id, floor(extract(epoch from s.created_at) * 1000)::bigint::text as created_ms, s.carrier_id, s.awb, s.status, s.track_token,
  s.sub_status, s.attempt_count, s.rto_initiated_at is not null as rto_started,
  exists (select 1 from shipment_actions a where a.account_id = s.account_id and a.shipment_id = s.id
          and a.action = 'reattempt' and a.attempt = s.attempt_count) as reattempt_requested,
  ${ATTRIBUTES}::text as attributes`;
