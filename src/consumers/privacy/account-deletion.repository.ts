import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { accountTables } from './account-tables.js';

// The statements of an account's deletion. Which tables hold an account's rows, and in which order
// they can go, is read from the database's own catalogue: a table added later is deleted from
// without a line here.

/** Credentials go first, so the account stops writing while the rest is deleted. */
const FIRST = ['access_tokens', 'panel_sessions', 'api_keys', 'two_factor_logins'];

/** The deletion's schedule goes with the account's own row, so that a run that stops half-way is found by the next. */
const WITH_THE_ACCOUNT = 'account_deletions';

/**
 * Every table with an `account_id`, children before the tables they reference, credentials first;
 * the schedule and the account itself last (deleteAccountRow).
 */
export async function deletionOrder(db: Executor): Promise<string[]> {
  const tables = (await accountTables(db)).filter((table) => table !== WITH_THE_ACCOUNT);
  const edges = await queryRows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public' and c.relname <> p.relname`,
  );
  const left = new Set(tables);
  const order: string[] = [];
  const referenced = (table: string) => edges.some((e) => e.parent === table && left.has(e.child));
  while (left.size > 0) {
    const free = [...left].filter((table) => !referenced(table));
    if (free.length === 0) throw new Error(`the foreign keys among ${[...left].join(', ')} form a cycle`);
    const next = free.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))[0]!;
    order.push(next);
    left.delete(next);
  }
  return order;
}
const rank = (table: string) => (FIRST.includes(table) ? FIRST.indexOf(table) : FIRST.length);

/** Up to `limit` of the account's rows of `table` (a name from deletionOrder, never input), deleted. */
export async function deleteBatch(db: Executor, table: string, accountId: string, limit: number): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from ${sql.identifier(table)}
        where ctid = any(array(select ctid from ${sql.identifier(table)} where account_id = ${accountId} limit ${limit}))
        returning 1 as one`,
  );
  return rows.length;
}

/** The sandbox courier's parcels of the account's AWBs (a multi-piece shipment's boxes' too): kept by AWB alone, so gone before the shipments that name them. */
export async function deleteSandboxParcels(db: Executor, accountId: string): Promise<number> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from sandbox_parcels where awb in (
          select awb from shipments where account_id = ${accountId} and awb is not null
          union select awb from shipment_boxes where account_id = ${accountId}
          union select awb from returns where account_id = ${accountId} and awb is not null)
        returning 1 as one`,
  );
  return rows.length;
}

/** The account's deletion schedule and its own row, once nothing else references it (the caller's transaction holds both). */
export async function deleteAccountRow(
  tx: Executor,
  accountId: string,
): Promise<{ schedules: number; accounts: number }> {
  const schedules = await queryRows<{ one: number }>(
    tx,
    sql`delete from ${sql.identifier(WITH_THE_ACCOUNT)} where account_id = ${accountId} returning 1 as one`,
  );
  const accounts = await queryRows<{ one: number }>(
    tx,
    sql`delete from accounts where id = ${accountId} returning 1 as one`,
  );
  return { schedules: schedules.length, accounts: accounts.length };
}

export async function closeLogin(db: Executor, accountId: string): Promise<void> {
  await db.execute(sql`update accounts set password_hash = null where id = ${accountId}`);
}

export interface Scheduled {
  requested_at: string;
  due_at: string;
}

export async function scheduled(db: Executor, accountId: string): Promise<Scheduled | undefined> {
  const [row] = await queryRows<Scheduled>(
    db,
    sql`select requested_at, due_at from account_deletions where account_id = ${accountId}`,
  );
  return row;
}

export async function schedule(db: Executor, accountId: string, requestedAt: Date, dueAt: Date): Promise<void> {
  await db.execute(
    sql`insert into account_deletions (account_id, requested_at, due_at)
        values (${accountId}, ${requestedAt.toISOString()}::timestamptz, ${dueAt.toISOString()}::timestamptz)
        on conflict (account_id) do update set requested_at = excluded.requested_at, due_at = excluded.due_at`,
  );
}

export async function unschedule(db: Executor, accountId: string): Promise<boolean> {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`delete from account_deletions where account_id = ${accountId} returning 1 as one`,
  );
  return rows.length > 0;
}

/** Accounts whose deletion is due, oldest first. */
export async function due(db: Executor, now: Date): Promise<string[]> {
  const rows = await queryRows<{ account_id: string }>(
    db,
    sql`select account_id from account_deletions where due_at <= ${now.toISOString()}::timestamptz order by due_at`,
  );
  return rows.map((r) => r.account_id);
}

export async function accountName(db: Executor, accountId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(db, sql`select name from accounts where id = ${accountId}`);
  return row?.name;
}
