// The statements of the year generator (year-traffic.ts). Every row is made by PostgreSQL itself
// (INSERT … SELECT over generate_series and the small reference tables of year-world.ts), so a
// year of a large account is minutes of the database's work, not a stream from Node.
//
// Parameters shared by the statements: the plan (y_plan, one row per shipment) is made first; the
// others read it. `$now` is the real clock's now, so every time is in the past for the server.

/** The reference tables, from one JSON document ($1) of year-world.ts's world(). */
export const REFERENCE_TABLES = `
create temp table y_dest as select * from jsonb_to_recordset($1::jsonb->'destinations')
  as x (i int, pincode text, city text, state text, zone text);
create temp table y_courier as select * from jsonb_to_recordset($1::jsonb->'couriers')
  as x (i int, id text, name text, prefix text, upto float8, max_grams int, first_slab int, add_slab int, prices jsonb, cod_fixed int, cod_bp int);
create temp table y_sku as select * from jsonb_to_recordset($1::jsonb->'skus')
  as x (i int, name text, sku text, price_paise int, grams int);
create temp table y_step as select * from jsonb_to_recordset($1::jsonb->'steps')
  as x (t int, k int, status text, sub text, hours float8, loc text, ndr text, rto text);
create temp table y_tmpl as select x.*, (select array_agg(s.hours order by s.k) from y_step s where s.t = x.t) as hrs
  from jsonb_to_recordset($1::jsonb->'templates') as x (t int, kind text, upto float8, steps int);
create temp table y_state as select * from jsonb_to_recordset($1::jsonb->'states')
  as x (t int, reached int, status text, sub_status text, attempt_count int, ndr_reason text, rto_reason text,
        picked_k int, delivered_k int, cancelled_k int, rto_initiated_k int, rto_delivered_k int, refused int);
create temp table y_mile as select * from jsonb_to_recordset($1::jsonb->'milestones') as x (t int, k int, milestone text);
create temp table y_out as select * from jsonb_to_recordset($1::jsonb->'outbox') as x (t int, k int, seq int, type text, notify text);
create temp table y_names as select (select array_agg(v) from jsonb_array_elements_text($1::jsonb->'first') v) as first,
  (select array_agg(v) from jsonb_array_elements_text($1::jsonb->'last') v) as last,
  (select array_agg(v) from jsonb_array_elements_text($1::jsonb->'streets') v) as streets,
  (select array_agg(v) from jsonb_array_elements_text($1::jsonb->'tags') v) as tags,
  (select array_agg(upto order by i) from y_courier) as courier_upto,
  (select array_agg(upto order by t) from y_tmpl) as tmpl_upto`;

/**
 * One row per shipment: every draw, in created_at order. $1 shipments, $2 now, $3 the span in
 * seconds, $4 the account's order-number offset, $5 the store's id (or null), $6 each carrier's last
 * AWB number handed out (JSON). The seed is set before, with setseed.
 */
