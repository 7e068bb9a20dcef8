import { type Static, type TSchema, Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { NOTIFY_EVENTS, SKIP_REASONS } from '../../domain/shipment/notify-events.js';
import { Uuid } from '../../http/schemas.js';

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = (schema: TSchema, description: string) => Type.Union([schema, Type.Null()], { description });

export const NotificationsParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The shipment_id.', examples: [EXAMPLE.bookedShipmentId] }),
});

const SENT = {
  id: '5b7d9f1a-3c5e-4a7b-9d1f-3a5c7e9b1d24',
  event_id: '2c4e6a8b-0d1f-4e3a-b5c7-9e1a3c5e7f02',
  event_type: 'shipment.booked',
  notify_event: 'shipped',
  channel: 'email',
  recipient: 'p****@example.com',
  status: 'sent',
  skip_reason: null,
  attempts: 1,
  last_error: null,
  next_attempt_at: null,
  created_at: '2026-11-20T06:30:01.000Z',
  sent_at: '2026-11-20T06:30:02.000Z',
};
const RETRYING = {
  ...SENT,
  id: '8e0a2c4e-6f8a-4b1c-8d3e-5f7a9b1c3d46',
  event_id: '3f6c1e2a-9b8d-4c7e-a5f4-1d2e3c4b5a69',
  event_type: 'shipment.status_changed',
  notify_event: 'out_for_delivery',
  status: 'pending',
  last_error: '451 4.7.1 Greylisted, please try again later',
  next_attempt_at: '2026-11-22T04:11:05.000Z',
  created_at: '2026-11-22T04:10:00.000Z',
  sent_at: null,
};

export const Notification = Type.Object({
  id: Uuid,
  event_id: Type.String({ format: 'uuid', description: 'The event it tells of, as GET /events lists it.' }),
  event_type: Type.String({ description: 'shipment.booked, or shipment.status_changed for the statuses.' }),
  notify_event: Type.Enum([...NOTIFY_EVENTS], {
    description: 'The moment the customer is told of; a store chooses which with notify_events.',
  }),
  channel: Type.Literal('email'),
  recipient: Nullable(
    Type.String(),
    "The customer's address, masked (first letter and domain); null when the order has none.",
  ),
  status: Type.Union(
    [
      Type.Literal('pending'),
      Type.Literal('sent'),
      Type.Literal('outbox'),
      Type.Literal('skipped'),
      Type.Literal('failed'),
    ],
    {
      description:
        'pending until the SMTP server accepts it (sent) or the last retry fails (failed); outbox: the server has no SMTP_URL, so the ' +
        'message was composed and kept, not sent (read it at GET /shipments/{id}/emails); skipped when not to be sent (skip_reason).',
    },
  ),
  skip_reason: Nullable(
    Type.Enum([...SKIP_REASONS]),
    'event_turned_off: the store left this moment out of notify_events; no_email_address: the order has no e-mail address (no recipient); ' +
      'smtp_not_configured: recorded by earlier versions, which kept nothing without SMTP_URL. Null unless skipped.',
  ),
  attempts: Type.Integer({ minimum: 0, description: 'Attempts to hand it to the SMTP server so far.' }),
  last_error: Nullable(
    Type.String(),
    "The SMTP server's answer to the latest failed attempt (kept once sent); null when none failed.",
  ),
  next_attempt_at: Nullable(Timestamp, 'When the next attempt is due; null once finished.'),
  created_at: Timestamp,
  sent_at: Nullable(Timestamp, 'When the SMTP server accepted it.'),
});

export type NotificationView = Static<typeof Notification>;

export const NotificationListEnvelope = Type.Object(
  { data: Type.Array(Notification, { description: "The shipment's notifications in the order of its events." }) },
  { examples: [{ data: [SENT, RETRYING] }] },
);

export const EmailsParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The shipment_id, or its AWB (awb_code).',
    examples: [EXAMPLE.bookedShipmentId, EXAMPLE.awb],
  }),
});

const OUTBOX_EMAIL = {
  id: '5b7d9f1a-3c5e-4a7b-9d1f-3a5c7e9b1d24',
  event_id: '2c4e6a8b-0d1f-4e3a-b5c7-9e1a3c5e7f02',
  notify_event: 'shipped',
  status: 'outbox',
  to: 'priya@example.com',
  subject: 'Your Acme Apparel order ORD-20045 has shipped',
  text: 'Acme Apparel\n\nHello Priya,\n\n…',
  html: '<!doctype html><html lang="en">…</html>',
  created_at: '2026-11-20T06:30:01.000Z',
  composed_at: '2026-11-20T06:30:01.000Z',
  sent_at: null,
};

export const Email = Type.Object({
  id: Type.String({
    format: 'uuid',
    description: 'The notification id, as GET /shipments/{id}/notifications lists it.',
  }),
  event_id: Type.String({ format: 'uuid', description: 'The event it tells of, as GET /events lists it.' }),
  notify_event: Type.Enum([...NOTIFY_EVENTS]),
  status: Type.Union([Type.Literal('outbox'), Type.Literal('sent'), Type.Literal('pending'), Type.Literal('failed')], {
    description:
      'outbox: kept, not sent (no SMTP_URL); sent: the SMTP server accepted it; pending or failed: composed, and an attempt to send it failed.',
  }),
  to: Type.String({ description: "The customer's address, as the order gave it." }),
  subject: Type.String(),
  text: Type.String({ description: 'The plain-text part.' }),
  html: Type.String({ description: 'The HTML part, as a mail client would show it.' }),
  created_at: Timestamp,
  composed_at: Timestamp,
  sent_at: Nullable(Timestamp, 'When the SMTP server accepted it; null in the outbox.'),
});

export type EmailView = Static<typeof Email>;

export const EmailListEnvelope = Type.Object(
  { data: Type.Array(Email, { description: "The shipment's composed e-mails in the order of its events." }) },
  { examples: [{ data: [OUTBOX_EMAIL] }] },
);
