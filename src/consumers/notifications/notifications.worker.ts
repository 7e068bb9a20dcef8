import type { Db, Tx } from '../../base/db/client.js';
import { findEventsByIds, type StoredEvent } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpTask } from '../../events/outbox.js';
import type { WorkerTask } from '../../events/worker.js';
import { logoPath } from '../../tenancy/stores/logo.js';
import { nextAttemptAt } from '../../events/retry.js';
import { mailError, smtpMailer } from '../../base/mailer.js';
import { composeMail, type MailContent, type MailShipment } from './notification-mail.js';
import { composeReturnMail, type MailReturnRequest } from './return-request-mail.js';
import {
  type NotifyEvent,
  notifyEventOf,
  type ReturnMoment,
  type ShipmentMoment,
  type SkipReason,
} from '../../domain/shipment/notify-events.js';
import * as repo from './notifications.repository.js';

export interface MailSettings {
  /** SMTP_URL; without it nothing is sent: each e-mail is composed and kept in the outbox. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender's address; the name shown is the store's brand. */
  mailFrom: string | undefined;
  /** Seconds between attempts; one attempt more than there are delays. */
  retryDelaysSeconds: readonly number[];
  /** One SMTP exchange must end within this. */
  timeoutMs: number;
  /** WORKER_LEASE_MARGIN_MS: a lease outlasts the longest send by this much. */
  leaseMarginMs: number;
}

const CONSUME_BATCH = 200;
/** E-mails one worker sends at once. */
const SEND_BATCH = 8;
/** Without SMTP nothing is sent, only composed and kept: more of them per claim. */
const OUTBOX_BATCH = 64;

/** The customer: the billing address's e-mail, or the shipping address's when it is another (the billing one if it has none). */
function recipientOf(r: repo.Recipients): string | null {
  return (r.shippingIsBilling ? r.billingEmail : (r.shippingEmail ?? r.billingEmail)) ?? null;
}

function skipReason(event: NotifyEvent, r: repo.Recipients, to: string | null): SkipReason | null {
  // A shipment without a store gets every e-mail, as a store does by default.
  if (r.notifyEvents && !r.notifyEvents.includes(event)) return 'event_turned_off';
  if (to === null) return 'no_email_address';
  return null;
}

/** The shipment an event is about: its subject, or the shipment a return request asks about. */
const shipmentOf = (event: StoredEvent): string =>
  event.subjectType === 'return_request'
    ? (event.data as { return_request: { shipment_id: string } }).return_request.shipment_id
    : event.subjectId;

/** Writes one notification per customer-facing event of the batch: pending (to send, or to keep in the outbox), or skipped with why. */
async function planNotifications(tx: Tx, events: StoredEvent[], now: Date): Promise<void> {
  const byAccount = new Map<string, { event: StoredEvent; notifyEvent: NotifyEvent; shipmentId: string }[]>();
  for (const event of events) {
    const notifyEvent =
      event.subjectType === 'shipment' || event.subjectType === 'return_request' ? notifyEventOf(event) : undefined;
    if (!notifyEvent) continue;
    const list = byAccount.get(event.accountId) ?? [];
    list.push({ event, notifyEvent, shipmentId: shipmentOf(event) });
    byAccount.set(event.accountId, list);
  }
  for (const [accountId, list] of byAccount) {
    const recipients = await repo.recipientsOf(tx, accountId, [...new Set(list.map((e) => e.shipmentId))]);
    const rows = list.flatMap(({ event, notifyEvent, shipmentId }) => {
      const r = recipients.get(shipmentId);
      if (!r) return [];
      const to = recipientOf(r);
      const reason = skipReason(notifyEvent, r, to);
      return [
        {
          shipmentId,
          eventId: event.id,
          eventType: event.type,
          notifyEvent,
          channel: 'email',
          recipient: to,
          status: reason ? 'skipped' : 'pending',
          skipReason: reason,
          nextAttemptAt: reason ? null : now,
          createdAt: now,
          updatedAt: now,
        },
      ];
    });
    await repo.insertNotifications(tx, accountId, rows);
  }
}

/** The notifications outbox consumer: customer-facing events become e-mail jobs, in the cursor's transaction. */
export const notificationsConsumer: OutboxConsumer = {
  name: 'notifications',
  // notifyEventOf's types: the status change's from and to are in its data.
  reads: [
    'shipment.booked',
    'shipment.status_changed',
    'return_request.created',
    'return_request.approved',
    'return_request.rejected',
  ],
  handle: (tx, events) => planNotifications(tx, events, new Date()),
};

/**
 * The notification worker's tasks: turn events into jobs, and compose the jobs that are due. With
 * SMTP configured each is sent, retrying with backoff; without it each is kept in the outbox
 * (status `outbox`, read at GET /shipments/:id/emails), so a user sees what customers would get.
 * Either way the composed message is kept on the row. Times are real time, as for webhooks;
 * `publicBaseUrl` makes the logo's link absolute.
 */
