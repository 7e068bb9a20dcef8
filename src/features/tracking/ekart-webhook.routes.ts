import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { type EkartTrackDetail, mapTrackDetails, readEkartPush, UNVERIFIED_POST } from '../../couriers/ekart-scans.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { invalid } from '../../domain/errors.js';
import { TRACKING_ERRORS } from './tracking.errors.js';
import { TrackingEventsResponse } from './tracking.schemas.js';
import type { TrackingService } from './tracking.service.js';

/** Ekart posts one scan a time; a body far beyond that is not Ekart's. */
const BODY_LIMIT = 64 * 1024;

/**
 * Where Ekart's signature may be. Its description names no header: the webhook `secret` is only
 * "to hash the webhook post body with for calculating h-mac" (Ekart_API.yaml). These are the
 * headers a production configuration accepts it in (public code index id 55109809431; the list is
 * also in couriers/fixtures/ekart.fixtures.ts); one client reads x-ekart-signature (dhirajgiri3/Shipcrowd,
 * ekart.webhook.service.ts), another logs every header until a real event shows which (index id
 * 65798353595).
 */
export const SIGNATURE_HEADERS = [
  'x-ekart-webhook-secret',
  'x-ekart-webhook-signature',
  'x-ekart-signature',
  'x-ekart-hmac-sha256',
  'x-hmac-sha256',
  'x-webhook-signature',
  'x-signature',
  'x-hub-signature-256',
] as const;

/** Headers whose values are credentials of some hop, never kept. */
const WITHHELD = new Set(['authorization', 'proxy-authorization', 'cookie']);
const HEADER_VALUE_LIMIT = 500;
const HEADERS_KEPT = 50;

/**
 * Whether `given` is the HMAC-SHA256 of the body under the secret: hex or base64 (standard or
 * URL-safe, padded or not), with or without a `sha256=` prefix; compared in constant time.
 */
function signs(rawBody: string, secret: string, given: string): boolean {
  const value = given.trim().replace(/^sha256=/i, '');
  const bytes = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value, 'base64')
      : undefined;
  if (bytes?.length !== 32) return false;
  return timingSafeEqual(bytes, createHmac('sha256', secret).update(rawBody, 'utf8').digest());
}

const valuesOf = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The header whose value signs the body, or undefined when none does. */
function signedBy(rawBody: string, secret: string, headers: IncomingHttpHeaders) {
  return SIGNATURE_HEADERS.find((name) => valuesOf(headers[name]).some((value) => signs(rawBody, secret, value)));
}

/**
 * A post's headers as kept with it, so that the first real post shows how Ekart signs: every name,
 * and the values, which for the signature headers are HMACs, not secrets. A hop's credentials are
 * withheld, and a value carrying the webhook secret itself is replaced by a note saying so.
 */
function keptHeaders(headers: IncomingHttpHeaders, secret: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, HEADERS_KEPT)) {
    const text = valuesOf(value).join(', ');
    kept[name] = WITHHELD.has(name)
      ? '[withheld]'
      : text.includes(secret)
        ? '[the webhook secret itself, in plain]'
        : text.slice(0, HEADER_VALUE_LIMIT);
  }
  return kept;
}

const EkartWebhookResponse = Type.Object({
  results: TrackingEventsResponse.properties.results,
  ignored: Type.Optional(
    Type.String({
      description:
        'Why the post carried nothing to apply: a shipment_created post, or a scan Dakiya could not read (a status it does not map), which is kept for the operator (GET /admin/v1/kept-scans).',
    }),
  ),
});

export interface EkartWebhookDeps {
  tracking: TrackingService;
  /** EKART_WEBHOOK_SECRET; without it the route answers 404. */
  secret: string | undefined;
  /** The catalogue's services whose connector is ekart: the parcel's is whichever holds its AWB. */
  carrierIds: readonly string[];
}

/**
 * `POST /carrier/v1/ekart/webhook`: Ekart's `track_updated` webhook, registered at Ekart with this
 * URL and EKART_WEBHOOK_SECRET. A post is applied when the HMAC-SHA256 of its body under the secret
 * is in one of SIGNATURE_HEADERS; one no header verifies is refused (403) and kept for the operator
 * with its headers and its exact body (GET /admin/v1/kept-scans, reason_code refused), never
 * applied: once its headers show how Ekart signs, it can be posted again as it came. Its scans go
 * through the same intake as polled and pushed ones.
 */
export function ekartWebhookRoutes({ tracking, secret, carrierIds }: EkartWebhookDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The signature covers the body's exact bytes: keep them rather than a re-serialised parse.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      '/ekart/webhook',
      {
        // Ekart's callback, not a client API (as WhatsApp's): documented in docs/couriers.md rather than in /openapi.json.
        schema: {
          hide: true,
          response: {
            200: answer(EkartWebhookResponse, 'What each scan did, as /carrier/v1/tracking-events answers it.'),
            ...errorResponses(400, 403, 404, 413, 415),
          },
        },
      },
      async (request) => {
        if (!secret)
          throw TRACKING_ERRORS.ekart_webhooks_disabled.error(
            'Ekart webhooks are not enabled on this server: set EKART_WEBHOOK_SECRET',
          );
        const raw = typeof request.body === 'string' ? request.body : '';
        if (!signedBy(raw, secret, request.headers)) {
          const why = `no signature verifies the body under EKART_WEBHOOK_SECRET: an HMAC-SHA256 (hex or base64, with or without sha256=) was looked for in ${SIGNATURE_HEADERS.join(', ')}`;
          let awb = '-';
          try {
            const push = readEkartPush(JSON.parse(raw));
            if ('awb' in push) awb = push.awb;
          } catch {
            // Not JSON: kept all the same, as it came.
          }
          const post = { headers: keptHeaders(request.headers, secret), body: raw };
          const kept = await tracking.keepRefusedPost('ekart', awb, { [UNVERIFIED_POST]: post }, why);
          throw TRACKING_ERRORS.ekart_signature_invalid.error(
            `${why}; ${kept ? 'the post is kept with its headers for the operator' : 'the post is not kept: the operator has 100 such posts to read already'}`,
          );
        }
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          throw invalid('The body is not valid JSON');
        }
        const push = readEkartPush(body);
        if ('problem' in push) throw TRACKING_ERRORS.ekart_push_invalid.error(push.problem);
        if ('ignored' in push) return { results: [], ignored: push.ignored };
        const { results, unread } = await tracking.ingestPushed(
          'ekart',
          carrierIds,
          push.awb,
          [push.scan],
          (parcel, raw) => mapTrackDetails(parcel.awb, raw as EkartTrackDetail[], parcel.journey),
        );
        return { results, ...(unread && { ignored: `kept unread: ${unread}` }) };
      },
    );
  };
}
