import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { ERASED } from '../../domain/privacy/buyer-scrub.js';
import { channelOrders, channelWebhookReceipts, salesChannels, stores } from '../../base/db/schema.js';

export type SalesChannelRow = typeof salesChannels.$inferSelect;
export type NewSalesChannel = Omit<typeof salesChannels.$inferInsert, 'id' | 'accountId'>;
export type ChannelOrderRow = typeof channelOrders.$inferSelect;

/** What the ledger holds of one store order as it arrives (a webhook, a page of a pull). */
export interface SeenOrder {
  channelOrderId: string;
  channelOrderName: string;
  payload: Record<string, unknown>;
  cancelled: boolean;
  awaitingShipment: boolean;
}

export async function insertChannel(ex: Executor, accountId: string, row: NewSalesChannel): Promise<SalesChannelRow> {
  const [made] = await ex
    .insert(salesChannels)
    .values({ ...row, accountId })
    .returning();
  return made!;
}

export function channelsOf(ex: Executor, accountId: string): Promise<SalesChannelRow[]> {
  return ex
    .select()
    .from(salesChannels)
    .where(eq(salesChannels.accountId, accountId))
    .orderBy(desc(salesChannels.createdAt), desc(salesChannels.id));
}

export async function channelById(ex: Executor, accountId: string, id: string): Promise<SalesChannelRow | undefined> {
  const [row] = await ex
    .select()
    .from(salesChannels)
    .where(and(eq(salesChannels.accountId, accountId), eq(salesChannels.id, id)));
  return row;
}

/**
 * Whether the channel is still there and connected, held (FOR KEY SHARE) until the caller's
 * transaction ends: what a store sent is written only for a channel that takes orders, and the
 * channel cannot be deleted (its account's deletion) while that is written.
 */
export async function holdConnected(tx: Executor, accountId: string, id: string): Promise<boolean> {
  const rows = await tx
    .select({ id: salesChannels.id })
    .from(salesChannels)
    .where(and(eq(salesChannels.accountId, accountId), eq(salesChannels.id, id), eq(salesChannels.status, 'connected')))
    .for('key share');
  return rows.length > 0;
}

/** The channel a webhook URL names: the URL carries no account, the signature proves the sender. */
export async function channelForWebhook(ex: Executor, id: string): Promise<SalesChannelRow | undefined> {
  const [row] = await ex.select().from(salesChannels).where(eq(salesChannels.id, id));
  return row;
}

