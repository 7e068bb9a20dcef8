import type { Db } from '../../base/db/client.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import type { EmailView, NotificationView } from './notifications.schemas.js';
import * as repo from './notifications.repository.js';

export type NotificationsService = ReturnType<typeof createNotificationsService>;

/** `priya@example.com` → `p****@example.com`: enough for the merchant to tell addresses apart, not to read one. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}****${at > 0 ? address.slice(at) : ''}`;
}

const iso = (at: Date | null) => at?.toISOString() ?? null;

function toView(row: repo.NotificationRow): NotificationView {
  return {
    id: row.id,
    event_id: row.eventId,
    event_type: row.eventType,
    notify_event: row.notifyEvent as NotificationView['notify_event'],
    channel: 'email',
    recipient: row.recipient === null ? null : maskEmail(row.recipient),
    status: row.status as NotificationView['status'],
    skip_reason: row.skipReason,
    attempts: row.attempts,
    last_error: row.lastError,
    next_attempt_at: iso(row.nextAttemptAt),
    created_at: row.createdAt.toISOString(),
    sent_at: iso(row.sentAt),
  };
}

/** A composed e-mail as the merchant reads it: the whole message, to the customer's own address. */
function toEmail(row: repo.NotificationRow): EmailView {
  return {
    id: row.id,
    event_id: row.eventId,
    notify_event: row.notifyEvent as EmailView['notify_event'],
    status: row.status as EmailView['status'],
    to: row.recipient!,
    subject: row.subject!,
    text: row.bodyText!,
    html: row.bodyHtml!,
    created_at: row.createdAt.toISOString(),
    composed_at: row.updatedAt.toISOString(),
    sent_at: iso(row.sentAt),
  };
}

export function createNotificationsService({ db }: { db: Db }) {
  return {
    /** The composed e-mails of one of the account's shipments (by id or AWB): the outbox without SMTP_URL, else what was sent. */
    async emails(accountId: string, idOrAwb: string) {
      const rows = await db.transaction(async (tx) => {
        const shipmentId = await repo.findShipmentId(tx, accountId, idOrAwb);
        if (!shipmentId) throw SHIPMENT_ERRORS.shipment_not_found.error('Shipment not found');
        return repo.listForShipment(tx, accountId, shipmentId);
      });
      return rows.filter((row) => row.subject !== null && row.recipient !== null).map(toEmail);
    },
    /** The customer e-mails of one of the account's shipments. */
    async list(accountId: string, shipmentId: string) {
      const rows = await db.transaction(async (tx) => {
        if (!(await repo.shipmentExists(tx, accountId, shipmentId)))
          throw SHIPMENT_ERRORS.shipment_not_found.error('Shipment not found');
        return repo.listForShipment(tx, accountId, shipmentId);
      });
      return rows.map(toView);
    },
  };
}