export function notificationTasks(db: Db, settings: MailSettings, publicBaseUrl: string): WorkerTask[] {
  const mailOn = settings.smtpUrl !== undefined && settings.mailFrom !== undefined;
  const consume = pumpTask('notification jobs', db, notificationsConsumer, () => new Date(), CONSUME_BATCH);
  const send = mailOn ? smtpMailer(settings.smtpUrl!, settings.timeoutMs) : undefined;
  // Connect, greet and send each have the timeout; a lease outlasts all three.
  const leaseMs = 3 * settings.timeoutMs + settings.leaseMarginMs;

  /** The message of a job. Events and shipments are never deleted, so both are there. */
  function compose(job: repo.NotificationRow, event: StoredEvent, row: repo.BrandRow) {
    const brand = {
      name: row.brandName ?? row.accountName,
      logoUrl: row.storeId && row.logoSha256 ? `${publicBaseUrl}${logoPath(row.storeId, row.logoSha256)}` : null,
      supportEmail: row.supportEmail,
      supportPhone: row.supportPhone,
    };
    if (event.subjectType === 'return_request') {
      const { return_request: request } = event.data as { return_request: MailReturnRequest };
      const trackUrl = `${publicBaseUrl}/t/${row.trackToken}/return`;
      return {
        brand,
        content: composeReturnMail(
          job.notifyEvent as ReturnMoment,
          request,
          { order: row.orderDisplayId, trackUrl },
          brand,
        ),
      };
    }
    const { shipment, ...change } = event.data as { shipment: MailShipment } & Record<string, unknown>;
    return { brand, content: composeMail(job.notifyEvent as ShipmentMoment, shipment, change, brand) };
  }

  /** Sends (or keeps) one e-mail; answers why it failed, or null, with the message when composed. */
  async function attempt(
    job: repo.NotificationRow,
    event: StoredEvent,
    row: repo.BrandRow,
  ): Promise<{ error: string | null; content?: MailContent }> {
    let composed: ReturnType<typeof compose> | undefined;
    try {
      composed = compose(job, event, row);
      const { brand, content } = composed;
      if (send)
        await send({
          from: { name: brand.name, address: settings.mailFrom! },
          to: job.recipient!,
          replyTo: brand.supportEmail ?? undefined,
          ...content,
        });
      return { error: null, content };
    } catch (error) {
      return { error: mailError(error), content: composed?.content };
    }
  }

  function outcomeOf(
    job: repo.NotificationRow,
    { error, content }: { error: string | null; content?: MailContent },
  ): repo.AttemptOutcome {
    const at = new Date();
    const attempts = job.attempts + 1;
    const next = error === null ? null : nextAttemptAt(attempts, settings.retryDelaysSeconds, at, Math.random());
    const done = send ? 'sent' : 'outbox';
    return {
      accountId: job.accountId,
      id: job.id,
      status: error === null ? done : next ? 'pending' : 'failed',
      attempts,
      nextAttemptAt: next,
      // A later success keeps the last refusal: it tells why the e-mail took more than one attempt.
      lastError: error ?? job.lastError,
      sentAt: error === null && send ? at : null,
      updatedAt: at,
      ...(content && { subject: content.subject, bodyText: content.text, bodyHtml: content.html }),
    };
  }

  const sendDue: WorkerTask = {
    name: send ? 'notification e-mails' : 'notification outbox',
    async run() {
      const at = new Date();
      const batch = send ? SEND_BATCH : OUTBOX_BATCH;
      const due = await repo.claimDue(db, at, new Date(at.getTime() + leaseMs), batch);
      if (due.length === 0) return false;
      const events = new Map(
        (await findEventsByIds(db, [...new Set(due.map((job) => job.eventId))])).map((e) => [e.id, e]),
      );
      // One read of the brands per account in the batch, not one per e-mail.
      const brands = new Map<string, repo.BrandRow>();
      for (const accountId of new Set(due.map((job) => job.accountId))) {
        const ids = [...new Set(due.filter((job) => job.accountId === accountId).map((job) => job.shipmentId))];
        for (const [id, brand] of await repo.brandsOf(db, accountId, ids)) brands.set(id, brand);
      }
      const outcome = async (job: repo.NotificationRow) =>
        outcomeOf(job, await attempt(job, events.get(job.eventId)!, brands.get(job.shipmentId)!));
      // A send is never aborted half-way: stopping waits for it, so what went out is recorded. A
      // sent e-mail is recorded as soon as it is sent, not when the claim's slowest send ends (a
      // crash in between would send it again); kept ones are composed in microseconds and go together.
      if (send) await Promise.all(due.map(async (job) => repo.finishAttempts(db, [await outcome(job)])));
      else await repo.finishAttempts(db, await Promise.all(due.map(outcome)));
      return due.length === batch;
    },
  };
  return [consume, sendDue];
}