export const PLAN = `
create temp table y_plan as
with draws as (
  select n, $2::timestamptz - make_interval(secs => $3::float8) + make_interval(secs => (n - 1 + random()) * ($3::float8 - 3600) / $1::int) as created_at,
         random() as r_dest, random() as r_courier, random() as r_tmpl, random() as r_f, random() as r_cod,
         random() as r_lines, random() as r_s1, random() as r_s2, random() as r_s3, random() as r_units,
         random() as r_first, random() as r_last, random() as r_phone, random() as r_email, random() as r_tag,
         random() as r_store, random() as r_od, random() as r_addr
  from generate_series(1, $1::int) n
), shaped as (
  select d.*, gen_random_uuid() as shipment_id, gen_random_uuid() as order_id,
         'YR-' || ($4::int + n) as merchant_order_id,
         date_trunc('minute', d.created_at - make_interval(mins => floor(r_od * 36 * 60)::int)) as order_date,
         floor(r_dest * 3000)::int as dest_i,
         least(width_bucket(r_tmpl, array_prepend(0::float8, names.tmpl_upto)), array_length(names.tmpl_upto, 1)) - 1 as t,
         names.first[1 + floor(r_first * array_length(names.first, 1))::int] as first_name,
         case when r_last < 0.9 then names.last[1 + floor(r_last / 0.9 * array_length(names.last, 1))::int] end as last_name,
         (6 + floor(r_phone * 4))::text || lpad(floor(random() * 1000000000)::bigint::text, 9, '0') as phone,
         (1 + floor(r_addr * 400)::int)::text || ', ' || names.streets[1 + floor(random() * array_length(names.streets, 1))::int] as address,
         r_cod < 0.6 as cod,
         case when r_tag < 0.3 then array[names.tags[1 + floor(r_tag / 0.3 * array_length(names.tags, 1))::int]] else '{}'::text[] end as tags,
         case when r_store < 0.85 then $5::uuid end as store_id,
         floor(power(r_s1, 2.5) * 400)::int as s1,
         case when r_lines >= 0.7 then (floor(power(r_s2, 2.5) * 400)::int + 131) % 400 end as s2,
         case when r_lines >= 0.9 then (floor(power(r_s3, 2.5) * 400)::int + 257) % 400 end as s3,
         case when r_units < 0.8 then 1 when r_units < 0.95 then 2 else 3 end as u1,
         least(width_bucket(r_courier, array_prepend(0::float8, names.courier_upto)), array_length(names.courier_upto, 1)) - 1 as courier_i
  from draws d, y_names names
), priced as (
  select s.*, dst.pincode, dst.city, dst.state, dst.zone,
         k1.price_paise * s.u1 + coalesce(k2.price_paise, 0) + coalesce(k3.price_paise, 0) as sub_total,
         k1.grams * s.u1 + coalesce(k2.grams, 0) + coalesce(k3.grams, 0) + 50 as dead_grams,
         (select array_agg(distinct v) from unnest(array[k1.sku, k2.sku, k3.sku]) v where v is not null) as skus,
         case when s.r_email < 0.7 then lower(replace(s.first_name || '.' || coalesce(s.last_name, 'in') || (s.n % 997)::text, '''', '')) || '@' ||
           (array['gmail.com', 'gmail.com', 'gmail.com', 'yahoo.co.in', 'outlook.com', 'rediffmail.com'])[1 + (s.n % 6)::int] end as email
  from shaped s join y_dest dst on dst.i = s.dest_i join y_sku k1 on k1.i = s.s1
  left join y_sku k2 on k2.i = s.s2 left join y_sku k3 on k3.i = s.s3
), sized as (
  select p.*, dims.l, dims.b, dims.h, greatest(p.dead_grams, dims.l * dims.b * dims.h / 5.0) as applied
  from priced p, lateral (select case when p.dead_grams > 3000 then 40 when p.dead_grams > 800 then 30 else 20 end as l,
                                 case when p.dead_grams > 3000 then 30 when p.dead_grams > 800 then 20 else 15 end as b,
                                 case when p.dead_grams > 3000 then 20 when p.dead_grams > 800 then 10 else 5 end as h) dims
), couriered as (
  -- A service that cannot carry the weight gives way to Delhivery Surface, which carries any parcel here.
  select z.*, c.id as carrier_id, c.name as carrier_name, c.prefix, c.first_slab, c.add_slab, c.prices, c.cod_fixed, c.cod_bp,
         tm.hrs, tm.steps,
         (0.75 + z.r_f * 0.5) * (case z.zone when 'A' then 0.6 when 'B' then 0.8 when 'C' then 1 when 'D' then 1.2 else 1.6 end) as f
  from sized z join y_tmpl tm on tm.t = z.t
  join y_courier c on c.id = (select case when cc.max_grams >= z.applied then cc.id else 'CARDELHSURF01' end from y_courier cc where cc.i = z.courier_i)
)
select c.*,
       (select count(*)::int from unnest(c.hrs) h where c.created_at + make_interval(secs => h * c.f * 3600) <= $2::timestamptz - interval '1 minute') as reached,
       c.prefix || lpad((row_number() over (partition by c.carrier_id order by c.n) + coalesce(($6::jsonb->>c.carrier_id)::bigint, 0))::text, 10, '0') as awb_number,
       (c.prices->c.zone->>0)::bigint + greatest(0, ceil((c.applied - c.first_slab) / c.add_slab))::bigint * (c.prices->c.zone->>1)::bigint as freight,
       case when c.cod then greatest(c.cod_fixed, round(c.sub_total * c.cod_bp / 10000.0))::bigint else 0 end as cod_charges
from couriered c`;

