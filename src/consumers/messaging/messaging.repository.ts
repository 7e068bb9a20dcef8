import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import {
  buyerMessages,
  confirmationPolicies,
  messagingChannels,
  orderConfirmations,
  shipments,
} from '../../base/db/schema.js';
import { findShipmentViews } from '../../shipment-records/shipment-view.js';
import { leaseDueJobs } from '../../events/jobs.repository.js';
import type { MessagePurpose } from './channel.js';

export type ChannelRow = typeof messagingChannels.$inferSelect;
export type PolicyRow = typeof confirmationPolicies.$inferSelect;
export type ConfirmationRow = typeof orderConfirmations.$inferSelect;
export type MessageRow = typeof buyerMessages.$inferSelect;
export type NewMessage = Omit<typeof buyerMessages.$inferInsert, 'id' | 'accountId'>;

export async function channelsOf(ex: Executor, accountId: string): Promise<ChannelRow[]> {
  return ex.select().from(messagingChannels).where(eq(messagingChannels.accountId, accountId));
}

export async function saveChannel(
  ex: Executor,
  accountId: string,
  row: Pick<ChannelRow, 'channel' | 'enabled' | 'settings' | 'sealedSecret' | 'updatedAt'>,
) {
  await ex
    .insert(messagingChannels)
    .values({ ...row, accountId, createdAt: row.updatedAt })
    .onConflictDoUpdate({
      target: [messagingChannels.accountId, messagingChannels.channel],
      set: { enabled: row.enabled, settings: row.settings, sealedSecret: row.sealedSecret, updatedAt: row.updatedAt },
    });
}

/**
 * On an event's row (`events`): a booking's event is read only for an account whose confirmation
 * policy asks; every other type the consumer reads is read whatever the policy.
 */
export const READS_BOOKING_WHEN_ASKING = sql`(events.type <> 'shipment.created' or exists (
  select 1 from confirmation_policies p where p.account_id = events.account_id and p.mode <> 'off'))`;

export async function policyOf(ex: Executor, accountId: string): Promise<PolicyRow | undefined> {
  const [row] = await ex.select().from(confirmationPolicies).where(eq(confirmationPolicies.accountId, accountId));
  return row;
}

export async function savePolicy(ex: Executor, accountId: string, row: Omit<PolicyRow, 'accountId'>) {
  await ex
    .insert(confirmationPolicies)
    .values({ ...row, accountId })
    .onConflictDoUpdate({ target: confirmationPolicies.accountId, set: row });
}

/** The account's shipments with their order, store and account name (shipment-records/shipment-view.ts). */
export function shipmentViews(ex: Executor, accountId: string, shipmentIds: string[]) {
  return findShipmentViews(ex, and(eq(shipments.accountId, accountId), inArray(shipments.id, shipmentIds)));
}

/** A shipment by its tracking link's secret: the link is the buyer's credential, so no account is named. */
export async function shipmentByTrackToken(ex: Executor, token: string) {
  const [view] = await findShipmentViews(ex, eq(shipments.trackToken, token));
  return view;
}

/** Writes a confirmation and its first message; a confirmation already asked for the shipment stays as it is (a replayed batch). */
export async function insertConfirmation(
  ex: Executor,
  accountId: string,
  row: Omit<typeof orderConfirmations.$inferInsert, 'accountId'>,
  message: NewMessage | null,
) {
  const [written] = await ex
    .insert(orderConfirmations)
    .values({ ...row, accountId })
    .onConflictDoNothing()
    .returning({ id: orderConfirmations.id });
  if (written && message) await ex.insert(buyerMessages).values({ ...message, accountId, confirmationId: written.id });
}

export async function confirmationOf(
  ex: Executor,
  accountId: string,
  shipmentId: string,
): Promise<ConfirmationRow | undefined> {
  const [row] = await ex
    .select()
    .from(orderConfirmations)
    .where(and(eq(orderConfirmations.accountId, accountId), eq(orderConfirmations.shipmentId, shipmentId)));
  return row;
}

