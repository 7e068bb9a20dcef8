import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../../base/db/client.js';
import { channelOrders, channelWritebacks, events, salesChannels } from '../../base/db/schema.js';
import { leaseJobs } from '../../events/jobs.repository.js';

export type WritebackRow = typeof channelWritebacks.$inferSelect;
export type NewWriteback = Omit<typeof channelWritebacks.$inferInsert, 'id' | 'accountId'>;
export type WritebackKind = 'fulfil' | 'update' | 'track' | 'cancel';

/** On an event's row (`events`): its account has a connected store, which a write-back needs. */
export const HAS_CONNECTED_CHANNEL = sql`exists (select 1 from sales_channels c
  where c.account_id = events.account_id and c.status = 'connected')`;

/** A shipment that came from a store order, with what planning its write-back needs. */
export interface ShipmentLink {
  shipmentId: string;
  channelOrderRowId: string;
  salesChannelId: string;
  connected: boolean;
  notifyCustomer: boolean;
  /**
   * The AWB the store has, or will have once the jobs already planned are sent: that of the last
   * fulfil or update job, null when none was planned or the last of them was a cancellation.
   */
  plannedAwb: string | null;
}

/** Per shipment of the account that came from a store order: its ledger row, its channel, the AWB planned so far. */
export async function linksOf(
  ex: Executor,
  accountId: string,
  shipmentIds: string[],
): Promise<Map<string, ShipmentLink>> {
  if (shipmentIds.length === 0) return new Map();
  const rows = await queryPreparedRows<{
    shipment_id: string;
    row_id: string;
    sales_channel_id: string;
    status: string;
    notify_customer: boolean;
    last_kind: string | null;
    last_awb: string | null;
  }>(
    ex,
    sql`select o.shipment_id, o.id as row_id, o.sales_channel_id, c.status, c.notify_customer,
        last.kind as last_kind, last.payload->>'awb' as last_awb
      from channel_orders o
      join sales_channels c on c.id = o.sales_channel_id and c.account_id = o.account_id
      left join lateral (
        select w.kind, w.payload from channel_writebacks w join events e on e.id = w.event_id
        where w.account_id = o.account_id and w.shipment_id = o.shipment_id and w.kind in ('fulfil', 'update', 'cancel')
        order by e.sequence desc limit 1) last on true
      where o.account_id = ${accountId} and o.shipment_id = any(${sql.param(shipmentIds)}::uuid[])`,
  );
  return new Map(
    rows.map((r) => [
      r.shipment_id,
      {
        shipmentId: r.shipment_id,
        channelOrderRowId: r.row_id,
        salesChannelId: r.sales_channel_id,
        connected: r.status === 'connected',
        notifyCustomer: r.notify_customer,
        plannedAwb: r.last_kind === 'cancel' ? null : r.last_awb,
      },
    ]),
  );
}

/** Writes the account's new jobs; one already planned for the same event and kind stays as it is (a replayed batch). */
export async function insertWritebacks(ex: Executor, accountId: string, rows: NewWriteback[]): Promise<void> {
  if (rows.length === 0) return;
  await ex
    .insert(channelWritebacks)
    .values(rows.map((row) => ({ ...row, accountId })))
    .onConflictDoNothing();
}

/** A due job, as much of it as choosing what to send needs. */
export interface Candidate {
  id: string;
  salesChannelId: string;
}

/**
 * Due, unleased jobs of any account, oldest first, at most `perChannel` of each channel and none of
 * the `busy` channels: and of each shipment only its first pending job (in the order of the events
 * that made them), so a scan never reaches the store before the fulfilment it belongs to, and a
 * job waiting on its retry holds back the later ones of its shipment.
 */
export async function dueCandidates(
  ex: Executor,
  now: Date,
  busy: readonly string[],
  perChannel: number,
  limit: number,
): Promise<Candidate[]> {
  const at = now.toISOString();
  const rows = await queryPreparedRows<{ id: string; sales_channel_id: string }>(
    ex,
    sql`select id, sales_channel_id from (
        select w.id, w.sales_channel_id, w.next_attempt_at,
          row_number() over (partition by w.sales_channel_id order by w.next_attempt_at, w.id) as n
        from channel_writebacks w join events e on e.id = w.event_id
        where w.status = 'pending' and w.next_attempt_at <= ${at}::timestamptz
          and (w.locked_until is null or w.locked_until <= ${at}::timestamptz)
          and w.sales_channel_id <> all(${sql.param(busy)}::uuid[])
          and not exists (
            select 1 from channel_writebacks p join events pe on pe.id = p.event_id
            where p.account_id = w.account_id and p.shipment_id = w.shipment_id and p.status = 'pending'
              and pe.sequence < e.sequence)) ranked
      where n <= ${perChannel}
      order by next_attempt_at, id
      limit ${limit}`,
  );
  return rows.map((r) => ({ id: r.id, salesChannelId: r.sales_channel_id }));
}

