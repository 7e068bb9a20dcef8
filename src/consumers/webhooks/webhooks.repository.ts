import { and, asc, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../../base/db/client.js';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../base/db/schema.js';
import { TEST_EVENT_TYPE } from '../../domain/shipment/event-types.js';
import { leaseJobs } from '../../events/jobs.repository.js';
import type { Candidate } from './send-slots.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

const live = (accountId: string) => and(eq(webhookEndpoints.accountId, accountId), isNull(webhookEndpoints.deletedAt));

export async function insertEndpoint(
  ex: Executor,
  accountId: string,
  row: Omit<typeof webhookEndpoints.$inferInsert, 'accountId'>,
) {
  const [created] = await ex
    .insert(webhookEndpoints)
    .values({ ...row, accountId })
    .returning();
  return created!;
}

export const listEndpoints = (ex: Executor, accountId: string) =>
  ex
    .select()
    .from(webhookEndpoints)
    .where(live(accountId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));

/**
 * Every account's enabled endpoints (id, account, url), for the start-up check of their URLs
 * against the server's settings: an operator's view, like the worker's, not an account's.
 */
export const enabledEndpointsOfAllAccounts = (ex: Executor) =>
  ex
    .select({ id: webhookEndpoints.id, accountId: webhookEndpoints.accountId, url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.status, 'enabled'), isNull(webhookEndpoints.deletedAt)))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));

