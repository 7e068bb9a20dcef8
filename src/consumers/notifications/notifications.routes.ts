import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  EmailListEnvelope,
  EmailsParams,
  NotificationListEnvelope,
  NotificationsParams,
} from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

/** What the customer of a shipment was sent, under /custom/api/v1. */
export function notificationsRoutes(notifications: NotificationsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/shipments/:id/notifications',
      {
        config: { resource: 'Shipment', notFound: SHIPMENT_ERRORS.shipment_not_found },
        schema: {
          tags: ['Shipments'],
          summary: 'The customer e-mails of a shipment: sent, pending, skipped or failed',
          description:
            'One per customer-facing event (booked, out for delivery, delivered, delivery failed, returned to the seller), ' +
            "sent to the order's billing e-mail (the shipping e-mail when shipping is not billing) from MAIL_FROM under the " +
            "store's brand name, through the server's SMTP_URL. A refused attempt is retried with backoff (MAIL_RETRY_DELAYS); " +
            'each event is sent once per recipient, across restarts and processes. 404: no such shipment in this account.',
          params: NotificationsParams,
          response: {
            200: answer(
              NotificationListEnvelope,
              "The shipment's notifications, in the order of its events; empty before its booking.",
            ),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await notifications.list(request.accountId, request.params.id) }),
    );
    app.get(
      '/shipments/:id/emails',
      {
        config: { resource: 'Shipment', notFound: SHIPMENT_ERRORS.shipment_not_found },
        schema: {
          tags: ['Shipments'],
          summary:
            'The customer e-mails of a shipment as composed: subject, recipient, text and HTML (the outbox without SMTP_URL)',
          description:
            'Without SMTP_URL nothing is sent: each customer e-mail is composed as it would be and kept here (status outbox), so you can ' +
            'read what your customers will get before connecting a mail server. With SMTP_URL, the e-mails composed for sending. ' +
            'E-mails skipped (no recipient, or the store turned the moment off) are not here: GET /shipments/{id}/notifications lists them with why. ' +
            '404: no such shipment in this account.',
          params: EmailsParams,
          response: {
            200: answer(EmailListEnvelope, "The shipment's composed e-mails, in the order of its events."),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await notifications.emails(request.accountId, request.params.id) }),
    );
  };
}
