import type { Db, Tx } from '../../base/db/client.js';
import { findEventsByIds, type StoredEvent } from '../../events/events.repository.js';
import { type OutboxConsumer, pumpConsumer } from '../../events/outbox.js';
import type { WorkerTask } from '../../events/worker.js';
import { logoPath } from '../../tenancy/stores/logo.js';
import { nextAttemptAt } from '../../events/retry.js';
import { mailError, smtpMailer } from './mailer.js';
import { composeMail, type MailShipment } from './notification-mail.js';
import { type NotifyEvent, notifyEventOf, type SkipReason } from '../../domain/shipment/notify-events.js';
import * as repo from './notifications.repository.js';

export interface MailSettings {
  /** SMTP_URL; without it every notification is recorded as skipped and nothing is sent. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender's address; the name shown is the store's brand. */
  mailFrom: string | undefined;
  /** Seconds between attempts; one attempt more than there are delays. */
  retryDelaysSeconds: readonly number[];
  /** One SMTP exchange must end within this. */
  timeoutMs: number;
}

const CONSUME_BATCH = 200;
/** E-mails one worker sends at once. */
const SEND_BATCH = 8;

/** The customer: the billing address's e-mail, or the shipping address's when it is another (the billing one if it has none). */
function recipientOf(r: repo.Recipients): string | null {
  return (r.shippingIsBilling ? r.billingEmail : (r.shippingEmail ?? r.billingEmail)) ?? null;
}

function skipReason(mailOn: boolean, event: NotifyEvent, r: repo.Recipients, to: string | null): SkipReason | null {
  if (!mailOn) return 'smtp_not_configured';
  // A shipment without a store gets every e-mail, as a store does by default.
  if (r.notifyEvents && !r.notifyEvents.includes(event)) return 'event_turned_off';
  if (to === null) return 'no_email_address';
  return null;
}

/** Writes one notification per customer-facing event of the batch: pending to send, or skipped with why. */
async function planNotifications(tx: Tx, events: StoredEvent[], mailOn: boolean, now: Date): Promise<void> {
  const byAccount = new Map<string, { event: StoredEvent; notifyEvent: NotifyEvent }[]>();
  for (const event of events) {
    const notifyEvent = event.subjectType === 'shipment' ? notifyEventOf(event) : undefined;
    if (!notifyEvent) continue;
    const list = byAccount.get(event.accountId) ?? [];
    list.push({ event, notifyEvent });
    byAccount.set(event.accountId, list);
  }
  for (const [accountId, list] of byAccount) {
    const recipients = await repo.recipientsOf(tx, accountId, [...new Set(list.map((e) => e.event.subjectId))]);
    const rows = list.flatMap(({ event, notifyEvent }) => {
      const r = recipients.get(event.subjectId);
      if (!r) return [];
      const to = recipientOf(r);
      const reason = skipReason(mailOn, notifyEvent, r, to);
      return [
        {
          shipmentId: event.subjectId,
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
export const notificationsConsumer = (mailOn: boolean): OutboxConsumer => ({
  name: 'notifications',
  handle: (tx, events) => planNotifications(tx, events, mailOn, new Date()),
});

/**
 * The notification worker's tasks: turn events into jobs, and (with SMTP configured) send the jobs
 * that are due, retrying with backoff. Without SMTP, jobs left pending from an earlier
 * configuration wait for it to return. Times are real time, as for webhooks; `publicBaseUrl` makes
 * the logo's link absolute.
 */
export function notificationTasks(db: Db, settings: MailSettings, publicBaseUrl: string): WorkerTask[] {
  const mailOn = settings.smtpUrl !== undefined && settings.mailFrom !== undefined;
  const consumer = notificationsConsumer(mailOn);
  const consume: WorkerTask = {
    name: 'notification jobs',
    run: async () => (await pumpConsumer(db, consumer, new Date(), CONSUME_BATCH)) === CONSUME_BATCH,
  };
  if (!mailOn) return [consume];
  const send = smtpMailer(settings.smtpUrl!, settings.timeoutMs);
  const from = settings.mailFrom!;
  // Connect, greet and send each have the timeout; a lease outlasts all three.
  const leaseMs = 3 * settings.timeoutMs + 30_000;

  /** Sends one e-mail; answers why it failed, or null. Events and shipments are never deleted, so both are there. */
  async function attempt(job: repo.NotificationRow, event: StoredEvent): Promise<string | null> {
    const row = (await repo.brandOf(db, job.accountId, job.shipmentId))!;
    const { shipment, ...change } = event.data as { shipment: MailShipment } & Record<string, unknown>;
    const brand = {
      name: row.brandName ?? row.accountName,
      logoUrl: row.storeId && row.logoSha256 ? `${publicBaseUrl}${logoPath(row.storeId, row.logoSha256)}` : null,
      supportEmail: row.supportEmail,
      supportPhone: row.supportPhone,
    };
    try {
      const content = composeMail(job.notifyEvent as NotifyEvent, shipment, change, brand);
      await send({ from: { name: brand.name, address: from }, to: job.recipient!, replyTo: brand.supportEmail ?? undefined, ...content });
      return null;
    } catch (error) {
      return mailError(error);
    }
  }

  async function record(job: repo.NotificationRow, error: string | null) {
    const at = new Date();
    const attempts = job.attempts + 1;
    const next = error === null ? null : nextAttemptAt(attempts, settings.retryDelaysSeconds, at, Math.random());
    await repo.finishAttempt(db, job.accountId, job.id, {
      status: error === null ? 'sent' : next ? 'pending' : 'failed',
      attempts,
      nextAttemptAt: next,
      // A later success keeps the last refusal: it tells why the e-mail took more than one attempt.
      lastError: error ?? job.lastError,
      sentAt: error === null ? at : null,
      updatedAt: at,
    });
  }

  const sendDue: WorkerTask = {
    name: 'notification e-mails',
    async run() {
      const at = new Date();
      const due = await repo.claimDue(db, at, new Date(at.getTime() + leaseMs), SEND_BATCH);
      if (due.length === 0) return false;
      const events = new Map((await findEventsByIds(db, [...new Set(due.map((job) => job.eventId))])).map((e) => [e.id, e]));
      // A send is never aborted half-way: stopping waits for it, so what went out is recorded.
      await Promise.all(due.map(async (job) => record(job, await attempt(job, events.get(job.eventId)!))));
      return due.length === SEND_BATCH;
    },
  };
  return [consume, sendDue];
}