const stepTime = (k: string) => `p.created_at + make_interval(secs => p.hrs[${k}] * p.f * 3600)`;

export const ORDERS = `
insert into orders (id, account_id, merchant_order_id, store_id, warehouse_id, channel, order_date, payment_method,
  sub_total_paise, cod_collectible_paise, billing_name, billing_last_name, billing_address, billing_city, billing_pincode,
  billing_state, billing_country, billing_email, billing_phone, shipping_is_billing, shipping_name, shipping_last_name,
  shipping_address, shipping_city, shipping_pincode, shipping_state, shipping_country, shipping_email, shipping_phone,
  length_cm, breadth_cm, height_cm, weight_grams, tags, print_label, created_at)
select p.order_id, $1::uuid, p.merchant_order_id, p.store_id, $2::uuid, 'manual_order', p.order_date, case when p.cod then 'cod' else 'prepaid' end,
  p.sub_total, case when p.cod then p.sub_total else 0 end, p.first_name, p.last_name, p.address, p.city, p.pincode,
  p.state, 'India', p.email, p.phone, true, p.first_name, p.last_name,
  p.address, p.city, p.pincode, p.state, 'India', p.email, p.phone,
  p.l, p.b, p.h, p.dead_grams, p.tags, true, p.created_at
from y_plan p order by p.n`;

export const ORDER_ITEMS = `
insert into order_items (account_id, order_id, position, name, sku, units, selling_price_paise, discount_paise)
select $1::uuid, p.order_id, line.position, k.name, k.sku, line.units, k.price_paise, 0
from y_plan p cross join lateral (values (0, p.s1, p.u1), (1, p.s2, 1), (2, p.s3, 1)) as line (position, sku_i, units)
join y_sku k on k.i = line.sku_i
order by p.n, line.position`;

export const SHIPMENTS = `
insert into shipments (id, account_id, order_id, warehouse_id, store_id, channel, order_date, status, sub_status, zone, is_cod,
  cod_amount_paise, total_price_paise, applied_weight_grams, carrier_id, awb, freight_paise, cod_charges_paise, rto_charges_paise,
  attempt_count, ndr_reason, rto_reason, skus, tags, search_text, created_at, updated_at, assigned_at, picked_up_at, delivered_at,
  cancelled_at, rto_initiated_at, rto_delivered_at, expected_pickup_date, expected_delivery_date, routing_code, test_mode,
  address_validity, address_reasons, rto_risk, rto_risk_score, rto_risk_reasons, allocation)
select p.shipment_id, $1::uuid, p.order_id, $2::uuid, p.store_id, 'manual_order', p.order_date, st.status, st.sub_status, p.zone, p.cod,
  case when p.cod then p.sub_total else 0 end, p.sub_total, p.applied, p.carrier_id, p.awb_number, p.freight, p.cod_charges, p.freight,
  st.attempt_count, st.ndr_reason, st.rto_reason,
  p.skus, p.tags,
  lower(concat_ws(' ', p.awb_number, p.merchant_order_id, p.order_id::text, p.first_name, p.last_name, p.phone, p.email, p.city, p.pincode)),
  p.created_at,
  case when p.reached = 0 then p.created_at else least($3::timestamptz, ${stepTime('p.reached')} + make_interval(secs => 30 + (p.n * 7 + p.reached * 13) % 270)) end,
  p.created_at,
  ${stepTime('st.picked_k')}, ${stepTime('st.delivered_k')}, ${stepTime('st.cancelled_k')}, ${stepTime('st.rto_initiated_k')}, ${stepTime('st.rto_delivered_k')},
  ((p.created_at at time zone 'Asia/Kolkata')::date + 1), ((p.created_at at time zone 'Asia/Kolkata')::date + 2 + ascii(p.zone) - 65),
  'SBX/' || left(p.pincode, 3), true,
  'valid', '{}'::text[], 'low', case when p.cod then 20 else 0 end,
  case when p.cod then '[{"points":20,"reason":"cod"}]'::jsonb else '[]'::jsonb end,
  jsonb_build_object('rule', null, 'ruleId', null, 'strategy', 'cheapest', 'reason', 'the account has no active rules: ' || p.carrier_name)
from y_plan p join y_state st on st.t = p.t and st.reached = p.reached
order by p.n`;

