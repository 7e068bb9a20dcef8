import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from '../base/db/client.js';
import { type StoredEvent, takeBatch } from './events.repository.js';
import type { WorkerTask } from './worker.js';

/**
 * A reader of the event log that must see every event once: webhook fan-out today, customer
 * e-mail notifications next. This is the extension point. A new consumer is one object with a
 * stable name and a `handle` that turns a batch of events into its own durable work (rows of its
 * own tables, such as webhook_deliveries), run by a WorkerTask that calls pumpConsumer
 * (worker.ts), beside the webhook tasks. `handle` runs in the transaction that advances the consumer's
 * cursor, so the work it writes and the cursor commit together: a crash in between replays the
 * batch, and nothing is lost or taken twice. Slow or fallible side effects (HTTP, SMTP) belong
 * in that work's own leased jobs, never in `handle`. That transaction commits without waiting for
 * its WAL flush (takeBatch): the lease, a write that commits with its flush, makes it durable
 * before anything acts on the work, so a job must be leased (or otherwise written) before its effect.
 */
export interface OutboxConsumer {
  /**
   * The cursor's key in event_consumers: stable across releases. Its row is made by a migration (as
   * `event_consumer_cursors` made the first four), so that the consumer owes every event recorded
   * after the database (or, on an install upgraded to it, the consumer) came to be, read or not.
   */
  readonly name: string;
  /**
   * The event types whose data `handle` reads; the others reach it with `data` empty (their type,
   * subject and place in the log are all it looks at). Absent: every event's data.
   */
  readonly reads?: readonly string[];
  /**
   * A condition on the event's row (the table `events`) under which `handle` reads its data at all
   * (an endpoint of its account to send it to, a store to write back to): the others reach it with
   * `data` empty, as the types `reads` leaves out. The snapshots are the batch's bulk: read for
   * nothing, their text cost PostgreSQL to write and this process to parse, every booking. Absent: always.
   */
  readonly readsWhen?: SQL;
  handle(tx: Tx, events: StoredEvent[]): Promise<void>;
}

/**
 * Hands the consumer the next batch of settled events and moves its cursor past them, in one
 * transaction. Several processes may call this at once: the cursor row is taken FOR UPDATE SKIP
 * LOCKED, so one reads while the others return at once (on PGlite, one process does it all).
 * Answers how many events were handled (0 when caught up or when another process holds the cursor).
 */
export async function pumpConsumer(db: Db, consumer: OutboxConsumer, now: Date, batchSize = 200): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await takeBatch(tx, consumer.name, {
      dataOf: consumer.reads,
      dataWhen: consumer.readsWhen,
      limit: batchSize,
      now,
    });
    if (!events?.length) return 0;
    await consumer.handle(tx, events);
    return events.length;
  });
}

/**
 * The worker task that pumps `consumer`: again at once while its batches come full, and (an
 * `afterWrites` task) on a database only this process writes, only after a record wakes it.
 */
export function pumpTask(
  name: string,
  db: Db,
  consumer: OutboxConsumer,
  now: () => Date,
  batchSize: number,
): WorkerTask {
  return {
    name,
    afterWrites: true,
    run: async () => (await pumpConsumer(db, consumer, now(), batchSize)) === batchSize,
  };
}
