import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { returnFinished, shipmentColumnsOf, shipmentFinished } from '../../base/db/schema.js';
import type { Link, PersonalTable } from './personal-columns.js';

// The statements of a buyer's erasure, all in the caller's transaction and the account's rows only.
// Table and column names come from the register (personal-columns.ts), never from input.

/** Who is to be erased, as the request named them: a phone's ten digits, an e-mail lower-cased, a merchant order id. */
export interface BuyerQuery {
  phone?: string;
  email?: string;
  orderId?: string;
  /** Orders and returns by their own ids: what the anonymisation job picked. */
  orderRows?: string[];
  returnRows?: string[];
}

/** Everything of the buyer's an event, a message or a copy can belong to. */
export interface Subjects {
  orders: string[];
  shipments: string[];
  returns: string[];
  requests: string[];
  exchanges: string[];
  refunds: string[];
  awbs: string[];
}

const ids = (rows: { id: string | null }[]) => [...new Set(rows.map((r) => r.id).filter((id) => id !== null))];
const uuids = (list: string[]) => sql`${`{${list.join(',')}}`}::uuid[]`;
const texts = (list: readonly string[]) => sql`${`{${list.map((v) => JSON.stringify(v)).join(',')}}`}::text[]`;
const matches = (ask: string | undefined, match: (value: string) => SQL) =>
  ask === undefined ? sql`false` : match(ask);

/**
 * The buyer's orders, shipments, returns, requests, exchanges and refunds: the orders that name
 * the phone (as billing, shipping or alternate phone), the e-mail or the order id, the returns and
 * requests whose pickup does, and everything that hangs off them. The orders are locked, so a
 * change racing the erasure waits for it.
 */
export async function findSubjects(tx: Executor, accountId: string, who: BuyerQuery): Promise<Subjects> {
  const phoneOf = (column: SQL) =>
    matches(who.phone, (p) => sql`right(regexp_replace(coalesce(${column}, ''), '\\D', '', 'g'), 10) = ${p}`);
  const emailOf = (column: SQL) => matches(who.email, (e) => sql`lower(${column}) = ${e}`);
  const orderIdOf = (column: SQL) => matches(who.orderId, (o) => sql`${column} = ${o}`);
  const orders = ids(
    await queryRows<{ id: string }>(
      tx,
      sql`select id from orders where account_id = ${accountId} and (
            ${phoneOf(sql`billing_phone`)} or ${phoneOf(sql`shipping_phone`)} or ${phoneOf(sql`shipping_alternate_phone`)}
            or ${emailOf(sql`billing_email`)} or ${emailOf(sql`shipping_email`)} or ${orderIdOf(sql`merchant_order_id`)}
            or id = any(${uuids(who.orderRows ?? [])}))
          order by id for update`,
    ),
  );
  const shipments = await queryRows<{ id: string; awb: string | null }>(
    tx,
    sql`select id, awb from shipments where account_id = ${accountId} and order_id = any(${uuids(orders)})`,
  );
  const shipmentIds = ids(shipments);
  const returns = await queryRows<{ id: string; awb: string | null }>(
    tx,
    sql`select id, awb from returns where account_id = ${accountId} and (
          forward_shipment_id = any(${uuids(shipmentIds)}) or shipment_id = any(${uuids(shipmentIds)})
          or ${phoneOf(sql`pickup->>'phone'`)} or ${emailOf(sql`pickup->>'email'`)} or ${orderIdOf(sql`merchant_order_id`)}
          or id = any(${uuids(who.returnRows ?? [])}))`,
  );
  const returnIds = ids(returns);
  const requests = ids(
    await queryRows<{ id: string }>(
      tx,
      sql`select id from return_requests where account_id = ${accountId} and (
            shipment_id = any(${uuids(shipmentIds)}) or order_id = any(${uuids(orders)}) or return_id = any(${uuids(returnIds)})
            or ${phoneOf(sql`pickup->>'phone'`)} or ${emailOf(sql`pickup->>'email'`)})`,
    ),
  );
  const exchanges = await queryRows<{ id: string; order_id: string | null; shipment_id: string | null }>(
    tx,
    sql`select id, forward_order_id as order_id, forward_shipment_id as shipment_id from exchanges
        where account_id = ${accountId} and (forward_order_id = any(${uuids(orders)})
          or forward_shipment_id = any(${uuids(shipmentIds)}) or return_id = any(${uuids(returnIds)}))`,
  );
  const refunds = ids(
    await queryRows<{ id: string }>(
      tx,
      sql`select id from refunds where account_id = ${accountId}
          and (request_id = any(${uuids(requests)}) or return_id = any(${uuids(returnIds)}))`,
    ),
  );
  return {
    orders: [...new Set([...orders, ...ids(exchanges.map((e) => ({ id: e.order_id })))])],
    shipments: [...new Set([...shipmentIds, ...ids(exchanges.map((e) => ({ id: e.shipment_id })))])],
    returns: returnIds,
    requests,
    exchanges: ids(exchanges),
    refunds,
    awbs: [...shipments, ...returns].map((s) => s.awb).filter((awb): awb is string => awb !== null),
  };
}

/** The buyer's parcels not finished (booked or still to book; not delivered, returned, cancelled or lost): a courier may still need the address. */
export async function openParcels(
  tx: Executor,
  accountId: string,
  subjects: Subjects,
): Promise<{ id: string; awb: string | null }[]> {
  return queryRows<{ id: string; awb: string | null }>(
    tx,
    sql`select id, awb from shipments where account_id = ${accountId}
          and id = any(${uuids(subjects.shipments)}) and not ${shipmentFinished(shipmentColumnsOf('shipments'))}
        union all
        select id, awb from returns where account_id = ${accountId}
          and id = any(${uuids(subjects.returns)}) and not ${returnFinished(sql.raw('returns.status'))}
        order by awb nulls first, id`,
  );
}

