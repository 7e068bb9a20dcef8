import { type SQL, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows, queryRows } from '../base/db/client.js';
import type { SubjectType } from '../domain/shipment/event-types.js';

export interface NewEvent {
  type: string;
  subjectType: SubjectType;
  subjectId: string;
  data: unknown;
  createdAt: Date;
}

/** An event as stored, with its place in the log (txid, position). */
export interface StoredEvent {
  id: string;
  accountId: string;
  type: string;
  subjectType: SubjectType;
  subjectId: string;
  sequence: number;
  data: Record<string, unknown>;
  createdAt: Date;
  txid: string;
  position: number;
  /** Its data was not read (the consumer's `reads` or `readsWhen` left it out): `data` is empty. */
  dataSkipped?: true;
}

/** The place of an event in the log: events are read in (txid, position) order. */
export interface LogPosition {
  txid: string;
  position: number;
}

/**
 * Makes the caller's transaction the only one writing events about this subject until it ends.
 * A subject's events are numbered from its last one (insertEvents), and not every writer holds the
 * subject's row lock: a buyer message's outcome is recorded beside a courier scan of the same
 * shipment. Without this, both would read the same last number under READ COMMITTED and the second
 * to commit would fail on the unique key. Taken before the snapshot is read, so each event's
 * snapshot also shows every change before it. The two-int key space is the event log's own: it
 * meets neither the idempotency keys' nor the migration's one-bigint locks.
 */
export async function lockSubject(ex: Executor, subjectId: string): Promise<void> {
  await queryPreparedRows(
    ex,
    sql`select pg_advisory_xact_lock(${SUBJECT_LOCK_CLASS}::int, hashtext(${subjectId}::text)) as locked`,
  );
}

/** The first half of the event log's advisory lock keys: "ev" as a number. */
const SUBJECT_LOCK_CLASS = 0x6576;

/**
 * Appends events about one subject, in order, in one statement (a booking writes two, and each
 * round trip is paid while the booking's transaction is open). Their sequences follow the subject's
 * previous one; the caller holds the subject's lock (lockSubject), so two transactions cannot both
 * compute the same numbers, and the unique key would refuse it if one did.
 */
export async function insertEvents(
  ex: Executor,
  accountId: string,
  subject: { subjectType: SubjectType; subjectId: string },
  events: { type: string; data: unknown }[],
  createdAt: Date,
): Promise<{ id: string }[]> {
  return queryPreparedRows<{ id: string }>(
    ex,
    sql`
    insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at)
    select ${accountId}, e.doc->>'type', ${subject.subjectType}, ${subject.subjectId}, last.sequence + e.n, e.doc->'data',
           ${createdAt.toISOString()}::timestamptz
    from (select coalesce(max(sequence), 0) as sequence from events where account_id = ${accountId} and subject_id = ${subject.subjectId}) as last,
         jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality as e (doc, n)
    order by e.n
    returning id`,
  );
}

/**
 * The first events of a subject its caller's statement is creating, as an INSERT for one of that
 * statement's CTEs: sequences from 1, and each event's data the snapshot (an SQL expression of the
 * same statement, under `key`) with its change merged over it, as insertEvents stores them.
 */
export function newSubjectEvents(
  accountId: string,
  subject: { subjectType: SubjectType; subjectId: string },
  key: string,
  snapshot: SQL,
  events: { type: string; change: object }[],
  createdAt: Date,
): SQL {
  return sql`insert into events (account_id, type, subject_type, subject_id, sequence, data, created_at)
    select ${accountId}, e.doc->>'type', ${subject.subjectType}, ${subject.subjectId}, e.n, jsonb_build_object(${key}::text, ${snapshot}) || (e.doc->'change'),
           ${createdAt.toISOString()}::timestamptz
    from jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality as e (doc, n)
    order by e.n`;
}

/** Appends one event (see insertEvents). */
export async function insertEvent(ex: Executor, accountId: string, event: NewEvent): Promise<{ id: string }> {
  const [row] = await insertEvents(ex, accountId, event, [event], event.createdAt);
  return row!;
}

