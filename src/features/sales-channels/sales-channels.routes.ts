import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { DomainError } from '../../domain/errors.js';
import { errorResponses, unauthorized } from '../../http/errors.js';
import type { ChannelIntake } from './channel-intake.js';
import { CHANNEL_ERRORS } from './sales-channels.errors.js';
import {
  ChannelEnvelope,
  ChannelListEnvelope,
  ChannelOrderParams,
  ChannelParams,
  ConnectBody,
  LedgerEnvelope,
  LedgerQuery,
  LedgerRowEnvelope,
  SettingsBody,
  SHOPIFY_CONNECT_EXAMPLE,
  WOOCOMMERCE_CONNECT_EXAMPLE,
  CHANNEL_EXAMPLE,
  LEDGER_ROW_EXAMPLE,
} from './sales-channels.schemas.js';
import type { SalesChannelsService } from './sales-channels.service.js';

const tags = ['Sales channels'];

/** Connecting stores and reading their health and import problems, under /custom/api/v1. */
export function salesChannelsRoutes(channels: SalesChannelsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/channels',
      {
        schema: {
          tags,
          summary:
            'Connects a store to its Shopify shop or WooCommerce site: its orders flow in, and tracking goes back',
          description:
            'The credentials are checked against the store before anything is saved: a refused token or key pair is a 422 naming ' +
            'access_token, or consumer_key and consumer_secret, and nothing is stored. They are kept sealed and never answered. ' +
            'The orders waiting to ship are pulled at once (Shopify: open, unfulfilled; WooCommerce: processing), then kept up to date ' +
            "by the store's webhooks (webhook_url) and a periodic pull. One channel per store, and per shop (409). docs/channels.md.",
          body: { ...ConnectBody, examples: [SHOPIFY_CONNECT_EXAMPLE, WOOCOMMERCE_CONNECT_EXAMPLE] },
          response: {
            201: answer(ChannelEnvelope, 'The channel, connected; its first pull under way.', {
              data: CHANNEL_EXAMPLE,
            }),
            ...errorResponses(400, 401, 409, 413, 415, 422, 502),
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await channels.connect(actorOf(request), request.body) }),
    );
    app.get(
      '/channels',
      {
        schema: {
          tags,
          summary: "The account's sales channels, with their health",
          response: {
            200: answer(ChannelListEnvelope, 'Newest first, disconnected ones included.', { data: [CHANNEL_EXAMPLE] }),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await channels.list(request.accountId) }),
    );
    app.get(
      '/channels/:id',
      {
        schema: {
          tags,
          summary: 'One sales channel: last sync, last error, the orders imported and refused',
          params: ChannelParams,
          response: {
            200: answer(ChannelEnvelope, 'The channel.', { data: CHANNEL_EXAMPLE }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await channels.get(request.accountId, request.params.id) }),
    );
    app.patch(
      '/channels/:id',
      {
        schema: {
          tags,
          summary: 'Changes how the channel imports (warehouse, queue or book, package, notify the buyer)',
          description:
            'Fields left out keep their value (an empty body changes nothing). The refused orders are imported again with the new settings.',
          params: ChannelParams,
          body: { ...SettingsBody, examples: [{ default_weight: 0.5, on_import: 'queue' }] },
          response: {
            200: answer(ChannelEnvelope, 'The channel as changed.', {
              data: { ...CHANNEL_EXAMPLE, default_weight: 0.5 },
            }),
            ...errorResponses(400, 401, 404, 413, 415, 422),
          },
        },
      },
      async (request) => ({ data: await channels.update(actorOf(request), request.params.id, request.body) }),
    );
    app.delete(
      '/channels/:id',
      {
        schema: {
          tags,
          summary: 'Disconnects a sales channel: no more orders come in; those imported stay',
          params: ChannelParams,
          response: {
            200: answer(ChannelEnvelope, 'The channel, disconnected.', {
              data: { ...CHANNEL_EXAMPLE, status: 'disconnected', disconnected_at: '2026-11-21T09:00:00.000Z' },
            }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await channels.disconnect(actorOf(request), request.params.id) }),
    );
    app.post(
      '/channels/:id/sync',
      {
        schema: {
          tags,
          summary: 'Pulls the orders waiting to ship now, rather than at the next periodic pull',
          params: ChannelParams,
          response: {
            200: answer(ChannelEnvelope, 'The channel; its pull under way.', { data: CHANNEL_EXAMPLE }),
            ...errorResponses(401, 404, 410),
          },
        },
      },
      async (request) => ({ data: await channels.sync(actorOf(request), request.params.id) }),
    );
    app.get(
      '/channels/:id/orders',
      {
        schema: {
          tags,
          summary:
            'The store orders the channel has seen and what became of each; state=refused lists the import problems',
          params: ChannelParams,
          querystring: LedgerQuery,
          response: {
            200: answer(LedgerEnvelope, 'The latest 200, newest change first.', { data: [LEDGER_ROW_EXAMPLE] }),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => ({
        data: await channels.orders(
          request.accountId,
          request.params.id,
          request.query.state === undefined ? undefined : [request.query.state],
        ),
      }),
    );
    app.post(
      '/channels/:id/orders/:channel_order_id/retry',
      {
        schema: {
          tags,
          summary: 'Imports a refused store order again, once what stopped it is fixed',
          params: ChannelOrderParams,
          response: {
            200: answer(LedgerRowEnvelope, 'The order, queued for import.', {
              data: { ...LEDGER_ROW_EXAMPLE, state: 'pending' },
            }),
            ...errorResponses(401, 404, 409),
          },
        },
      },
      async (request) => ({
        data: await channels.retry(actorOf(request), request.params.id, request.params.channel_order_id),
      }),
    );
  };
}

/**
 * The stores' webhooks: a platform's callback, not a client API (docs/channels.md), so kept out of
 * /openapi.json. The body stays the bytes the signature was made over.
 */
export function channelWebhookRoutes(intake: ChannelIntake, wake: () => void): FastifyPluginAsyncTypebox {
  // In a context of its own: the raw-body parsers stay off the scope's other routes.
  const hooks: FastifyPluginAsyncTypebox = async (app) => {
    const raw = (_request: unknown, body: string | Buffer, done: (error: null, body: string) => void) =>
      done(null, body.toString());
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 2 * 1024 * 1024 }, raw);
    // WooCommerce's ping on a webhook's creation is a form post.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, raw);
    app.post(
      '/channels/:id/webhook',
      { schema: { hide: true, params: Type.Object({ id: Type.String({ maxLength: 64 }) }) } },
      async (request) => {
        const headers = Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]),
        );
        try {
          const outcome = await intake.receiveWebhook(request.params.id, {
            rawBody: typeof request.body === 'string' ? request.body : '',
            headers,
          });
          if (outcome === 'taken') wake();
          return { received: outcome };
        } catch (error) {
          // Its 401 names what to send: the platform's signature, not a Bearer credential.
          if (error instanceof DomainError && error.code === CHANNEL_ERRORS.channel_webhook_unsigned.code)
            throw unauthorized(
              error.message,
              'X-Shopify-Hmac-Sha256, X-WC-Webhook-Signature',
              CHANNEL_ERRORS.channel_webhook_unsigned,
            );
          throw error;
        }
      },
    );
  };
  return async (app) => {
    await app.register(hooks);
  };
}
