import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { queryRows } from '../../src/base/db/client.js';
import type { Database } from '../../src/base/db/client.js';

// Database inspection, for "and nothing changed".

export async function countRows(database: Database, table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)}`,
  );
  return Number(row!.n);
}

// --- The account and store tables. ---

/** Every row a store request could touch, in a stable order and comparable form. */
export async function snapshot(database: Database) {
  const db = database.db;
  return {
    accounts: await queryRows(db, sql`select id, name, username from accounts order by id`),
    apiKeys: await queryRows(db, sql`select id, account_id, prefix, revoked_at from api_keys order by id`),
    accessTokens: await queryRows(db, sql`select id, account_id, expires_at from access_tokens order by id`),
    stores: await queryRows(db, sql`select * from stores order by id`),
    storeLogos: await queryRows(
      db,
      sql`select store_id, account_id, content_type, sha256, md5(bytes) as bytes_md5 from store_logos order by store_id`,
    ),
  };
}

/** Runs a request and checks it left every table exactly as it was; returns the response. */
export async function expectUnchanged(
  database: Database,
  request: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  const before = await snapshot(database);
  const response = await request();
  expect(await snapshot(database)).toEqual(before);
  return response;
}

// --- The order tables. ---

/** A timestamp column as an ISO 8601 string: the two drivers hand raw timestamps back differently. */
export const isoColumn = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`);

/** What a shipment row holds of its booking: status, courier, charges (paise), COD, zone, weight, store, times. */
export async function shipmentRow(database: Database, shipmentId: string) {
  const [row] = await queryRows<Record<string, unknown>>(
    database.db,
    sql`select status, sub_status, carrier_id, awb, freight_paise::int as freight, cod_charges_paise::int as cod_charges,
          rto_charges_paise::int as rto_charges, is_cod, cod_amount_paise::int as cod_amount, total_price_paise::int as total_price,
          zone, applied_weight_grams, store_id, channel, ${isoColumn('cancelled_at')}, ${isoColumn('assigned_at')}
        from shipments where id = ${shipmentId}`,
  );
  return row!;
}

/** A shipment's milestones, by name in alphabetical order. */
export async function milestoneNames(database: Database, shipmentId: string): Promise<string[]> {
  const rows = await queryRows<{ milestone: string }>(
    database.db,
    sql`select milestone from shipment_milestones where shipment_id = ${shipmentId} order by milestone`,
  );
  return rows.map((row) => row.milestone);
}

// Counts, for "nothing was written".

export const ORDER_TABLES = ['orders', 'order_items', 'shipments', 'shipment_milestones'] as const;

export async function orderCounts(
  database: Database,
): Promise<Record<(typeof ORDER_TABLES)[number] | 'awb_counters_total', number>> {
  const [row] = await queryRows<Record<string, number | string>>(
    database.db,
    sql`select
      (select count(*) from orders)::int as orders,
      (select count(*) from order_items)::int as order_items,
      (select count(*) from shipments)::int as shipments,
      (select count(*) from shipment_milestones)::int as shipment_milestones,
      (select coalesce(sum(last_value), 0) from awb_counters)::int as awb_counters_total`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)])) as Awaited<
    ReturnType<typeof orderCounts>
  >;
}

/**
 * Runs a request and checks no order, item, shipment or milestone row was written, and no AWB number
 * was drawn. `awbGap`: the request is refused only after a number was drawn (a duplicate order_id on
 * orchestration); the series may then have a gap, by design, but still no row.
 */
export async function expectNothingWritten(
  database: Database,
  request: () => Promise<LightMyRequestResponse>,
  { awbGap = false }: { awbGap?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const before = await orderCounts(database);
  const response = await request();
  const after = await orderCounts(database);
  if (awbGap) {
    expect({ ...after, awb_counters_total: 0 }).toEqual({ ...before, awb_counters_total: 0 });
  } else {
    expect(after).toEqual(before);
  }
  return response;
}

// --- The return tables. ---

/** Returns, their items, and the AWB numbers drawn. */
export async function returnCounts(database: Database) {
  const [row] = await queryRows<Record<string, number | string>>(
    database.db,
    sql`select (select count(*) from returns)::int as returns, (select count(*) from return_items)::int as items,
      (select coalesce(sum(last_value), 0) from awb_counters)::int as awbs`,
  );
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

/**
 * A request that must answer `status` with this one message (naming `field`, if given, and with
 * this `code`, if given), writing no return.
 */
export async function expectReturnRefused(
  database: Database,
  request: () => Promise<LightMyRequestResponse>,
  status: number,
  message: string,
  field?: string,
  code?: string,
) {
  const before = await returnCounts(database);
  const response = await request();
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body.message).toBe(message);
  expect(body.errors).toEqual([message]);
  if (field) expect(body.details).toEqual([{ field, message }]);
  if (code) expect(body.code).toBe(code);
  expect(await returnCounts(database)).toEqual(before);
}

/** A request that must answer 400 with exactly these problems, in this order, writing no return. */
export async function expectReturnProblems(
  database: Database,
  request: () => Promise<LightMyRequestResponse>,
  details: { field: string; message: string }[],
) {
  const before = await returnCounts(database);
  const response = await request();
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({
    code: 'invalid_request',
    message: details[0]!.message,
    errors: details.map((d) => d.message),
    details,
  });
  expect(await returnCounts(database)).toEqual(before);
}
