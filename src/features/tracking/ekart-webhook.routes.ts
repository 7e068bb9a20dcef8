import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { hmacSha256Matches } from '../../base/hmac.js';
import { type EkartTrackDetail, mapTrackDetails, readEkartPush } from '../../couriers/ekart-scans.js';
import { answer } from '../../http/answer.js';
import { badRequest, errorResponses, forbidden, notFound } from '../../http/errors.js';
import { TrackingEventsResponse } from './tracking.schemas.js';
import type { TrackingService } from './tracking.service.js';

/** Ekart posts one scan a time; a body far beyond that is not Ekart's. */
const BODY_LIMIT = 64 * 1024;
const SIGNATURE_HEADER = 'x-ekart-signature';

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
 * URL and EKART_WEBHOOK_SECRET. Its scans go through the same intake as polled and pushed ones.
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
          headers: Type.Object({
            [SIGNATURE_HEADER]: Type.Optional(
              Type.String({ description: 'Hex HMAC-SHA256 of the raw body under the webhook secret.' }),
            ),
          }),
          response: {
            200: answer(EkartWebhookResponse, 'What each scan did, as /carrier/v1/tracking-events answers it.'),
            ...errorResponses(400, 403, 404, 413, 415),
          },
        },
      },
      async (request) => {
        if (!secret) throw notFound('Ekart webhooks are not enabled on this server: set EKART_WEBHOOK_SECRET');
        const raw = typeof request.body === 'string' ? request.body : '';
        const signature = request.headers[SIGNATURE_HEADER];
        const given = typeof signature === 'string' ? signature.replace(/^sha256=/, '') : '';
        if (!hmacSha256Matches(raw, secret, given))
          throw forbidden(`${SIGNATURE_HEADER} does not match the body signed with the webhook secret`);
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          throw badRequest('The body is not valid JSON');
        }
        const push = readEkartPush(body);
        if ('problem' in push) throw badRequest(push.problem);
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