export async function storeNames(ex: Executor, accountId: string, storeIds: string[]): Promise<Map<string, string>> {
  if (storeIds.length === 0) return new Map();
  const rows = await ex
    .select({ id: stores.id, name: stores.storeName })
    .from(stores)
    .where(and(eq(stores.accountId, accountId), inArray(stores.id, storeIds)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function updateChannel(
  ex: Executor,
  accountId: string,
  id: string,
  change: Partial<NewSalesChannel>,
): Promise<SalesChannelRow | undefined> {
  const [row] = await ex
    .update(salesChannels)
    .set(change)
    .where(and(eq(salesChannels.accountId, accountId), eq(salesChannels.id, id)))
    .returning();
  return row;
}

/** Each channel's ledger counted by state. */
export async function countsOf(
  ex: Executor,
  accountId: string,
  channelIds: string[],
): Promise<Map<string, Record<string, number>>> {
  const counts = new Map<string, Record<string, number>>();
  if (channelIds.length === 0) return counts;
  const rows = await ex
    .select({ channelId: channelOrders.salesChannelId, state: channelOrders.state, count: sql<number>`count(*)::int` })
    .from(channelOrders)
    .where(and(eq(channelOrders.accountId, accountId), inArray(channelOrders.salesChannelId, channelIds)))
    .groupBy(channelOrders.salesChannelId, channelOrders.state);
  for (const row of rows) {
    const byState = counts.get(row.channelId) ?? {};
    byState[row.state] = Number(row.count);
    counts.set(row.channelId, byState);
  }
  return counts;
}

/** Takes a webhook delivery once: false when this delivery id was taken before (a platform's retry). */
export async function takeDelivery(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  deliveryId: string,
  at: Date,
): Promise<boolean> {
  const taken = await ex
    .insert(channelWebhookReceipts)
    .values({ salesChannelId, deliveryId, accountId, receivedAt: at })
    .onConflictDoNothing()
    .returning({ id: channelWebhookReceipts.deliveryId });
  return taken.length > 0;
}

/**
 * Keeps what a store said of its orders, one row per store order whatever arrives and in whatever
 * order. A new order waiting to ship is queued (pending); one seen again is queued again only when
 * there is something to do: a refused or skipped one that changed and now waits to ship, or an
 * imported one the store has just cancelled. A cancellation, once seen, stays (an older delivery
 * arriving late must not undo it).
 */
export async function recordSeen(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  seen: SeenOrder[],
  at: Date,
): Promise<void> {
  if (seen.length === 0) return;
  const firstState = (order: SeenOrder) =>
    order.cancelled ? 'cancelled' : order.awaitingShipment ? 'pending' : 'skipped';
  const t = channelOrders;
  // The copy that arrived is no older than the one kept, by the store's own clock (both times are
  // the store's, so no skew between machines enters; the same second is taken, the store's times
  // having no finer grain); a copy without a time is taken as it comes. A copy whose buyer was
  // erased is replaced only by one the store changed since: every pull sends every open order
  // again, and the erasure keeps the store's time.
  const kept = sql`${t.payload}->>'updatedAt'`;
  const arrived = sql`excluded.payload->>'updatedAt'`;
  const newer = sql`(${kept} is null or ${arrived} is null or ${arrived} > ${kept}
    or (${arrived} = ${kept} and strpos(${t.payload}::text, ${ERASED}) = 0))`;
  await ex
    .insert(t)
    .values(
      seen.map((order) => ({
        accountId,
        salesChannelId,
        channelOrderId: order.channelOrderId,
        channelOrderName: order.channelOrderName,
        payload: order.payload,
        cancelled: order.cancelled,
        state: firstState(order),
        firstSeenAt: at,
        updatedAt: at,
      })),
    )
    .onConflictDoUpdate({
      target: [t.salesChannelId, t.channelOrderId],
      set: {
        payload: sql`case when ${t.orderId} is null and ${newer} then excluded.payload else ${t.payload} end`,
        channelOrderName: sql`excluded.channel_order_name`,
        cancelled: sql`${t.cancelled} or excluded.cancelled`,
        // A row waiting on a retry keeps its time; one that was not pending has none to keep.
        nextAttemptAt: sql`case when ${t.state} = 'pending' then ${t.nextAttemptAt} else null end`,
        state: sql`case
          when ${t.state} in ('refused', 'skipped') and excluded.cancelled then 'cancelled'
          when ${t.state} in ('refused', 'skipped') and excluded.state = 'pending' and ${newer}
               and ${t.payload} is distinct from excluded.payload then 'pending'
          when ${t.state} = 'imported' and excluded.cancelled and not ${t.cancelled} then 'pending'
          else ${t.state} end`,
        updatedAt: sql`case when ${t.payload} is distinct from excluded.payload or excluded.cancelled <> ${t.cancelled}
          then excluded.updated_at else ${t.updatedAt} end`,
      },
    });
}

/**
 * Store orders the platform sent that could not be read (adapters' UnreadableOrder), kept as refused
 * with why. One already imported stays as it is (its shipment goes on); one not imported yet is
 * refused until the store sends a copy that reads.
 */
export async function recordUnreadable(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  unreadable: { channelOrderId: string; channelOrderName: string; reason: string }[],
  at: Date,
): Promise<void> {
  if (unreadable.length === 0) return;
  const t = channelOrders;
  await ex
    .insert(t)
    .values(
      unreadable.map((order) => ({
        accountId,
        salesChannelId,
        channelOrderId: order.channelOrderId,
        channelOrderName: order.channelOrderName,
        payload: { unreadable: order.reason },
        cancelled: false,
        state: 'refused',
        reason: order.reason,
        fields: ['order'],
        firstSeenAt: at,
        updatedAt: at,
      })),
    )
    .onConflictDoUpdate({
      target: [t.salesChannelId, t.channelOrderId],
      set: {
        payload: sql`case when ${t.orderId} is null then excluded.payload else ${t.payload} end`,
        state: sql`case when ${t.orderId} is null and ${t.state} <> 'cancelled' then 'refused' else ${t.state} end`,
        reason: sql`case when ${t.orderId} is null and ${t.state} <> 'cancelled' then excluded.reason else ${t.reason} end`,
        fields: sql`case when ${t.orderId} is null and ${t.state} <> 'cancelled' then excluded.fields else ${t.fields} end`,
        nextAttemptAt: sql`case when ${t.orderId} is null then null else ${t.nextAttemptAt} end`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** Pending ledger rows of any account, oldest first, each locked for the caller's transaction (another process skips them). */
export async function claimPending(ex: Executor, now: Date, limit: number): Promise<ChannelOrderRow[]> {
  return ex
    .select()
    .from(channelOrders)
    .where(
      and(
        eq(channelOrders.state, 'pending'),
        sql`(${channelOrders.nextAttemptAt} is null or ${channelOrders.nextAttemptAt} <= ${now})`,
      ),
    )
    .orderBy(asc(channelOrders.updatedAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function finishRow(
  ex: Executor,
  accountId: string,
  id: string,
  change: Pick<ChannelOrderRow, 'state' | 'reason' | 'fields' | 'nextAttemptAt' | 'updatedAt'> &
    Partial<Pick<ChannelOrderRow, 'orderId' | 'shipmentId' | 'attempts'>>,
): Promise<void> {
  await ex
    .update(channelOrders)
    .set(change)
    .where(and(eq(channelOrders.accountId, accountId), eq(channelOrders.id, id)));
}

/** A channel's ledger rows, newest change first: all, or those in the given states. */
export function ledgerOf(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  states: readonly string[] | undefined,
  limit: number,
): Promise<ChannelOrderRow[]> {
  return ex
    .select()
    .from(channelOrders)
    .where(
      and(
        eq(channelOrders.accountId, accountId),
        eq(channelOrders.salesChannelId, salesChannelId),
        states ? inArray(channelOrders.state, [...states]) : undefined,
      ),
    )
    .orderBy(desc(channelOrders.updatedAt), desc(channelOrders.firstSeenAt), desc(channelOrders.channelOrderId))
    .limit(limit);
}

export async function ledgerRow(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  channelOrderId: string,
): Promise<ChannelOrderRow | undefined> {
  const [row] = await ex
    .select()
    .from(channelOrders)
    .where(
      and(
        eq(channelOrders.accountId, accountId),
        eq(channelOrders.salesChannelId, salesChannelId),
        eq(channelOrders.channelOrderId, channelOrderId),
      ),
    );
  return row;
}

/** Puts a refused order back in the queue (the merchant fixed what stopped it); false when it is not refused. */
export async function requeue(
  ex: Executor,
  accountId: string,
  salesChannelId: string,
  channelOrderId: string,
  at: Date,
): Promise<boolean> {
  const rows = await ex
    .update(channelOrders)
    .set({ state: 'pending', nextAttemptAt: null, updatedAt: at })
    .where(
      and(
        eq(channelOrders.accountId, accountId),
        eq(channelOrders.salesChannelId, salesChannelId),
        eq(channelOrders.channelOrderId, channelOrderId),
        eq(channelOrders.state, 'refused'),
      ),
    )
    .returning({ id: channelOrders.id });
  return rows.length > 0;
}

/** Every refused order of the channel back in the queue: its settings changed, so each gets another try. */
export async function requeueRefused(ex: Executor, accountId: string, salesChannelId: string, at: Date): Promise<void> {
  await ex
    .update(channelOrders)
    .set({ state: 'pending', nextAttemptAt: null, updatedAt: at })
    .where(
      and(
        eq(channelOrders.accountId, accountId),
        eq(channelOrders.salesChannelId, salesChannelId),
        eq(channelOrders.state, 'refused'),
      ),
    );
}

/**
 * The connected channels whose pull is due (asked for, or `everyMs` since the last), each taken for
 * `leaseMs` so that one process pulls it; any account's.
 */
export async function claimDuePulls(
  ex: Executor,
  now: Date,
  everyMs: number,
  leaseMs: number,
): Promise<SalesChannelRow[]> {
  const t = salesChannels;
  const lastDue = new Date(now.getTime() - everyMs);
  return ex
    .update(t)
    .set({ pullDue: false, pullLockedUntil: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(t.status, 'connected'),
        sql`(${t.pullDue} or ${t.lastSyncedAt} is null or ${t.lastSyncedAt} < ${lastDue})`,
        sql`(${t.pullLockedUntil} is null or ${t.pullLockedUntil} < ${now})`,
      ),
    )
    .returning();
}
