/**
 * The listing benchmark's bare baseline, in a process of its own: a `node:http` server with a `pg`
 * pool (as many connections as the app's) that answers every request with the first page of the
 * account given, newest first, as the app's unfiltered first page reads it: the exact total from
 * the same counter rows, and the same 21 rows (the page and one more, through the same index) with
 * their order, store, items, milestones and tracking events aggregated by the database
 * (`json_agg`): two statements, sent together, and `JSON.stringify` of what comes back. The cost of
 * the data itself, without our framework, validation, auth or formatting.
 *
 *   DATABASE_URL=… ACCOUNT_ID=… node --import tsx bench/lib/listing-baseline.ts   → prints {"port": N}
 */
import http from 'node:http';
import pg from 'pg';
import { serveBaseline } from './baseline-process.js';

const PER_PAGE = 20;

const COUNT = 'select coalesce(sum(shipments), 0)::int as total from shipment_counts where account_id = $1';
const PAGE = `
  select s.id, s.awb, s.status, s.sub_status, s.created_at, s.expected_delivery_date, s.warehouse_id,
         s.total_price_paise, s.cod_amount_paise, s.is_cod, s.zone, s.applied_weight_grams, s.attempt_count, s.carrier_id,
         o.id as order_id, o.order_date, o.channel, o.merchant_order_id, st.store_name, o.channel_ref, o.vendor_details,
         o.shipping_name, o.shipping_last_name, o.shipping_phone, o.shipping_city, o.shipping_state, o.shipping_pincode,
         (select json_agg(json_build_object('id', i.id, 'quantity', i.units, 'price', i.selling_price_paise, 'name', i.name, 'sku', i.sku) order by i.position)
            from order_items i where i.account_id = $1 and i.order_id = o.id) as items,
         (select json_agg(json_build_object('milestone', m.milestone, 'milestone_at', m.milestone_at) order by m.milestone_at)
            from shipment_milestones m where m.account_id = $1 and m.shipment_id = s.id) as milestones,
         (select json_agg(json_build_object('id', e.id, 'status', e.status, 'last_location', e.location,
                                            'event_date_time', e.event_time, 'description', e.description)
                          order by e.event_time, e.received_at)
            from tracking_events e where e.account_id = $1 and e.shipment_id = s.id) as tracking_details
    from (select id from shipments where account_id = $1 order by created_at desc, id desc limit ${PER_PAGE + 1}) page
    join shipments s on s.id = page.id
    join orders o on o.id = s.order_id
    left join stores st on st.id = s.store_id
   order by s.created_at desc, s.id desc`;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const accountId = process.env.ACCOUNT_ID!;

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', async () => {
    try {
      const [count, page] = await Promise.all([pool.query(COUNT, [accountId]), pool.query(PAGE, [accountId])]);
      const rows = page.rows.slice(0, PER_PAGE);
      const last = rows.at(-1);
      const body = JSON.stringify({
        data: rows,
        meta: {
          current_page: 1,
          per_page: PER_PAGE,
          total: count.rows[0].total,
          next_search_after: page.rows.length > PER_PAGE && last ? [String(last.created_at.getTime()), last.id] : null,
        },
      });
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    } catch (error) {
      response.writeHead(500);
      response.end(String(error));
    }
  });
});
serveBaseline(server, pool);