/** Changes a confirmation only while it is still `pending`: a late or repeated answer changes nothing. */
export async function settle(
  ex: Executor,
  accountId: string,
  id: string,
  values: Partial<ConfirmationRow>,
): Promise<ConfirmationRow | undefined> {
  const [row] = await ex
    .update(orderConfirmations)
    .set(values)
    .where(
      and(
        eq(orderConfirmations.accountId, accountId),
        eq(orderConfirmations.id, id),
        eq(orderConfirmations.outcome, 'pending'),
      ),
    )
    .returning();
  return row;
}

export async function updateConfirmation(
  ex: Executor,
  accountId: string,
  id: string,
  values: Partial<ConfirmationRow>,
): Promise<ConfirmationRow> {
  const [row] = await ex
    .update(orderConfirmations)
    .set(values)
    .where(and(eq(orderConfirmations.accountId, accountId), eq(orderConfirmations.id, id)))
    .returning();
  return row!;
}

/** Pending confirmations of any account whose window has closed, oldest first, locked for this round. */
export async function overdue(ex: Executor, now: Date, limit: number): Promise<ConfirmationRow[]> {
  return ex
    .select()
    .from(orderConfirmations)
    .where(and(eq(orderConfirmations.outcome, 'pending'), lte(orderConfirmations.dueAt, now)))
    .orderBy(asc(orderConfirmations.dueAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Leases due messages of any account (events/jobs.repository.ts). */
export async function claimDue(ex: Executor, now: Date, leaseUntil: Date, limit: number): Promise<MessageRow[]> {
  const ids = await leaseDueJobs(ex, 'buyer_messages', now, leaseUntil, limit);
  if (ids.length === 0) return [];
  return ex.select().from(buyerMessages).where(inArray(buyerMessages.id, ids));
}

export async function finishAttempt(
  ex: Executor,
  accountId: string,
  id: string,
  values: Pick<
    MessageRow,
    'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'providerMessageId' | 'sentAt' | 'updatedAt'
  >,
): Promise<MessageRow | undefined> {
  const [row] = await ex
    .update(buyerMessages)
    .set({ ...values, lockedUntil: null })
    .where(and(eq(buyerMessages.accountId, accountId), eq(buyerMessages.id, id)))
    .returning();
  return row;
}

export async function messagesOf(ex: Executor, accountId: string, shipmentId: string): Promise<MessageRow[]> {
  return ex
    .select()
    .from(buyerMessages)
    .where(and(eq(buyerMessages.accountId, accountId), eq(buyerMessages.shipmentId, shipmentId)))
    .orderBy(asc(buyerMessages.createdAt), asc(buyerMessages.id));
}

/** The id of the account's shipment with this id or AWB, or undefined. */
export async function findShipmentId(ex: Executor, accountId: string, idOrAwb: string): Promise<string | undefined> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrAwb);
  const [row] = await ex
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), uuid ? eq(shipments.id, idOrAwb) : eq(shipments.awb, idOrAwb)));
  return row?.id;
}

/** One channel of the account, with its sealed secret (the inbound webhook's signature check). */
export async function channelOf(ex: Executor, accountId: string, channel: string): Promise<ChannelRow | undefined> {
  const [row] = await ex
    .select()
    .from(messagingChannels)
    .where(and(eq(messagingChannels.accountId, accountId), eq(messagingChannels.channel, channel)));
  return row;
}

/** Writes a message of no confirmation (an NDR message). */
export async function insertMessage(ex: Executor, accountId: string, message: NewMessage) {
  await ex.insert(buyerMessages).values({ ...message, accountId });
}

/**
 * Whether a message of this purpose was already planned for the shipment, among them the one whose
 * variables hold these values: a replayed batch (the cursor's transaction retried) must not message
 * the buyer twice. An address update is once per shipment, an NDR message once per failed attempt
 * (its reattempt payload), a return update once per request and update.
 */
export async function messageExists(
  ex: Executor,
  accountId: string,
  shipmentId: string,
  purpose: MessagePurpose,
  variables: Record<string, string> = {},
): Promise<boolean> {
  const [row] = await ex
    .select({ id: buyerMessages.id })
    .from(buyerMessages)
    .where(
      and(
        eq(buyerMessages.accountId, accountId),
        eq(buyerMessages.shipmentId, shipmentId),
        eq(buyerMessages.purpose, purpose),
        sql`${buyerMessages.variables} @> ${JSON.stringify(variables)}::jsonb`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
