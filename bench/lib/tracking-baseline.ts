/**
 * The tracking benchmark's bare baseline, in a process of its own: a `node:http` server with a `pg`
 * pool (as many connections as the app's) that answers every request with one AWB's tracking as a
 * bare server would: three named prepared statements (the shipment with its order's and
 * warehouse's columns the answer shows, by account and AWB; its scans in time order; its NDR
 * actions), then the answer written from the rows with JSON.stringify, in Velocity's shape. What
 * is left between it and Dakiya is ours: framework, auth, validation, logging, the granular status,
 * the courier's name and the links.
 *
 *   DATABASE_URL=… ACCOUNT_ID=… node --import tsx bench/lib/tracking-baseline.ts   → prints {"port": N}
 */
import http from 'node:http';
import pg from 'pg';
import { serveBaseline } from './baseline-process.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const accountId = process.env.ACCOUNT_ID!;

const SHIPMENT = `select s.id, s.awb, s.status, s.sub_status, s.carrier_id, s.attempt_count, s.rto_initiated_at,
    s.applied_weight_grams, s.picked_up_at, s.delivered_at, s.track_token, o.id as order_id,
    o.merchant_order_id, o.shipping_city, o.shipping_name, o.shipping_last_name, w.city as origin
  from shipments s join orders o on o.id = s.order_id join warehouses w on w.id = s.warehouse_id
  where s.account_id = $1 and s.awb = any($2)`;
const SCANS = `select * from tracking_events where account_id = $1 and shipment_id = any($2)
  order by event_time, received_at`;
const ACTIONS = `select * from shipment_actions where account_id = $1 and shipment_id = any($2)
  order by created_at, id`;

interface Shipment {
  id: string;
  awb: string;
  status: string;
  [column: string]: unknown;
}

async function track(awbs: string[]): Promise<string> {
  const { rows } = await pool.query<Shipment>({ name: 'bare_shipment', text: SHIPMENT, values: [accountId, awbs] });
  const ids = rows.map((row) => row.id);
  const scans = await pool.query({ name: 'bare_scans', text: SCANS, values: [accountId, ids] });
  const actions = await pool.query({ name: 'bare_actions', text: ACTIONS, values: [accountId, ids] });
  const answer: Record<string, unknown> = {};
  for (const awb of awbs) {
    const shipment = rows.find((row) => row.awb === awb);
    answer[awb] = shipment
      ? {
          tracking_data: {
            track_status: 1,
            shipment_status: shipment.status,
            shipment_track: [shipment],
            shipment_track_activities: scans.rows.filter((scan) => scan.shipment_id === shipment.id),
            ndr_actions: actions.rows.filter((action) => action.shipment_id === shipment.id),
          },
        }
      : { tracking_data: { track_status: 0, error: `AWB ${awb} not found` } };
  }
  return JSON.stringify(answer);
}

const server = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  request.on('end', async () => {
    try {
      const { awbs } = JSON.parse(body) as { awbs: string[] };
      const text = await track(awbs);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
});
serveBaseline(server, pool);