export const TRACKING_EVENTS = `
insert into tracking_events (account_id, shipment_id, status, sub_status, event_time, location, description, ndr_reason, rto_reason, event_id, received_at)
select $1::uuid, p.shipment_id, s.status, s.sub, ${stepTime('s.k')},
  case s.loc when 'o' then $2::text when 'oh' then $2::text || ' Hub' when 'h1' then 'Nagpur Hub' when 'h2' then 'Hyderabad Hub'
             when 'dh' then p.city || ' Hub' else p.city end,
  initcap(replace(s.sub, '_', ' ')), s.ndr, s.rto, p.awb_number || '-' || s.k,
  least($3::timestamptz, ${stepTime('s.k')} + make_interval(secs => 30 + (p.n * 7 + s.k * 13) % 270))
from y_plan p join y_step s on s.t = p.t and s.k <= p.reached
order by p.n, s.k`;

export const MILESTONES = `
insert into shipment_milestones (account_id, shipment_id, milestone, milestone_at)
select $1::uuid, p.shipment_id, b.milestone, case when b.milestone like '%expected%'
  then (((p.created_at at time zone 'Asia/Kolkata')::date + 2 + ascii(p.zone) - 65)::timestamp at time zone 'Asia/Kolkata') else p.created_at end
from y_plan p, (values ('order_created'), ('courier_assigned'), ('expected_delivery_date'), ('original_expected_delivery_date')) b (milestone)
union all
select $1::uuid, p.shipment_id, m.milestone, ${stepTime('m.k')}
from y_plan p join y_mile m on m.t = p.t and m.k <= p.reached`;

/**
 * The outbox: shipment.created and shipment.booked at booking, then a status_changed (and the
 * milestone event beside it) at each change of status, in time order. Each carries the snapshot of
 * a real booking's event ($2) with the shipment's own id, AWB and status set in it.
 */
export const EVENTS = `
insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at)
select $1::uuid, e.type, 'shipment', e.shipment_id, e.seq,
  jsonb_set(jsonb_set(jsonb_set($2::jsonb, '{shipment,id}', to_jsonb(e.shipment_id::text)),
    '{shipment,attributes,tracking_number}', to_jsonb(e.awb_number)), '{shipment,attributes,status}', to_jsonb(e.status))
    || case when e.seq > 2 then jsonb_build_object('to', e.status) else jsonb_build_object('awb', e.awb_number) end,
  e.at
from (
  select p.shipment_id, p.awb_number, b.seq, b.type, 'pending' as status, p.created_at as at
  from y_plan p, (values (1, 'shipment.created'), (2, 'shipment.booked')) b (seq, type)
  union all
  select p.shipment_id, p.awb_number, o.seq, o.type, s.status,
    least($3::timestamptz, ${stepTime('o.k')} + make_interval(secs => 31 + (p.n * 7 + o.k * 13) % 270))
  from y_plan p join y_out o on o.t = p.t and o.k <= p.reached join y_step s on s.t = o.t and s.k = o.k
) e order by e.at`;

/** Puts every outbox consumer's cursor after the log's last event: the fill's history is not sent again. */
export const CURSORS_PAST_FILL = `
update event_consumers c set after_txid = last.txid, after_position = last.position, updated_at = $1::timestamptz
from (select txid, position from events order by txid desc, position desc limit 1) last`;

/** One delivery per event of the webhook retention's period ($4 days), answered 204 at the first attempt. */
export const WEBHOOK_DELIVERIES = `
insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
select $1::uuid, $2::uuid, e.id, 'succeeded', 1, null, e.created_at + interval '40 ms', e.created_at + interval '80 ms'
from events e where e.account_id = $1::uuid and e.created_at >= $3::timestamptz - make_interval(days => $4::int)
  and e.created_at < $3::timestamptz - interval '5 minutes' order by e.created_at`;