/** The endpoint, locked for the transaction when `lock` (its events' sequence and its counters). */
export async function findEndpoint(
  ex: Executor,
  accountId: string,
  id: string,
  lock = false,
): Promise<EndpointRow | undefined> {
  const query = ex
    .select()
    .from(webhookEndpoints)
    .where(and(live(accountId), eq(webhookEndpoints.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function updateEndpoint(
  ex: Executor,
  accountId: string,
  id: string,
  values: Partial<typeof webhookEndpoints.$inferInsert>,
) {
  const [row] = await ex
    .update(webhookEndpoints)
    .set(values)
    .where(and(live(accountId), eq(webhookEndpoints.id, id)))
    .returning();
  return row;
}

/** What a worker needs of a delivery to send it and record the attempt. */
export type QueuedDelivery = Pick<DeliveryRow, 'id' | 'accountId' | 'endpointId' | 'eventId' | 'attempts'>;

const QUEUED_COLUMNS = sql`id, account_id as "accountId", endpoint_id as "endpointId", event_id as "eventId", attempts`;

/** On an event's row (`events`): its account has an endpoint that could be sent it (fanOut's endpoints, and more). */
export const HAS_LIVE_ENDPOINT = sql`exists (select 1 from webhook_endpoints w
  where w.account_id = events.account_id and w.status = 'enabled' and w.deleted_at is null)`;

/**
 * One delivery per subscribed, enabled endpoint for each event of the batch, in one statement; answers
 * them in the events' order. An endpoint registered after an event was recorded does not get it. A
 * Velocity-format endpoint subscribes to Velocity's event names: `velocityNames` holds, per event,
 * the one it is sent as (null: not sent in that format).
 */
export async function fanOut(
  ex: Executor,
  eventIds: string[],
  velocityNames: (string | null)[],
  now: Date,
): Promise<QueuedDelivery[]> {
  return queryPreparedRows<QueuedDelivery>(
    ex,
    sql`
    with written as (
      insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
      select e.account_id, w.id, e.id, 'pending', 0, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from unnest(${sql.param(eventIds)}::uuid[], ${sql.param(velocityNames)}::text[]) with ordinality as v(id, name, n)
      join events e on e.id = v.id
      join webhook_endpoints w on w.account_id = e.account_id
      where e.type <> ${TEST_EVENT_TYPE}
        and w.status = 'enabled' and w.deleted_at is null and w.created_at <= e.created_at
        and case when w.format = 'velocity'
              then v.name is not null and (w.events @> array[v.name] or w.events @> array['*'])
              else w.events @> array[e.type] or w.events @> array['*'] end
      order by v.n, w.id
      returning ${QUEUED_COLUMNS})
    select * from written`,
  );
}

export async function insertDelivery(
  ex: Executor,
  accountId: string,
  endpointId: string,
  eventId: string,
  now: Date,
): Promise<DeliveryRow> {
  const [row] = await ex
    .insert(webhookDeliveries)
    .values({
      accountId,
      endpointId,
      eventId,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/**
 * Up to `limit` due, unleased deliveries, oldest due first, leaving out the accounts and endpoints
 * whose share of the worker's slots is full (so that one account's backlog cannot crowd the
 * others out of the window). Locks nothing: the worker chooses among them, then leases.
 */
export async function dueCandidates(
  ex: Executor,
  now: Date,
  full: { accounts: string[]; endpoints: string[] },
  limit: number,
): Promise<Candidate[]> {
  const at = now.toISOString();
  return queryPreparedRows<Candidate>(
    ex,
    sql`
    select id, account_id as "accountId", endpoint_id as "endpointId" from webhook_deliveries
    where status = 'pending' and next_attempt_at <= ${at}::timestamptz and (locked_until is null or locked_until <= ${at}::timestamptz)
      and not (account_id = any(${sql.param(full.accounts)}::uuid[])) and not (endpoint_id = any(${sql.param(full.endpoints)}::uuid[]))
    order by next_attempt_at
    limit ${limit}`,
  );
}

/** Leases those of the chosen deliveries still due and free, and answers them (events/jobs.repository.ts). */
export const lease = (ex: Executor, ids: readonly string[], now: Date, leaseUntil: Date): Promise<QueuedDelivery[]> =>
  leaseJobs<QueuedDelivery>(ex, 'webhook_deliveries', ids, now, leaseUntil, QUEUED_COLUMNS);

/** Hands back leases a worker took and will not use: those deliveries are due again at once, for any worker. */
export async function releaseLeases(ex: Executor, ids: readonly string[]): Promise<void> {
  await ex.execute(
    sql`update webhook_deliveries set locked_until = null where id = any(${sql.param(ids)}::uuid[]) and status = 'pending'`,
  );
}

export const findEndpointsByIds = (ex: Executor, ids: string[]) =>
  ex.select().from(webhookEndpoints).where(inArray(webhookEndpoints.id, ids));

export async function insertAttempt(ex: Executor, row: typeof webhookAttempts.$inferInsert) {
  await ex.insert(webhookAttempts).values(row);
}

export async function finishAttempt(
  ex: Executor,
  id: string,
  values: Pick<DeliveryRow, 'status' | 'attempts' | 'nextAttemptAt' | 'updatedAt'>,
) {
  await ex
    .update(webhookDeliveries)
    .set({ ...values, lockedUntil: null })
    .where(eq(webhookDeliveries.id, id));
}

/**
 * Records first-time-lucky answers in one statement: each delivery succeeded on this attempt (as
 * finishAttempt would set it) and its attempt row (as insertAttempt would write it).
 */
export async function recordSuccesses(
  ex: Executor,
  done: { id: string; accountId: string; attempts: number; statusCode: number | null; durationMs: number; at: Date }[],
): Promise<void> {
  const rows = done.map((d) => ({
    id: d.id,
    account_id: d.accountId,
    attempts: d.attempts + 1,
    status_code: d.statusCode,
    duration_ms: d.durationMs,
    at: d.at.toISOString(),
  }));
  await queryPreparedRows(
    ex,
    sql`with v as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                     as v (id uuid, account_id uuid, attempts int, status_code int, duration_ms int, at timestamptz)),
      finished as (
        update webhook_deliveries d set status = 'succeeded', attempts = v.attempts, next_attempt_at = null, locked_until = null, updated_at = v.at
        from v where d.id = v.id)
      insert into webhook_attempts (account_id, delivery_id, status_code, duration_ms, error, attempted_at)
      select v.account_id, v.id, v.status_code, v.duration_ms, null, v.at from v`,
  );
}

/** Gives up the pending deliveries of an endpoint that was disabled or deleted. */
export async function failPending(ex: Executor, accountId: string, endpointId: string, now: Date) {
  await ex
    .update(webhookDeliveries)
    .set({ status: 'failed', nextAttemptAt: null, lockedUntil: null, updatedAt: now })
    .where(
      and(
        eq(webhookDeliveries.accountId, accountId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.status, 'pending'),
      ),
    );
}

/** An endpoint's deliveries, newest first, after the `before` cursor (created_at, id). */
export async function listDeliveries(
  ex: Executor,
  accountId: string,
  endpointId: string,
  limit: number,
  before?: { createdAt: Date; id: string },
) {
  return ex
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.accountId, accountId),
        eq(webhookDeliveries.endpointId, endpointId),
        before &&
          or(
            lt(webhookDeliveries.createdAt, before.createdAt),
            and(eq(webhookDeliveries.createdAt, before.createdAt), lt(webhookDeliveries.id, before.id)),
          ),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(
  ex: Executor,
  accountId: string,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  const [row] = await ex
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.accountId, accountId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.id, id),
      ),
    );
  return row;
}

export async function attemptsOf(ex: Executor, accountId: string, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return [];
  return ex
    .select()
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.accountId, accountId), inArray(webhookAttempts.deliveryId, deliveryIds)))
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
}

/** The type of each event, for the deliveries listing. */
export async function eventTypes(ex: Executor, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await ex.select({ id: events.id, type: events.type }).from(events).where(inArray(events.id, eventIds));
  return new Map(rows.map((r) => [r.id, r.type]));
}
