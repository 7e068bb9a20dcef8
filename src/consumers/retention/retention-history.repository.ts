import { sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../base/db/client.js';
import { returnFinished, shipmentColumnsOf, shipmentFinished } from '../../base/db/schema.js';

// The pruning of history: couriers' scans of finished parcels and the event log's old entries.
// Unlike the logs of retention.repository.ts, neither is a plain "older than" delete: a parcel keeps
// its last scan, and an event goes only once nothing can still need it.

/** A parcel of either kind, its scans' table and when it is finished. */
const HISTORIES = {
  shipments: {
    scans: 'tracking_events',
    owner: 'shipment_id',
    // A multi-piece shipment's boxes each keep their last scan (box_no 0: the shipment's own).
    history: 'e.shipment_id, e.box_no',
    finished: shipmentFinished(shipmentColumnsOf('shipments')),
  },
  returns: {
    scans: 'return_events',
    owner: 'return_id',
    history: 'e.return_id',
    finished: returnFinished(sql.raw('returns.status')),
  },
} as const;

export type HistoryOwner = keyof typeof HISTORIES;

/**
 * Up to `parcels` shipments (or returns) finished and last changed before `cutoff` lose every scan
 * but their last (by its place in their history; each box's last on a multi-piece shipment), and are stamped so that no run takes them again:
 * one statement, so a parcel is never stamped without its scans going, nor the reverse. The parcel's
 * own columns (status, its times, the milestones) keep what the scans told. Parcels another process
 * holds are skipped, not waited for. `owner`, and so every name spliced in, is this file's own.
 */
export async function pruneFinishedHistories(
  db: Executor,
  owner: HistoryOwner,
  { cutoff, parcels, now }: { cutoff: Date; parcels: number; now: Date },
): Promise<{ parcels: number; scans: number }> {
  const { scans, finished } = HISTORIES[owner];
  const table = sql.raw(owner);
  const scanTable = sql.raw(scans);
  const ownerColumn = sql.raw(HISTORIES[owner].owner);
  const history = sql.raw(HISTORIES[owner].history);
  const [row] = await queryRows<{ parcels: number; scans: number }>(
    db,
    sql`with picked as (
          select id, account_id from ${table}
          where history_pruned_at is null and ${finished} and updated_at < ${cutoff.toISOString()}::timestamptz
          order by updated_at
          limit ${parcels}
          for no key update skip locked
        ),
        last as (
          select distinct on (${history}) e.id from ${scanTable} e
          join picked p on e.account_id = p.account_id and e.${ownerColumn} = p.id
          order by ${history}, e.event_time desc, e.received_at desc, e.id desc
        ),
        gone as (
          delete from ${scanTable} e using picked p
          where e.account_id = p.account_id and e.${ownerColumn} = p.id and e.id not in (select id from last)
          returning 1
        ),
        stamped as (
          update ${table} t set history_pruned_at = ${now.toISOString()}::timestamptz
          from picked p where t.id = p.id
          returning 1
        )
        select (select count(*) from stamped)::int as parcels, (select count(*) from gone)::int as scans`,
  );
  return row ?? { parcels: 0, scans: 0 };
}

/** A place in the event log's commit order (events.repository.ts): where a run of the pruning has reached. */
export interface LogPlace {
  txid: string;
  position: number;
}

/** The references that keep an event (each table goes by a retention of its own first). */
const REFERENCED = (event: string) =>
  sql.raw(`(exists (select 1 from webhook_deliveries d where d.event_id = ${event})
  or exists (select 1 from notifications n where n.event_id = ${event})
  or exists (select 1 from channel_writebacks w where w.event_id = ${event}))`);

/**
 * The next `window` events in commit order after `after` that every outbox consumer has read, and
 * of those, deletes the ones written before `cutoff` that nothing needs any more: a later event of
 * the same subject exists (the next one's sequence follows the subject's last: that one stays), and
 * no webhook delivery, customer e-mail or store write-back still names it. Answers how many went,
 * and where the window ended (null: the log is read to its end) with the time of its last event,
 * which tells the caller when the cutoff is passed: the log is in commit order, and its times follow
 * that order to within a transaction's length. `passable` is where the window's run of events that
 * went or stay only as their subject's last ends (null: the first event stays for another reason:
 * within its period, or named by a delivery, e-mail or write-back); `blocked` whether one such came
 * in the window. A later run may start after `passable`: of the events before it, only one whose
 * subject has a newer event can go, which pruneRevivedEvents finds from the newer one.
 */
export async function pruneEventWindow(
  db: Executor,
  { cutoff, after, window }: { cutoff: Date; after: LogPlace | null; window: number },
): Promise<{
  events: number;
  scanned: number;
  end: (LogPlace & { createdAt: Date }) | null;
  passable: LogPlace | null;
  blocked: boolean;
}> {
  const from = after ?? { txid: '0', position: 0 };
  const [row] = await queryRows<{
    events: number;
    scanned: number;
    txid: string | null;
    position: number | null;
    created_at: string | null;
    passable_txid: string | null;
    passable_position: number | null;
    blocked: boolean;
  }>(
    db,
    sql`with read_by_all as (
          select after_txid, after_position from event_consumers order by after_txid, after_position limit 1
        ),
        -- A lateral subquery of the consumers' place, so that its index scan stops after the
        -- window: joined to it, the window was the whole rest of the log, sorted (PostgreSQL
        -- guessed a few dozen rows in the range; at a year's 4.8 million, 6.6 s a window).
        slice as (
          select w.* from read_by_all r, lateral (
            select e.id, e.account_id, e.subject_id, e.sequence, e.created_at, e.txid, e.position,
              e.created_at < ${cutoff.toISOString()}::timestamptz and not ${REFERENCED('e.id')} as unneeded
            from events e
            where (e.txid, e.position) > (${from.txid}::xid8, ${from.position}::bigint)
              and (e.txid, e.position) <= (r.after_txid, r.after_position)
            order by e.txid, e.position
            limit ${window}
          ) w
        ),
        doomed as (
          select s.id from slice s
          where s.unneeded
            and exists (select 1 from events later where later.account_id = s.account_id
                          and later.subject_id = s.subject_id and later.sequence > s.sequence)
        ),
        gone as (
          delete from events e using doomed d where e.id = d.id
          returning 1
        ),
        -- Ordered by the column: the output's name is its text, which sorts "999" after "1000".
        slice_end as (
          select s.txid::text as txid, s.position, s.created_at from slice s order by s.txid desc, s.position desc limit 1
        ),
        blocker as (
          select txid, position from slice where not unneeded order by txid, position limit 1
        ),
        passable as (
          select s.txid::text as txid, s.position from slice s
          where not exists (select 1 from blocker b where (s.txid, s.position) >= (b.txid, b.position))
          order by s.txid desc, s.position desc limit 1
        )
        select (select count(*) from gone)::int as events, (select count(*) from slice)::int as scanned,
          slice_end.txid, slice_end.position, slice_end.created_at,
          (select txid from passable) as passable_txid, (select position from passable) as passable_position,
          exists (select 1 from blocker) as blocked
        from (select 1) one left join slice_end on true`,
  );
  if (!row?.txid || row.position === null || row.created_at === null)
    return { events: 0, scanned: 0, end: null, passable: null, blocked: false };
  return {
    events: row.events,
    scanned: row.scanned,
    end: { txid: row.txid, position: Number(row.position), createdAt: new Date(row.created_at) },
    passable: row.passable_txid === null ? null : { txid: row.passable_txid, position: Number(row.passable_position) },
    blocked: row.blocked,
  };
}

/**
 * The events a run that started after `behind` did not walk and may now delete: those before it,
 * written before `cutoff`, that nothing names, whose subject has a newer event among the next
 * `window` settled events after `after` (null: the log's start). Before `behind` every event that
 * stayed was its subject's last and named by nothing (pruneEventWindow's `passable`): a newer event
 * of its subject is the one thing that lets it go. Answers how many went and where the window ended
 * (null: no settled event after `after`).
 */
export async function pruneRevivedEvents(
  db: Executor,
  { cutoff, behind, after, window }: { cutoff: Date; behind: LogPlace; after: LogPlace | null; window: number },
): Promise<{ events: number; scanned: number; end: LogPlace | null }> {
  const from = after ?? { txid: '0', position: 0 };
  const [row] = await queryRows<{ events: number; scanned: number; txid: string | null; position: number | null }>(
    db,
    sql`with newer as (
          select n.account_id, n.subject_id, n.sequence, n.txid, n.position from events n
          where (n.txid, n.position) > (${from.txid}::xid8, ${from.position}::bigint)
            and n.txid < pg_snapshot_xmin(pg_current_snapshot())
          order by n.txid, n.position
          limit ${window}
        ),
        doomed as (
          select distinct o.id from newer n
          join events o on o.account_id = n.account_id and o.subject_id = n.subject_id and o.sequence < n.sequence
          where (o.txid, o.position) <= (${behind.txid}::xid8, ${behind.position}::bigint)
            and o.created_at < ${cutoff.toISOString()}::timestamptz and not ${REFERENCED('o.id')}
        ),
        gone as (
          delete from events e using doomed d where e.id = d.id
          returning 1
        ),
        newer_end as (
          select n.txid::text as txid, n.position from newer n order by n.txid desc, n.position desc limit 1
        )
        select (select count(*) from gone)::int as events, (select count(*) from newer)::int as scanned,
          newer_end.txid, newer_end.position
        from (select 1) one left join newer_end on true`,
  );
  if (!row?.txid || row.position === null) return { events: 0, scanned: 0, end: null };
  return { events: row.events, scanned: row.scanned, end: { txid: row.txid, position: Number(row.position) } };
}

/** The last settled event's place (none can still commit before it), or null on an empty log. */
export async function settledLogEnd(db: Executor): Promise<LogPlace | null> {
  const [row] = await queryRows<{ txid: string; position: number | string }>(
    db,
    sql`select txid::text as txid, position from events where txid < pg_snapshot_xmin(pg_current_snapshot())
        order by events.txid desc, events.position desc limit 1`,
  );
  return row ? { txid: row.txid, position: Number(row.position) } : null;
}