/** The rows a link names, as a condition on the table's own columns. */
function linked(
  link: Link,
  subjects: Subjects,
  holding: { phones: readonly string[]; emails: readonly string[] },
): SQL {
  if ('order' in link) return sql`${sql.identifier(link.order)} = any(${uuids(subjects.orders)})`;
  if ('shipment' in link) return sql`${sql.identifier(link.shipment)} = any(${uuids(subjects.shipments)})`;
  if ('return' in link) return sql`${sql.identifier(link.return)} = any(${uuids(subjects.returns)})`;
  if ('request' in link) return sql`${sql.identifier(link.request)} = any(${uuids(subjects.requests)})`;
  if ('awb' in link) return sql`${sql.identifier(link.awb)} = any(${texts(subjects.awbs)})`;
  if ('subject' in link) {
    const all = [
      ...subjects.orders,
      ...subjects.shipments,
      ...subjects.returns,
      ...subjects.requests,
      ...subjects.exchanges,
      ...subjects.refunds,
    ];
    return sql`${sql.identifier(link.subject)} = any(${uuids(all)})`;
  }
  // A phone as people write it (spaces, brackets, hyphens between its digits), or the e-mail.
  const patterns = [
    ...holding.phones.map((p) => [...p].join('[ ()-]*')),
    ...holding.emails.map((e) => e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
  ];
  if (patterns.length === 0) return sql`false`;
  const pattern = patterns.join('|');
  return sql.join(
    link.holds.map((column) => sql`${sql.identifier(column)}::text ~* ${pattern}`),
    sql` or `,
  );
}

export type Row = Record<string, unknown>;

/** The table's rows of the buyer's, with their key and the columns that may hold the buyer. */
export async function linkedRows(
  tx: Executor,
  accountId: string,
  table: PersonalTable,
  subjects: Subjects,
  holding: { phones: readonly string[]; emails: readonly string[] },
): Promise<Row[]> {
  const columns = [...table.key, ...(table.text ?? []), ...(table.json ?? []), ...(table.clear ?? [])];
  const where = sql.join(
    table.links.map((link) => sql`(${linked(link, subjects, holding)})`),
    sql` or `,
  );
  return queryRows<Row>(
    tx,
    sql`select ${sql.join(
      columns.map((c) => sql.identifier(c)),
      sql`, `,
    )} from ${sql.identifier(table.table)}
        where account_id = ${accountId} and (${where})`,
  );
}

/** Writes a row's scrubbed columns (JSON ones as JSON), found by its key within the account. */
export async function updateRow(
  tx: Executor,
  accountId: string,
  table: PersonalTable,
  row: Row,
  changes: Record<string, unknown>,
): Promise<void> {
  const json = new Set(table.json ?? []);
  const sets = Object.entries(changes).map(([column, value]) =>
    value === null
      ? sql`${sql.identifier(column)} = null`
      : json.has(column)
        ? sql`${sql.identifier(column)} = ${JSON.stringify(value)}::jsonb`
        : sql`${sql.identifier(column)} = ${value as string}`,
  );
  const keys = table.key.map((column) => sql`${sql.identifier(column)} = ${row[column] as string}`);
  await tx.execute(
    sql`update ${sql.identifier(table.table)} set ${sql.join(sets, sql`, `)}
        where account_id = ${accountId} and ${sql.join(keys, sql` and `)}`,
  );
}

/**
 * What is removed rather than scrubbed: the RTO history kept per buyer phone (the phone is its
 * key), and the photos the buyer sent with a return request.
 */
export async function deleteBuyerRows(
  tx: Executor,
  accountId: string,
  subjects: Subjects,
  phones: readonly string[],
): Promise<{ rto_history: number; return_request_photos: number }> {
  const [row] = await queryRows<{ rto_history: number; return_request_photos: number }>(
    tx,
    sql`with history as (
          delete from rto_history where account_id = ${accountId} and kind = 'phone' and key = any(${texts(phones)})
          returning 1
        ),
        photos as (
          delete from return_request_photos where account_id = ${accountId} and request_id = any(${uuids(subjects.requests)})
          returning 1
        )
        select (select count(*) from history)::int as rto_history, (select count(*) from photos)::int as return_request_photos`,
  );
  return row ?? { rto_history: 0, return_request_photos: 0 };
}

/** The account's own contact details (its warehouses' and stores'): copies of them beside a buyer's are kept. */
export async function accountContacts(tx: Executor, accountId: string): Promise<string[]> {
  const rows = await queryRows<{ value: string | null }>(
    tx,
    sql`select unnest(array[name, phone, email, contact_person, street_address]) as value from warehouses where account_id = ${accountId}
        union all
        select unnest(array[store_name, brand_name, support_email, support_phone]) from stores where account_id = ${accountId}`,
  );
  return rows.map((r) => r.value).filter((v): v is string => v !== null && v !== '');
}

/** When the first of the buyer's orders, returns and return requests was written. */
export async function firstWritten(db: Executor, accountId: string, subjects: Subjects): Promise<Date> {
  const [row] = await queryRows<{ at: string | Date }>(
    db,
    sql`select min(at) as at from (
          select min(created_at) as at from orders where account_id = ${accountId} and id = any(${uuids(subjects.orders)})
          union all select min(created_at) from returns where account_id = ${accountId} and id = any(${uuids(subjects.returns)})
          union all select min(created_at) from return_requests where account_id = ${accountId} and id = any(${uuids(subjects.requests)})
        ) firsts`,
  );
  return new Date(row!.at);
}
