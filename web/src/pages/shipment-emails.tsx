import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { ErrorSummary, Loading } from '../ui';

/** The moments the buyer is e-mailed about, as the store's notify_events name them. */
const MOMENTS: Record<string, string> = {
  shipped: 'Shipped',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  ndr_raised: 'Delivery failed',
  rto_delivered: 'Returned to you',
  return_requested: 'Return request received',
  return_approved: 'Return request approved',
  return_rejected: 'Return request declined',
};

const SKIPPED: Record<string, string> = {
  event_turned_off: 'Not sent: the store does not e-mail this moment',
  no_email_address: 'Not sent: the order has no e-mail address',
  smtp_not_configured: 'Not sent: the server had no mail server then',
};

type Notification = Awaited<ReturnType<typeof notificationsOf>>['data'][number];
const notificationsOf = (id: string) =>
  unwrap(api.GET('/custom/api/v1/shipments/{id}/notifications', { params: { path: { id } } }));

function what(n: Notification): string {
  switch (n.status) {
    case 'sent':
      return `Sent ${formatDateTime(n.sent_at)}`;
    case 'outbox':
      return 'Kept in the outbox: this server sends no e-mail (no SMTP_URL)';
    case 'pending':
      return n.last_error ? `Not sent yet, trying again: ${n.last_error}` : 'Being sent';
    case 'failed':
      return `Failed: ${n.last_error ?? 'the mail server refused it'}`;
    default:
      return SKIPPED[n.skip_reason ?? ''] ?? 'Not sent';
  }
}

/**
 * The e-mails the buyer got (or would get) about this shipment: each moment, what became of it, and
 * the message itself to read, from the same records the API answers.
 */
export function ShipmentEmails({ shipmentId }: { shipmentId: string }) {
  const notifications = useQuery({
    queryKey: ['notifications', shipmentId],
    queryFn: () => notificationsOf(shipmentId),
  });
  const emails = useQuery({
    queryKey: ['emails', shipmentId],
    queryFn: () => unwrap(api.GET('/custom/api/v1/shipments/{id}/emails', { params: { path: { id: shipmentId } } })),
  });
  const composed = new Map((emails.data?.data ?? []).map((e) => [e.id, e]));
  const rows = notifications.data?.data ?? [];
  return (
    <article className="card" aria-labelledby="emails-h">
      <h2 id="emails-h">E-mails to the buyer</h2>
      <ErrorSummary error={notifications.error ?? emails.error} />
      {notifications.isPending ? (
        <Loading what="the e-mails" />
      ) : rows.length === 0 ? (
        <p>None yet: the buyer is e-mailed when the parcel ships, goes out for delivery and is delivered.</p>
      ) : (
        <ul className="plain emails">
          {rows.map((n) => {
            const email = composed.get(n.id);
            return (
              <li key={n.id}>
                <strong>{MOMENTS[n.notify_event] ?? n.notify_event}</strong> · {formatDateTime(n.created_at)}
                {n.recipient && <> · to {n.recipient}</>}
                <div>{what(n)}</div>
                {email && (
                  <details>
                    <summary>{email.subject}</summary>
                    <pre className="email-text">{email.text}</pre>
                  </details>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}