export const WEBHOOK_ATTEMPTS = `
insert into webhook_attempts (account_id, delivery_id, status_code, duration_ms, error, attempted_at)
select d.account_id, d.id, 204, 20 + (abs(hashtext(d.id::text)) % 60), null, d.updated_at
from webhook_deliveries d where d.account_id = $1::uuid and d.created_at < $2::timestamptz - interval '5 minutes'
  and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id)`;

/**
 * The customer e-mails of the e-mail retention's period ($3 days), kept in the outbox as a server
 * without SMTP_URL keeps them: shipped at booking, then each moment a customer hears of. Subject
 * and bodies are a real e-mail's ($4, $5, $6) with the order id and AWB put in.
 */
export const NOTIFICATIONS = `
insert into notifications (account_id, shipment_id, event_id, event_type, notify_event, channel, recipient, status, skip_reason,
  attempts, created_at, updated_at, subject, body_text, body_html)
select $1::uuid, e.subject_id, e.id, e.type, n.notify, 'email', o.shipping_email,
  case when o.shipping_email is null then 'skipped' else 'outbox' end, case when o.shipping_email is null then 'no_email_address' end,
  case when o.shipping_email is null then 0 else 1 end, e.created_at + interval '50 ms', e.created_at + interval '90 ms',
  case when o.shipping_email is not null then replace(replace($4::text, $7::text, o.merchant_order_id), $8::text, s.awb) end,
  case when o.shipping_email is not null then replace(replace($5::text, $7::text, o.merchant_order_id), $8::text, s.awb) end,
  case when o.shipping_email is not null then replace(replace($6::text, $7::text, o.merchant_order_id), $8::text, s.awb) end
from events e
join y_plan p on p.shipment_id = e.subject_id
join lateral (select case when e.type = 'shipment.booked' then 'shipped'
                          else (select yo.notify from y_out yo where yo.t = p.t and yo.seq = e.sequence) end as notify) n on n.notify is not null
join shipments s on s.id = e.subject_id join orders o on o.id = s.order_id
where e.account_id = $1::uuid and e.created_at >= $2::timestamptz - make_interval(days => $3::int)
  and e.created_at < $2::timestamptz - interval '5 minutes'`;

/**
 * The tracking poller's queue: a row for every shipment not yet at a terminal status. Their next
 * poll is after the benchmark ($2, a day on), since the sandbox courier has no books of these parcels.
 */
export const COURIER_POLLS = `
insert into courier_polls (subject_id, journey, shipment_id, account_id, carrier_id, awb, booked_at, next_poll_at)
select p.shipment_id, 'forward', p.shipment_id, $1::uuid, p.carrier_id, p.awb_number, p.created_at,
  $2::timestamptz + interval '1 day' + make_interval(secs => (p.n % 900))
from y_plan p join y_state st on st.t = p.t and st.reached = p.reached
where st.status not in ('delivered', 'rto_delivered', 'cancelled')`;

/** rto_history as the tracking intake keeps it: deliveries, RTOs and refused attempts per phone, pincode and district. */
export const RTO_HISTORY = `
insert into rto_history (account_id, kind, key, delivered, rto, refused)
select $1::uuid, k.kind, k.key, sum(x.delivered)::int, sum(x.rto)::int, sum(x.refused)::int
from (select p.phone, p.pincode, p.state || '|' || p.city as district,
             (st.status = 'delivered')::int as delivered, (st.status like 'rto\\_%')::int as rto, st.refused
      from y_plan p join y_state st on st.t = p.t and st.reached = p.reached) x,
     lateral (values ('phone', x.phone), ('pincode', x.pincode), ('district', x.district)) k (kind, key)
group by k.kind, k.key
having sum(x.delivered) + sum(x.rto) + sum(x.refused) > 0
on conflict (account_id, kind, key) do update set delivered = rto_history.delivered + excluded.delivered,
  rto = rto_history.rto + excluded.rto, refused = rto_history.refused + excluded.refused`;

/** Each carrier's series past the fill's last number, so that new bookings draw fresh AWBs. */
export const AWB_COUNTERS = `
insert into awb_counters (carrier_id, last_value)
select carrier_id, max(substring(awb_number from 4)::bigint) from y_plan group by carrier_id
on conflict (carrier_id) do update set last_value = greatest(awb_counters.last_value, excluded.last_value)`;
