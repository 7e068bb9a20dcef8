import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../http/permission-guard.js';
import { answer } from '../http/answer.js';
import { errorResponses } from '../http/errors.js';
import {
  ConnectorParams,
  CourierConnectionsEnvelope,
  CredentialsBody,
  CredentialsEnvelope,
  ForgottenEnvelope,
} from './courier-connections.schemas.js';
import type { CourierConnections } from './courier-connections.service.js';
import type { CourierCredentials } from './courier-credentials.service.js';

/** The courier connections and their health, under /custom/api/v1. */
export function courierConnectionsRoutes(
  connections: CourierConnections,
  credentials: CourierCredentials,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/courier-connections',
      {
        schema: {
          tags: ['Rates'],
          summary: 'The courier services you can book with: connector, credentials and health',
          description:
            "Dakiya's addition. Each service of the courier catalogue with how Dakiya reaches it (push, sandbox, delhivery, ...), whose " +
            "credentials its API calls for your parcels use (yours or the server's), and those credentials' latest successful call and " +
            'latest failure (time and what went wrong), and the expiry of an access token where the connector holds one. Reported by ' +
            'every API process and worker on this database, written within a second of the call.',
          response: {
            200: answer(CourierConnectionsEnvelope, 'Every courier service in the catalogue.'),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await connections.list(request.accountId) }),
    );

    app.put(
      '/courier-connections/:connector/credentials',
      {
        schema: {
          tags: ['Rates'],
          summary: 'Use your own contract with a courier: store your credentials for its API',
          description:
            "Dakiya's addition. Your bookings, cancellations, pickups, NDR instructions and tracking with this courier then go with " +
            "your credentials instead of the server's (within 5 s on every process), with a connection and access token of their own. " +
            'Sealed at rest (AES-256-GCM); never shown again. Every missing or foreign field is named at once (422). ' +
            '404: not a courier API that takes credentials.',
          params: ConnectorParams,
          body: CredentialsBody,
          response: { 200: answer(CredentialsEnvelope, 'Stored.'), ...errorResponses(400, 401, 404, 413, 415, 422) },
        },
      },
      async (request) => ({ data: await credentials.set(actorOf(request), request.params.connector, request.body) }),
    );

    app.delete(
      '/courier-connections/:connector/credentials',
      {
        schema: {
          tags: ['Rates'],
          summary: "Go back to the server's credentials for a courier",
          description:
            "Dakiya's addition. Forgets your stored credentials for the courier's API. 404: none are stored.",
          params: ConnectorParams,
          response: {
            200: answer(ForgottenEnvelope, "Forgotten: the server's credentials are used again."),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await credentials.remove(actorOf(request), request.params.connector) }),
    );
  };
}