/**
 * Events become readable only once no transaction that could still commit an earlier one is
 * running: positions are handed out when rows are written, not when they commit, so a reader
 * going by position alone could step past an event that commits a moment later and never see it.
 * Every transaction with an id below the snapshot's xmin has ended, so a row with txid < xmin is
 * final, and any event still to come has a larger txid than all of them.
 */
const SETTLED = sql`txid < pg_snapshot_xmin(pg_current_snapshot())`;

// The columns answer txid as text (a JavaScript number cannot hold an xid8). An ORDER BY naming
// that output would sort the text, "100" before "99": order by events.txid, the number.
const COLUMNS = sql`id, account_id as "accountId", type, subject_type as "subjectType", subject_id as "subjectId",
  sequence, data, created_at as "createdAt", txid::text as txid, position`;

type RawEvent = Omit<StoredEvent, 'createdAt' | 'position'> & { createdAt: Date | string; position: number | string };

const toStored = (row: RawEvent): StoredEvent => ({
  ...row,
  createdAt: new Date(row.createdAt),
  position: Number(row.position),
});

/**
 * Settled events after `after` (all when absent), in log order; of one account when given. With
 * `dataOf`, only events of those types carry their data (the others an empty object): a consumer
 * reads every event to move its cursor past it, but parses the snapshots only of those it acts on.
 */
export async function findSettledEvents(
  ex: Executor,
  filter: {
    accountId?: string;
    after?: LogPosition;
    types?: readonly string[];
    excludeTypes?: readonly string[];
    limit: number;
  },
): Promise<StoredEvent[]> {
  const where: SQL[] = [SETTLED];
  if (filter.accountId) where.push(sql`account_id = ${filter.accountId}`);
  if (filter.after) where.push(sql`(txid, position) > (${filter.after.txid}::xid8, ${filter.after.position}::bigint)`);
  if (filter.types) where.push(sql`type = any(${sql.param([...filter.types])}::text[])`);
  if (filter.excludeTypes) where.push(sql`type <> all(${sql.param([...filter.excludeTypes])}::text[])`);
  const rows = await queryPreparedRows<RawEvent>(
    ex,
    sql`select ${COLUMNS}
        from events where ${sql.join(where, sql` and `)} order by events.txid, events.position limit ${filter.limit}`,
  );
  return rows.map(toStored);
}

/** The log position of one of the account's events; undefined when the id names none of them. */
export async function findEventPosition(
  ex: Executor,
  accountId: string,
  eventId: string,
): Promise<LogPosition | undefined> {
  const [row] = await queryRows<{ txid: string; position: number | string }>(
    ex,
    sql`select txid::text as txid, position from events where account_id = ${accountId} and id = ${eventId}`,
  );
  return row && { txid: row.txid, position: Number(row.position) };
}

export async function findEventsByIds(ex: Executor, ids: string[]): Promise<StoredEvent[]> {
  if (ids.length === 0) return [];
  const rows = await queryPreparedRows<RawEvent>(
    ex,
    sql`select ${COLUMNS} from events where id = any(${sql.param(ids)}::uuid[])`,
  );
  return rows.map(toStored);
}

/**
 * Makes a cursor after the last settled event for a consumer that has none: what the migration
 * that introduces a consumer does on an install that already has events (on a new one the log is
 * empty, so it starts at the beginning). The app's consumers get theirs from the migrations
 * (`event_consumer_cursors`); this is for a reader of the log that no migration knows, a test's own.
 */
export async function registerConsumer(ex: Executor, name: string, now: Date): Promise<void> {
  await ex.execute(sql`
    insert into event_consumers (name, after_txid, after_position, updated_at)
    select ${name}, coalesce(max(txid), '0'::xid8), coalesce(max(position), 0), ${now.toISOString()}::timestamptz
    from (select txid, position from events where ${SETTLED} order by txid desc, position desc limit 1) last
    on conflict (name) do nothing`);
}

