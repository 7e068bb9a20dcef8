// A year of an account's traffic, written straight into the real tables of a database the server
// has migrated (issue 52). The account, its API key, warehouse, store and webhook endpoint are made
// through the real server first, and a few real bookings: their event snapshot and customer e-mail
// are the templates the generated rows copy, so the rows carry what the app writes, at its size.
//
// Run it with the server stopped: it bulk-loads as one restores a dump (secondary indexes dropped
// and rebuilt after, triggers and foreign-key checks off for the load, counters recomputed once).
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import * as q from './year-sql.js';
import { FIRST_NAMES, LAST_NAMES, STREETS, TAGS, world } from './year-world.js';

export interface FillOptions {
  accountId: string;
  warehouseId: string;
  /** Most orders (85 %) come through this store; without it none has a store. */
  storeId?: string;
  parcelsPerDay: number;
  days: number;
  seed: number;
  /** The real clock's now unless given. */
  now?: Date;
  /** Periods the retention job keeps (its defaults): older deliveries and e-mails are not written. */
  webhookDays?: number;
  emailDays?: number;
  log?: (line: string) => void;
}

export interface FillReport {
  shipments: number;
  rows: Record<string, number>;
  steps: { name: string; ms: number }[];
  totalMs: number;
  databaseBytes: number;
  tableBytes: { table: string; bytes: number }[];
  bytesPerShipment: number;
  statuses: Record<string, number>;
  codShare: number;
}

/** The big tables the load writes, whose secondary indexes are dropped for it and rebuilt after. */
export const BULK_TABLES = [
  'orders',
  'order_items',
  'shipments',
  'tracking_events',
  'shipment_milestones',
  'events',
  'webhook_deliveries',
  'webhook_attempts',
  'notifications',
  'courier_polls',
];

interface Templates {
  snapshot: unknown;
  email?: { subject: string; text: string; html: string; orderId: string; awb: string };
  endpointId?: string;
  warehouseCity: string;
  warehousePincode: string;
  awbOffsets: Record<string, number>;
  orderOffset: number;
}

async function readTemplates(client: pg.Client, opts: FillOptions): Promise<Templates> {
  const one = async <T>(text: string, params: unknown[]) => (await client.query(text, params)).rows[0] as T | undefined;
  const warehouse = await one<{ city: string; pincode: string }>(
    'select city, pincode from warehouses where id = $1 and account_id = $2',
    [opts.warehouseId, opts.accountId],
  );
  if (!warehouse) throw new Error(`warehouse ${opts.warehouseId} is not the account's`);
  const booked = await one<{ data: unknown }>(
    `select data from events where account_id = $1 and type = 'shipment.booked' order by created_at desc limit 1`,
    [opts.accountId],
  );
  if (!booked) throw new Error('the account has no real booking to copy the event snapshot from: book one first');
  const email = await one<{ subject: string; text: string; html: string; orderId: string; awb: string }>(
    `select n.subject, n.body_text as text, n.body_html as html, o.merchant_order_id as "orderId", s.awb
       from notifications n join shipments s on s.id = n.shipment_id join orders o on o.id = s.order_id
      where n.account_id = $1 and n.status in ('outbox', 'sent') and n.notify_event = 'shipped' and n.body_html is not null
      order by n.created_at desc limit 1`,
    [opts.accountId],
  );
  const endpoint = await one<{ id: string }>(
    `select id from webhook_endpoints where account_id = $1 and status = 'enabled' and deleted_at is null order by created_at limit 1`,
    [opts.accountId],
  );
  const counters = (await client.query<{ carrier_id: string; last_value: string }>('select * from awb_counters')).rows;
  const orders = await one<{ n: number }>('select count(*)::int as n from orders where account_id = $1', [
    opts.accountId,
  ]);
  return {
    snapshot: booked.data,
    email,
    endpointId: endpoint?.id,
    warehouseCity: warehouse.city,
    warehousePincode: warehouse.pincode,
    awbOffsets: Object.fromEntries(counters.map((c) => [c.carrier_id, Number(c.last_value)])),
    orderOffset: 100_000 + orders!.n,
  };
}

