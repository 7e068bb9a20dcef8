import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses, unauthorized } from '../../http/errors.js';
import { DomainError } from '../../domain/errors.js';
import { MESSAGING_ERRORS } from './messaging.errors.js';
import type { ChannelName } from './channel.js';
import {
  ChannelBody,
  ChannelEnvelope,
  ChannelListEnvelope,
  ChannelParams,
  SMS_EXAMPLE,
  WHATSAPP_EXAMPLE,
} from './channel.schemas.js';
import {
  AnswerForm,
  ConfirmationEnvelope,
  HookParams,
  PageQuery,
  PolicyBody,
  PolicyEnvelope,
  POLICY_EXAMPLE,
  PAID_EXAMPLE,
  PaidBody,
  PaidEnvelope,
  ShipmentParams,
  TokenParams,
  VerifyQuery,
} from './messaging.schemas.js';
import type { MessagingChannelsService } from './messaging-channels.service.js';
import type { MessagingService } from './messaging.service.js';

const tags = ['Buyer messaging'];

/** Channels, the confirmation policy and a shipment's confirmation, under /custom/api/v1. */
export function messagingRoutes(
  channels: MessagingChannelsService,
  messaging: MessagingService,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/messaging/channels',
      {
        schema: {
          tags,
          summary: 'The buyer-messaging channels: WhatsApp, SMS (MSG91) and e-mail, each off until enabled',
          description:
            'Credentials are stored sealed (AES-256-GCM, SECRETS_KEY) and never answered: credentials_set names those stored.',
          response: {
            200: answer(ChannelListEnvelope, 'The three channels, in the default order of a policy.'),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await channels.listChannels(request.accountId) }),
    );
    app.put(
      '/messaging/channels/:channel',
      {
        schema: {
          tags,
          summary: 'Sets one channel: its ids, templates, sender, base URL and credentials',
          description:
            'Fields left out keep their value; a credential is replaced only when sent. whatsapp takes phone_number_id, api_version, base_url, ' +
            'access_token, app_secret, verify_token, confirmation_template and ndr_template; sms takes sender, base_url, auth_key, confirmation_template and ndr_template; ' +
            'email only enabled. A field of another channel is a 400; a base_url the outbound guard refuses (a private or local address, ' +
            'a host that does not resolve) is a 400 naming base_url; enabling a channel without what it needs to send is a 422 naming it.',
          params: ChannelParams,
          body: { ...ChannelBody, examples: [WHATSAPP_EXAMPLE, SMS_EXAMPLE] },
          response: {
            200: answer(ChannelEnvelope, 'The channel as stored.'),
            ...errorResponses(400, 401, 404, 413, 415, 422),
          },
        },
      },
      async (request) => ({
        data: await channels.setChannel(
          actorOf(request),
          request.params.channel as ChannelName,
          request.body as Record<string, unknown>,
        ),
      }),
    );
    app.get(
      '/messaging/confirmation-policy',
      {
        schema: {
          tags,
          summary:
            'Which COD orders the buyer is asked to confirm, how, for how long, and whether unconfirmed ones are held',
          response: { 200: answer(PolicyEnvelope, 'The policy; mode off until set.'), ...errorResponses(401) },
        },
      },
      async (request) => ({ data: await messaging.policy(request.accountId) }),
    );
    app.put(
      '/messaging/confirmation-policy',
      {
        schema: {
          tags,
          summary: 'Sets the order-confirmation policy',
          description:
            'Fields left out keep their value. Applies to orders created from now on (docs/rto.md, Order confirmation).',
          body: { ...PolicyBody, examples: [POLICY_EXAMPLE] },
          response: { 200: answer(PolicyEnvelope, 'The policy as stored.'), ...errorResponses(400, 401, 413, 415) },
        },
      },
      async (request) => ({ data: await messaging.setPolicy(actorOf(request), request.body) }),
    );
    app.get(
      '/shipments/:id/confirmation',
      {
        config: { resource: 'Shipment', notFound: SHIPMENT_ERRORS.shipment_not_found },
        schema: {
          tags,
          summary: "A shipment's order confirmation and every message its buyer was sent",
          description: '404: no such shipment in this account.',
          params: ShipmentParams,
          response: {
            200: answer(
              ConfirmationEnvelope,
              'The confirmation (null when none was asked) and the messages, oldest first.',
            ),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await messaging.confirmation(request.accountId, request.params.id) }),
    );
    app.post(
      '/shipments/:id/cod-to-prepaid',
      {
        config: { resource: 'Shipment', notFound: SHIPMENT_ERRORS.shipment_not_found },
        schema: {
          tags,
          summary: 'The buyer paid online: the COD order turns prepaid (the gateway integration point)',
          description:
            "Call it from your payment gateway's webhook (Razorpay payment.captured, Cashfree PAYMENT_SUCCESS, …) once the payment behind " +
            'the payment link is captured. The order becomes prepaid: cod_collectible 0, the charges re-quoted on the booked service without ' +
            'the COD fee, a pending confirmation confirmed, and shipment.cod_to_prepaid recorded with a fresh label_url. A label already printed ' +
            '(its PDF fetched) still shows the COD amount, so it is re-issued as POST /shipments/{id}/label/reissue does (label_reissued true, ' +
            'shipment.label_reissued recorded, links to the old label 410); one never printed prints PREPAID by any link. amount must equal the amount to collect (422 otherwise); 409 once picked up or already prepaid; 404: no such shipment in this account.',
          params: ShipmentParams,
          body: { ...PaidBody, examples: [PAID_EXAMPLE] },
          response: {
            200: answer(PaidEnvelope, 'The shipment, now prepaid.'),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ({ data: await messaging.markPaid(actorOf(request), request.params.id, request.body) }),
    );
  };
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
};
const HtmlPage = Type.String({ description: 'An HTML page.' });

/** The public side: WhatsApp's webhook (verification and signed replies) and the answer page of SMS and e-mail links. */
export function messagingPublicRoutes(messaging: MessagingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    // Meta's callback, not a client API: documented in docs/rto.md rather than in /openapi.json.
    const webhookRoutes: FastifyPluginAsyncTypebox = async (hooks) => {
      // The signature covers the body's exact bytes: keep them rather than a re-serialised parse.
      hooks.removeContentTypeParser('application/json');
      hooks.addContentTypeParser(
        'application/json',
        { parseAs: 'string', bodyLimit: 1024 * 1024 },
        (_request, body, done) => done(null, body),
      );
      hooks.get(
        '/public/v1/whatsapp/:account_id/webhook',
        { schema: { hide: true, params: HookParams, querystring: VerifyQuery } },
        async (request, reply) =>
          reply.type('text/plain').send(await messaging.verifyWhatsApp(request.params.account_id, request.query)),
      );
      hooks.post(
        '/public/v1/whatsapp/:account_id/webhook',
        { schema: { hide: true, params: HookParams } },
        async (request) => {
          try {
            return {
              answered: await messaging.whatsappInbound(
                request.params.account_id,
                typeof request.body === 'string' ? request.body : '',
                request.headers['x-hub-signature-256'] as string | undefined,
              ),
            };
          } catch (error) {
            // Its 401 names what to send: the signature header, not a Bearer credential.
            if (error instanceof DomainError && error.code === MESSAGING_ERRORS.whatsapp_signature_missing.code)
              throw unauthorized(error.message, 'X-Hub-Signature-256', MESSAGING_ERRORS.whatsapp_signature_missing);
            throw error;
          }
        },
      );
    };
    await app.register(webhookRoutes);
    app.get(
      '/t/:token/confirmation',
      {
        schema: {
          tags: ['Tracking page'],
          security: [],
          summary: "The buyer's Confirm / Cancel page behind an SMS or e-mail link",
          description:
            'Opening it answers nothing (link scanners open links); its buttons post the answer. 404: no order has this link.',
          params: TokenParams,
          querystring: Type.Object({ ...PageQuery.properties, answer: Type.Optional(AnswerForm.properties.answer) }),
          response: {
            200: { description: 'The page.', content: { 'text/html': { schema: HtmlPage } } },
            ...errorResponses(404),
          },
        },
      },
      async (request, reply) =>
        reply
          .headers(PAGE_HEADERS)
          .send(await messaging.page(request.params.token, request.query.lang, request.query.answer, false)),
    );
    app.post(
      '/t/:token/confirmation',
      {
        schema: {
          tags: ['Tracking page'],
          security: [],
          summary: "The buyer's answer from the Confirm / Cancel page",
          params: TokenParams,
          querystring: PageQuery,
          body: { ...AnswerForm, examples: [{ answer: 'confirm' }] },
          response: {
            200: {
              description: 'The page, thanking the buyer or saying the order can no longer be answered.',
              content: { 'text/html': { schema: HtmlPage } },
            },
            ...errorResponses(400, 404, 413, 415),
          },
        },
      },
      async (request, reply) =>
        reply
          .headers(PAGE_HEADERS)
          .send(await messaging.page(request.params.token, request.query.lang, request.body.answer, true)),
    );
  };
}
