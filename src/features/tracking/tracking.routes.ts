import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { bearerChallenge, CARRIER_SCOPE, readCredential } from '../../http/auth.js';
import { AUTH_ERRORS } from '../../http/auth.errors.js';
import { answer } from '../../http/answer.js';
import { errorResponses, unauthorized } from '../../http/errors.js';
import {
  CarrierTokenBody,
  CarrierTokenResponse,
  TrackingEventsBody,
  TrackingEventsResponse,
} from './tracking.schemas.js';
import type { TrackingService } from './tracking.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The courier service a carrier token speaks for. */
    carrierId: string;
  }
}

/** The `/carrier/v1` hook: a carrier token names the courier service; account credentials are refused. */
export function carrierAuth(tracking: TrackingService) {
  return async (request: FastifyRequest) => {
    const carrierId = await tracking.authenticateCarrier(readCredential(request.headers.authorization, CARRIER_SCOPE));
    if (!carrierId)
      throw unauthorized(
        'Invalid or revoked carrier token',
        bearerChallenge(CARRIER_SCOPE, 'invalid_token'),
        AUTH_ERRORS.invalid_carrier_token,
      );
    request.carrierId = carrierId;
  };
}

/** `/carrier/v1`: couriers report scans with a carrier token. */
export function carrierRoutes(tracking: TrackingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Set by the hook below; declared first so the scope's requests keep one shape.
    app.decorateRequest('carrierId', '');
    app.addHook('onRequest', carrierAuth(tracking));

    app.post(
      '/tracking-events',
      {
        schema: {
          tags: ['Tracking'],
          summary: 'Report tracking scans (couriers only)',
          description:
            'Up to 500 events, answered one by one. Events are applied in event_time order whatever order they arrive in; ' +
            'one the status machine does not allow is kept in the history but does not change the shipment. ' +
            'A replay (same event_id, or same AWB, status and event_time) changes nothing. An accepted event that changed nothing ' +
            '(a replay, a repeat of the status already applied, or a status the machine does not apply then) answers changed: false ' +
            'and the reason. ' +
            'Return AWBs take the return statuses (return_picked_up, …) and the QC result: qc_status passed on return_picked_up, ' +
            'qc_status failed with qc_reason on return_cancelled (docs/tracking.md, "Returns").',
          security: [{ carrierToken: [] }],
          body: TrackingEventsBody,
          response: {
            200: answer(
              TrackingEventsResponse,
              'Each event accepted (changed: false and the reason when it changed nothing) or refused with the reason, in the order sent.',
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => ({ results: await tracking.ingest(request.carrierId, request.body.events) }),
    );
  };
}

/** Operator route: issue a carrier token. */
export function carrierTokenAdminRoutes(tracking: TrackingService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/carrier-tokens',
      {
        schema: {
          tags: ['Operator'],
          summary: 'Issue a token for a courier service to report tracking events',
          security: [{ adminToken: [] }],
          body: CarrierTokenBody,
          response: {
            201: answer(CarrierTokenResponse, "The courier service's new token (shown only this once)."),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const { token, carrierId } = await tracking.createCarrierToken(request.body.carrier_id);
        return reply.status(201).send({ token, carrier_id: carrierId });
      },
    );
  };
}