/**
 * A batch's size and what of its events' data to read: `dataOf` the types, `dataWhen` a condition
 * on the row (both, when both are given); the others come with `data` empty and `dataSkipped`. The
 * time is the cursor's `updated_at`.
 */
interface TakeOptions {
  dataOf?: readonly string[];
  dataWhen?: SQL;
  limit: number;
  now: Date;
}

/**
 * takeBatch's statement. The batch is a lateral subquery of the cursor, so that its index scan
 * starts at the cursor: joined to it, PostgreSQL walked the whole log from its start and filtered
 * (the database's CPU per booking grew with every round of `npm run bench:bookings`).
 */
export function takeBatchStatement(name: string, { dataOf, dataWhen, limit, now }: TakeOptions): SQL {
  const when = [
    ...(dataOf ? [sql`type = any(${sql.param([...dataOf])}::text[])`] : []),
    ...(dataWhen ? [sql`(${dataWhen})`] : []),
  ];
  // Evaluated once an event (a condition may be a subquery); the data leaves only where it holds.
  const read = when.length > 0 ? sql.join(when, sql` and `) : sql`true`;
  return sql`with cursor as (
      select after_txid, after_position, set_config('synchronous_commit', 'off', true) as unflushed
      from event_consumers where name = ${name} for update skip locked
    ),
    batch as (
      select next.* from cursor, lateral (
        select ${COLUMNS}, ${read} as wanted, events.txid as log_txid
        from events
        where ${SETTLED} and (events.txid, events.position) > (cursor.after_txid, cursor.after_position)
        order by events.txid, events.position limit ${limit}
      ) next
    ),
    moved as (
      update event_consumers set after_txid = last.log_txid, after_position = last.position,
        updated_at = ${now.toISOString()}::timestamptz
      from (select log_txid, position from batch order by log_txid desc, position desc limit 1) last
      where name = ${name}
      returning 1
    )
    select taken.n as taken, batch.id, batch."accountId", batch.type, batch."subjectType", batch."subjectId",
      batch.sequence, case when batch.wanted then batch.data else '{}'::jsonb end as data, batch."createdAt",
      batch.txid, batch.position, not batch.wanted as skipped
    from (select count(*)::int as n from cursor) taken left join batch on true
    order by batch.log_txid, batch.position`;
}

/**
 * A consumer's next batch of settled events (up to `limit`, in log order), its cursor taken for this
 * transaction (FOR UPDATE SKIP LOCKED) and moved past the batch, in one statement: a round of the
 * outbox costs one round trip before the consumer's own work, and the move is undone with the
 * transaction if that work fails. The transaction then commits without waiting for its WAL flush
 * (decision 189): a crash that loses it loses the cursor's move with the work, so the batch is
 * handed again, and whatever acts on that work (a lease, a send's record) commits with its flush
 * first, which makes the round durable before anything leaves the database. Undefined when another
 * process holds the cursor (it is reading the same stream, so this one has nothing to do). A cursor is never made here: one made at a
 * consumer's first read started at "now" and skipped every event recorded before it (the first
 * bookings of a new install, decision 128). A consumer without one is a consumer no migration made:
 * it fails, loudly, every round.
 */
export async function takeBatch(ex: Executor, name: string, options: TakeOptions): Promise<StoredEvent[] | undefined> {
  const rows = await queryPreparedRows<(RawEvent & { taken: number; skipped: boolean }) | { taken: number; id: null }>(
    ex,
    takeBatchStatement(name, options),
  );
  if (rows[0]?.taken === 1)
    return rows.flatMap(({ taken: _, ...row }) => {
      if (row.id === null) return [];
      const { skipped, ...event } = row as RawEvent & { skipped: boolean };
      return [{ ...toStored(event), ...(skipped && { dataSkipped: true as const }) }];
    });
  // Nothing taken: held by another process, or missing. Asked only then, so a round costs nothing more.
  const [held] = await queryPreparedRows<{ name: string }>(
    ex,
    sql`select name from event_consumers where name = ${name}`,
  );
  if (!held)
    throw new Error(`the outbox consumer "${name}" has no cursor: a migration must make its row in event_consumers`);
  return undefined;
}