export async function fillYear(client: pg.Client, opts: FillOptions): Promise<FillReport> {
  const log = opts.log ?? (() => {});
  const now = opts.now ?? new Date();
  const shipments = Math.round(opts.parcelsPerDay * opts.days);
  const steps: { name: string; ms: number }[] = [];
  const rows: Record<string, number> = {};
  const started = performance.now();
  const step = async (name: string, text: string, params: unknown[] = []) => {
    const t = performance.now();
    const result = await client.query(text, params);
    steps.push({ name, ms: performance.now() - t });
    if (result.command === 'INSERT') rows[name] = (rows[name] ?? 0) + (result.rowCount ?? 0);
    log(`  ${name}: ${result.rowCount ?? ''} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return result;
  };

  const templates = await readTemplates(client, opts);
  const reference = {
    ...world(templates.warehousePincode, opts.seed),
    first: FIRST_NAMES,
    last: LAST_NAMES,
    streets: STREETS,
    tags: TAGS,
  };
  await client.query(
    `set synchronous_commit = off; set maintenance_work_mem = '1GB'; set work_mem = '256MB';
     set max_parallel_workers_per_gather = 0; set jit = off; set session_replication_role = replica`,
  );
  await client.query('select setseed($1)', [((opts.seed % 2000) - 1000) / 1000]);
  for (const statement of q.REFERENCE_TABLES.split(';\n')) await client.query(statement, [JSON.stringify(reference)]);
  const span = opts.days * 86_400;
  await step('plan', q.PLAN, [
    shipments,
    now,
    span,
    templates.orderOffset,
    opts.storeId ?? null,
    JSON.stringify(templates.awbOffsets),
  ]);

  const indexes = (
    await client.query<{ name: string; def: string }>(
      `select c.relname as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
        where t.relname = any($1) and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
      [BULK_TABLES],
    )
  ).rows;
  for (const index of indexes) await client.query(`drop index "${index.name}"`);

  const account = opts.accountId;
  await step('orders', q.ORDERS, [account, opts.warehouseId]);
  await step('order_items', q.ORDER_ITEMS, [account]);
  await step('shipments', q.SHIPMENTS, [account, opts.warehouseId, now]);
  await step('tracking_events', q.TRACKING_EVENTS, [account, templates.warehouseCity, now]);
  await step('shipment_milestones', q.MILESTONES, [account]);
  await step('events', q.EVENTS, [account, JSON.stringify(templates.snapshot), now]);
  await step('cursors', q.CURSORS_PAST_FILL, [now]);
  if (templates.endpointId) {
    await step('webhook_deliveries', q.WEBHOOK_DELIVERIES, [
      account,
      templates.endpointId,
      now,
      opts.webhookDays ?? 30,
    ]);
    await step('webhook_attempts', q.WEBHOOK_ATTEMPTS, [account, now]);
  }
  if (templates.email) {
    const e = templates.email;
    await step('notifications', q.NOTIFICATIONS, [
      account,
      now,
      opts.emailDays ?? 90,
      e.subject,
      e.text,
      e.html,
      e.orderId,
      e.awb,
    ]);
  }
  await step('courier_polls', q.COURIER_POLLS, [account, now]);
  await step('rto_history', q.RTO_HISTORY, [account]);
  await step('awb_counters', q.AWB_COUNTERS);
  await client.query('set session_replication_role = default');

  const indexStarted = performance.now();
  for (const index of indexes) await client.query(index.def);
  steps.push({ name: `${indexes.length} indexes rebuilt`, ms: performance.now() - indexStarted });
  log(`  ${indexes.length} indexes rebuilt in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`);
  await step('shipment counters, daily and monthly totals (rebuilt)', 'select dakiya_rebuild_shipment_counts()');
  const vacuumStarted = performance.now();
  for (const table of [
    ...BULK_TABLES,
    'shipment_counts',
    'shipment_facet_counts',
    'shipment_daily_totals',
    'shipment_monthly_totals',
    'rto_history',
  ])
    await client.query(`vacuum (analyze) ${table}`);
  steps.push({ name: 'vacuum analyze', ms: performance.now() - vacuumStarted });
  const totalMs = performance.now() - started;

  const statuses = Object.fromEntries(
    (
      await client.query<{ status: string; n: number }>(
        'select status, count(*)::int as n from shipments where account_id = $1 group by 1 order by 2 desc',
        [account],
      )
    ).rows.map((r) => [r.status, r.n]),
  );
  const cod = (
    await client.query<{ share: number }>(
      'select avg(is_cod::int)::float8 as share from shipments where account_id = $1',
      [account],
    )
  ).rows[0]!.share;
  const [size] = (await client.query<{ bytes: string }>('select pg_database_size(current_database()) as bytes')).rows;
  const tableBytes = (
    await client.query<{ table: string; bytes: string }>(
      `select relname as table, pg_total_relation_size(c.oid) as bytes from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc limit 14`,
    )
  ).rows.map((r) => ({ table: r.table, bytes: Number(r.bytes) }));
  await client.query('drop table y_plan, y_dest, y_courier, y_sku, y_step, y_tmpl, y_state, y_mile, y_out, y_names');
  const databaseBytes = Number(size!.bytes);
  return {
    shipments,
    rows,
    steps,
    totalMs,
    databaseBytes,
    tableBytes,
    bytesPerShipment: databaseBytes / shipments,
    statuses,
    codShare: cod,
  };
}

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;

/** The report as lines: rows per table, time, sizes, bytes per shipment. */
export function describeFill(report: FillReport): string[] {
  const total = report.shipments;
  const counted = Object.values(report.statuses).reduce((sum, n) => sum + n, 0);
  return [
    `filled ${total.toLocaleString('en-US')} shipments in ${(report.totalMs / 1000).toFixed(1)} s`,
    ...Object.entries(report.rows).map(
      ([table, n]) =>
        `  ${table.padEnd(26)} ${n.toLocaleString('en-US').padStart(12)} rows (${(n / total).toFixed(2)} per shipment)`,
    ),
    `  statuses (the account's ${counted.toLocaleString('en-US')}, real bookings too): ${Object.entries(report.statuses)
      .map(([s, n]) => `${s} ${((100 * n) / counted).toFixed(1)} %`)
      .join(', ')}; COD ${(100 * report.codShare).toFixed(1)} %`,
    `  steps: ${report.steps.map((s) => `${s.name} ${(s.ms / 1000).toFixed(1)} s`).join(', ')}`,
    `  database ${mib(report.databaseBytes)}: ${Math.round(report.bytesPerShipment).toLocaleString('en-US')} bytes per shipment`,
    ...report.tableBytes.map((t) => `  ${t.table.padEnd(26)} ${mib(t.bytes).padStart(10)} (with indexes and TOAST)`),
  ];
}
