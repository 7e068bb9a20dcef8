import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, queryPreparedRows } from '../../base/db/client.js';
import { type brandColumns, SHIPMENT_VIEW_FROM } from '../../shipment-records/shipment-view.js';
import { events, notifications, shipments } from '../../base/db/schema.js';
import { leaseDueJobs } from '../../events/jobs.repository.js';
import { UUID } from '../../base/uuid.js';

export type NotificationRow = typeof notifications.$inferSelect;
/** A new e-mail job, as planning writes it (its id, attempts and message are the table's defaults). */
export type NewNotification = Pick<
  typeof notifications.$inferInsert,
  | 'shipmentId'
  | 'eventId'
  | 'eventType'
  | 'notifyEvent'
  | 'channel'
  | 'recipient'
  | 'status'
  | 'skipReason'
  | 'nextAttemptAt'
  | 'createdAt'
  | 'updatedAt'
>;

// Planning and composing run for every booking's events: their reads and the insert are plain
// statements of the columns they need. Through Drizzle's builders, mapping the whole shipment, order
// and warehouse rows of a shipment view and building the insert were most of the delivery thread's
// time a booking.

/** Per shipment: its order's e-mail addresses and its store's choice of e-mails (null without a store). */
export async function recipientsOf(ex: Executor, accountId: string, shipmentIds: string[]) {
  const rows = await queryPreparedRows<{
    shipmentId: string;
    billingEmail: string | null;
    shippingEmail: string | null;
    shippingIsBilling: boolean;
    notifyEvents: string[] | null;
  }>(
    ex,
    sql`select s.id as "shipmentId", o.billing_email as "billingEmail", o.shipping_email as "shippingEmail",
          o.shipping_is_billing as "shippingIsBilling", st.notify_events as "notifyEvents"
        ${SHIPMENT_VIEW_FROM}
        where s.account_id = ${accountId} and s.id = any(${sql.param(shipmentIds)}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.shipmentId, row]));
}

export type Recipients = NonNullable<ReturnType<Awaited<ReturnType<typeof recipientsOf>>['get']>>;

/** Writes the account's new notifications; one already written for the same event, channel and recipient stays as it is. */
export async function insertNotifications(ex: Executor, accountId: string, rows: NewNotification[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    shipment_id: row.shipmentId,
    event_id: row.eventId,
    event_type: row.eventType,
    notify_event: row.notifyEvent,
    channel: row.channel,
    recipient: row.recipient ?? null,
    status: row.status,
    skip_reason: row.skipReason ?? null,
    next_attempt_at: row.nextAttemptAt ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
  await queryPreparedRows(
    ex,
    sql`insert into notifications (account_id, shipment_id, event_id, event_type, notify_event, channel, recipient,
          status, skip_reason, next_attempt_at, created_at, updated_at)
        select ${accountId}::uuid, v.shipment_id, v.event_id, v.event_type, v.notify_event, v.channel, v.recipient,
          v.status, v.skip_reason, v.next_attempt_at, v.created_at, v.updated_at
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(shipment_id uuid, event_id uuid, event_type text,
          notify_event text, channel text, recipient text, status text, skip_reason text, next_attempt_at timestamptz,
          created_at timestamptz, updated_at timestamptz)
        on conflict do nothing`,
  );
}

/** Leases due e-mails of any account (events/jobs.repository.ts) and answers them. */
export async function claimDue(ex: Executor, now: Date, leaseUntil: Date, limit: number): Promise<NotificationRow[]> {
  const ids = await leaseDueJobs(ex, 'notifications', now, leaseUntil, limit);
  if (ids.length === 0) return [];
  return ex.select().from(notifications).where(inArray(notifications.id, ids));
}

/** What one attempt at an e-mail left: its new state, and the message when it was composed. */
export type AttemptOutcome = Pick<
  NotificationRow,
  'accountId' | 'id' | 'status' | 'attempts' | 'nextAttemptAt' | 'lastError' | 'sentAt' | 'updatedAt'
> &
  Partial<Pick<NotificationRow, 'subject' | 'bodyText' | 'bodyHtml'>>;

/**
 * Records attempts in one statement, each releasing its lease: a claim of kept e-mails is 64 of
 * them, and one update each was a booking's dearest statement after its own (issue 27). The
 * ids also go as an array: joined on the record set alone, the planner scanned the whole table. A
 * message not composed (its composing failed) keeps what the row held.
 */
export async function finishAttempts(ex: Executor, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((o) => ({
    id: o.id,
    account_id: o.accountId,
    status: o.status,
    attempts: o.attempts,
    next_attempt_at: o.nextAttemptAt,
    last_error: o.lastError,
    sent_at: o.sentAt,
    updated_at: o.updatedAt,
    composed: o.subject !== undefined,
    subject: o.subject ?? null,
    body_text: o.bodyText ?? null,
    body_html: o.bodyHtml ?? null,
  }));
  await queryPreparedRows(
    ex,
    sql`update notifications n set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at,
      last_error = v.last_error, sent_at = v.sent_at, updated_at = v.updated_at, locked_until = null,
      subject = case when v.composed then v.subject else n.subject end,
      body_text = case when v.composed then v.body_text else n.body_text end,
      body_html = case when v.composed then v.body_html else n.body_html end
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id uuid, account_id uuid, status text, attempts integer,
      next_attempt_at timestamptz, last_error text, sent_at timestamptz, updated_at timestamptz, composed boolean,
      subject text, body_text text, body_html text)
    where n.id = any(${sql.param(rows.map((row) => row.id))}::uuid[]) and n.id = v.id and n.account_id = v.account_id`,
  );
}

/** The brand of a shipment's e-mails (its store's name and logo, else the account's name), and what a return request's e-mail names of the shipment. */
export type BrandRow = ReturnType<typeof brandColumns> & { orderDisplayId: string; trackToken: string };

/** The brands of several of the account's shipments, in one read, by shipment id. */
export async function brandsOf(ex: Executor, accountId: string, shipmentIds: string[]): Promise<Map<string, BrandRow>> {
  const rows = await queryPreparedRows<BrandRow & { shipmentId: string }>(
    ex,
    sql`select s.id as "shipmentId", a.name as "accountName", st.id as "storeId", st.brand_name as "brandName",
          st.logo_sha256 as "logoSha256", st.support_email as "supportEmail", st.support_phone as "supportPhone",
          o.merchant_order_id as "orderDisplayId", s.track_token as "trackToken"
        ${SHIPMENT_VIEW_FROM}
        where s.account_id = ${accountId} and s.id = any(${sql.param(shipmentIds)}::uuid[])`,
  );
  return new Map(rows.map(({ shipmentId, ...brand }) => [shipmentId, brand]));
}

export async function shipmentExists(ex: Executor, accountId: string, shipmentId: string): Promise<boolean> {
  const [row] = await ex
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.accountId, accountId), eq(shipments.id, shipmentId)));
  return row !== undefined;
}

/** The id of the account's shipment with this id or AWB, or undefined. */
export async function findShipmentId(ex: Executor, accountId: string, idOrAwb: string): Promise<string | undefined> {
  const [row] = await ex
    .select({ id: shipments.id })
    .from(shipments)
    .where(
      and(
        eq(shipments.accountId, accountId),
        UUID.test(idOrAwb) ? eq(shipments.id, idOrAwb) : eq(shipments.awb, idOrAwb),
      ),
    );
  return row?.id;
}

/** A shipment's notifications in the order of its events. */
export async function listForShipment(ex: Executor, accountId: string, shipmentId: string): Promise<NotificationRow[]> {
  const rows = await ex
    .select({ notification: notifications })
    .from(notifications)
    .innerJoin(events, eq(events.id, notifications.eventId))
    .where(and(eq(notifications.accountId, accountId), eq(notifications.shipmentId, shipmentId)))
    .orderBy(asc(events.sequence), asc(notifications.id));
  return rows.map((row) => row.notification);
}