/** Leases those of `ids` still due (events/jobs.repository.ts) and answers them. */
export async function lease(ex: Executor, ids: string[], now: Date, leaseUntil: Date): Promise<WritebackRow[]> {
  const leased = await leaseJobs(ex, 'channel_writebacks', ids, now, leaseUntil);
  if (leased.length === 0) return [];
  return ex
    .select()
    .from(channelWritebacks)
    .where(
      inArray(
        channelWritebacks.id,
        leased.map((row) => row.id),
      ),
    );
}

export type ChannelRow = Pick<typeof salesChannels.$inferSelect, 'id' | 'channel' | 'sealed' | 'status' | 'accountId'>;
export type LedgerRow = Pick<
  typeof channelOrders.$inferSelect,
  'id' | 'channelOrderId' | 'fulfilmentReference' | 'fulfilledAwb'
>;

/** The channel and the ledger row a job writes to. */
export async function targetOf(
  ex: Executor,
  accountId: string,
  job: Pick<WritebackRow, 'salesChannelId' | 'channelOrderRowId'>,
): Promise<{ channel: ChannelRow; order: LedgerRow } | undefined> {
  const [row] = await ex
    .select({
      channel: {
        id: salesChannels.id,
        channel: salesChannels.channel,
        sealed: salesChannels.sealed,
        status: salesChannels.status,
        accountId: salesChannels.accountId,
      },
      order: {
        id: channelOrders.id,
        channelOrderId: channelOrders.channelOrderId,
        fulfilmentReference: channelOrders.fulfilmentReference,
        fulfilledAwb: channelOrders.fulfilledAwb,
      },
    })
    .from(channelOrders)
    .innerJoin(salesChannels, eq(salesChannels.id, channelOrders.salesChannelId))
    .where(
      and(
        eq(channelOrders.accountId, accountId),
        eq(salesChannels.accountId, accountId),
        eq(channelOrders.id, job.channelOrderRowId),
        eq(salesChannels.id, job.salesChannelId),
      ),
    );
  return row;
}

/** The store's reference for the order's fulfilment and its AWB (both null once it was cancelled). */
export async function recordFulfilment(
  ex: Executor,
  accountId: string,
  rowId: string,
  fulfilment: { reference: string | null; awb: string | null },
  now: Date,
): Promise<void> {
  await ex
    .update(channelOrders)
    .set({ fulfilmentReference: fulfilment.reference, fulfilledAwb: fulfilment.awb, updatedAt: now })
    .where(and(eq(channelOrders.accountId, accountId), eq(channelOrders.id, rowId)));
}

/** What one attempt left of a job. */
export type JobOutcome = Pick<WritebackRow, 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'doneAt'>;

/** Records an attempt and releases the job's lease. */
export async function finishJob(
  ex: Executor,
  accountId: string,
  id: string,
  outcome: JobOutcome,
  now: Date,
): Promise<void> {
  await ex
    .update(channelWritebacks)
    .set({ ...outcome, lockedUntil: null, updatedAt: now })
    .where(and(eq(channelWritebacks.accountId, accountId), eq(channelWritebacks.id, id)));
}

/** The store failed a call: its channel's health says so (only these two columns; intake keeps the rest). */
export async function recordChannelFailure(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  error: string,
  at: Date,
): Promise<void> {
  await ex
    .update(salesChannels)
    .set({ lastError: error, lastErrorAt: at })
    .where(and(eq(salesChannels.accountId, accountId), eq(salesChannels.id, salesChannelId)));
}

/** A shipment's write-back jobs in the order of their events. */
export async function listForShipment(ex: Executor, accountId: string, shipmentId: string): Promise<WritebackRow[]> {
  const rows = await ex
    .select({ job: channelWritebacks })
    .from(channelWritebacks)
    .innerJoin(events, eq(events.id, channelWritebacks.eventId))
    .where(and(eq(channelWritebacks.accountId, accountId), eq(channelWritebacks.shipmentId, shipmentId)))
    .orderBy(asc(events.sequence), asc(channelWritebacks.kind));
  return rows.map((row) => row.job);
}
