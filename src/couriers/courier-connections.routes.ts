import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../http/answer.js';
import { errorResponses } from '../http/errors.js';
import { CourierConnectionsEnvelope } from './courier-connections.schemas.js';
import type { CourierConnections } from './courier-connections.service.js';

/** The courier connections and their health, under /custom/api/v1. */
export function courierConnectionsRoutes(connections: CourierConnections): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/courier-connections',
      {
        schema: {
          tags: ['Rates'],
          summary: 'The courier services you can book with: connector, credentials and health',
          description:
            "Dakiya's addition. Each service of the courier catalogue with how Dakiya reaches it (push, sandbox, delhivery), whether " +
            "the server holds its API's credential, and its connector's latest successful call and latest failure (time and what " +
            'went wrong), and the expiry of an access token where the connector holds one. Reported by every API process and ' +
            'worker on this database, written within a second of the call.',
          response: { 200: answer(CourierConnectionsEnvelope, 'Every courier service in the catalogue.'), ...errorResponses(401) },
        },
      },
      async () => ({ data: await connections.list() }),
    );
  };
}
