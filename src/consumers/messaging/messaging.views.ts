import type { ConfirmationRow, MessageRow } from './messaging.repository.js';
import type { OrderConfirmationView } from './messaging.schemas.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function confirmationView(row: ConfirmationRow): OrderConfirmationView {
  return {
    outcome: row.outcome,
    held: row.held,
    channel: row.channel,
    language: row.language,
    due_at: row.dueAt.toISOString(),
    answered_at: iso(row.answeredAt),
    answered_via: row.answeredVia,
    payment_link: row.paymentLink,
    cod_to_prepaid: row.codToPrepaid,
    payment_reference: row.paymentReference,
    paid_at: iso(row.paidAt),
  };
}

/** A phone's last four digits, or an address's first letter and domain: enough to tell which, not enough to harvest. */
export function maskRecipient(recipient: string): string {
  const at = recipient.indexOf('@');
  if (at > 0) return `${recipient[0]}****${recipient.slice(at)}`;
  return `${'*'.repeat(Math.max(0, recipient.length - 4))}${recipient.slice(-4)}`;
}

export function messageView(row: MessageRow) {
  return {
    id: row.id,
    channel: row.channel,
    purpose: row.purpose,
    template: row.template,
    language: row.language,
    recipient: maskRecipient(row.recipient),
    status: row.status,
    attempts: row.attempts,
    provider_message_id: row.providerMessageId,
    last_error: row.lastError,
    next_attempt_at: iso(row.nextAttemptAt),
    created_at: row.createdAt.toISOString(),
    sent_at: iso(row.sentAt),
  };
}

/** Rupees as a buyer reads them: 998, or 998.50 when there are paise. */
export const rupees = (paise: number) => (paise % 100 === 0 ? String(paise / 100) : (paise / 100).toFixed(2));
