import { answer } from '../../http/answer.js';
import { actorOf } from '../../http/permission-guard.js';
import { WEBHOOK_ERRORS } from './webhooks.errors.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/errors.js';
import {
  CreateWebhookBody,
  DeletedEnvelope,
  DeliveriesQuery,
  DeliveryEnvelope,
  DeliveryListEnvelope,
  DeliveryParams,
  EndpointEnvelope,
  EndpointListEnvelope,
  EndpointSecretEnvelope,
  UpdateWebhookBody,
  UpdatedEndpointEnvelope,
  WebhookParams,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const tags = ['Events and webhooks'];
const config = { resource: 'Webhook endpoint', notFound: WEBHOOK_ERRORS.webhook_endpoint_not_found };
const SIGNING =
  'Each delivery is a POST of the event (the same JSON GET /events lists) signed per the Standard Webhooks ' +
  'specification: headers webhook-id (the event id, the same on every retry), webhook-timestamp and webhook-signature ' +
  '(v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed with the decoded secret>). A 2xx within 10 s is success; ' +
  'anything else is retried after about 5 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h.';

/** Webhook endpoints and their deliveries, under /custom/api/v1. */
export function webhooksRoutes(webhooks: WebhooksService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/webhooks',
      {
        schema: {
          tags,
          summary: 'Register a webhook endpoint',
          description:
            `${SIGNING} The URL must be https and must not resolve to a loopback, private, link-local, reserved or IPv6-transition address, ` +
            'nor be localhost or an IPv4 address spelt other than as four decimal numbers (400 naming url), ' +
            'unless the server allows them (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). A host that does not resolve yet is accepted with a ' +
            'warning in data.warnings; every send resolves it again and refuses a private address then. The answer shows the signing secret; keep it.',
          body: CreateWebhookBody,
          response: {
            201: answer(
              EndpointSecretEnvelope,
              'The new endpoint, enabled, with its signing secret (shown here and on rotation only).',
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request, reply) => reply.status(201).send({ data: await webhooks.create(actorOf(request), request.body) }),
    );

    app.get(
      '/webhooks',
      {
        schema: {
          tags,
          summary: "List the account's webhook endpoints",
          response: {
            200: answer(EndpointListEnvelope, "The account's endpoints, without their secrets."),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await webhooks.list(request.accountId) }),
    );

    app.get(
      '/webhooks/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get a webhook endpoint',
          params: WebhookParams,
          response: { 200: answer(EndpointEnvelope, 'The endpoint, without its secret.'), ...errorResponses(401, 404) },
        },
      },
      async (request) => ({ data: await webhooks.get(request.accountId, request.params.id) }),
    );

    app.put(
      '/webhooks/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Change a webhook endpoint',
          description:
            'Partial: send what changes. status "disabled" stops deliveries (pending ones are given up); "enabled" re-enables one Dakiya disabled.',
          params: WebhookParams,
          body: UpdateWebhookBody,
          response: {
            200: answer(UpdatedEndpointEnvelope, 'The endpoint as updated.'),
            ...errorResponses(400, 401, 404, 413, 415),
          },
        },
      },
      async (request) => ({ data: await webhooks.update(actorOf(request), request.params.id, request.body) }),
    );

    app.delete(
      '/webhooks/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Delete a webhook endpoint; its pending deliveries are given up',
          params: WebhookParams,
          response: {
            200: answer(DeletedEnvelope, 'The endpoint is gone; its pending deliveries are given up.'),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => {
        await webhooks.remove(actorOf(request), request.params.id);
        return { data: { id: request.params.id, deleted: true as const } };
      },
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        config,
        schema: {
          tags,
          summary: 'Replace the signing secret',
          description: 'Deliveries sent from now on are signed with the new secret, shown in the answer.',
          params: WebhookParams,
          response: {
            200: answer(EndpointSecretEnvelope, 'The endpoint with its new secret; the old one stops signing at once.'),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await webhooks.rotateSecret(actorOf(request), request.params.id) }),
    );

    app.post(
      '/webhooks/:id/test',
      {
        config,
        schema: {
          tags,
          summary: 'Send a webhook.test event to this endpoint',
          description:
            'Queued at once and delivered like any event (signed, retried); the answer is the delivery. Not listed by GET /events.',
          params: WebhookParams,
          response: {
            202: answer(
              DeliveryEnvelope,
              'The delivery, queued: it is sent within moments and retried like any other.',
            ),
            ...errorResponses(401, 404, 422),
          },
        },
      },
      async (request, reply) =>
        reply.status(202).send({ data: await webhooks.sendTest(actorOf(request), request.params.id) }),
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        config,
        schema: {
          tags,
          summary: "The endpoint's deliveries and their attempts, newest first",
          params: WebhookParams,
          querystring: DeliveriesQuery,
          response: {
            200: answer(
              DeliveryListEnvelope,
              "The endpoint's deliveries, newest first, each with its attempts' outcome and next retry.",
            ),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => webhooks.deliveries(request.accountId, request.params.id, request.query),
    );

    app.post(
      '/webhooks/:id/deliveries/:delivery_id/redeliver',
      {
        config: { resource: 'Delivery', notFound: WEBHOOK_ERRORS.webhook_delivery_not_found },
        schema: {
          tags,
          summary: "Send a delivery's event again",
          description: 'A new delivery of the same event (same webhook-id), due at once, with a fresh retry schedule.',
          params: DeliveryParams,
          response: {
            202: answer(
              DeliveryEnvelope,
              'The delivery, queued: it is sent within moments and retried like any other.',
            ),
            ...errorResponses(401, 404, 422),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send({ data: await webhooks.redeliver(actorOf(request), request.params.id, request.params.delivery_id) }),
    );
  };
}
