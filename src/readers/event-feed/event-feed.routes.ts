import { answer } from '../../http/answer.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/errors.js';
import { ListEventsQuery, ListEventsResponse } from '../../events/events.schemas.js';
import type { EventsService } from './event-feed.service.js';

export function eventsRoutes(events: EventsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/events',
      {
        schema: {
          tags: ['Events and webhooks'],
          summary: "List the account's events, oldest first",
          description:
            'Every change to a shipment, return or store writes an event in the same transaction as the change. Poll with ' +
            '`after` set to the last id you have (meta.next_after) and nothing is ever skipped: an event is listed only once ' +
            'no event before it can still be committing. Filter with `type[]` (repeat for several). The same events are ' +
            'pushed to webhook endpoints (POST /webhooks).',
          querystring: ListEventsQuery,
          response: {
            200: answer(ListEventsResponse, "The account's events after `after`, oldest first."),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => events.list(request.accountId, request.query),
    );
  };
}
