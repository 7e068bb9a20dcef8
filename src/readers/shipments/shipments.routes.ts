import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { LISTING_ANSWER } from './shipments.examples.js';
import { errorResponses } from '../../http/errors.js';
import { JSON_CONTENT_TYPE } from '../../http/json-reply.js';
import { storesOf } from '../../http/store-guard.js';
import { ListShipmentsBody, ListShipmentsResponse } from './shipments.schemas.js';
import type { ShipmentsService } from './shipments.service.js';

export function shipmentsRoutes(shipments: ShipmentsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/shipments',
      {
        // Every parameter is optional, so an empty POST is the first page, unfiltered.
        config: { optionalBody: true },
        schema: {
          tags: ['Shipments'],
          summary: 'List forward shipments, filtered and sorted, newest first by default',
          description:
            'Sorted by created_at then id. meta.total is exact. For deep pages send meta.next_search_after back as ' +
            'search_after (with the same filters): it continues strictly after the last row, at constant cost, with no ' +
            'repeats or gaps; page then only labels meta.current_page. start_time/end_time are Unix seconds ' +
            "(milliseconds when 10^12 or more), inclusive, on date_field (default created_at). Velocity's names and " +
            'forms are taken too: page as {"number": N}, carrier_ids[] and warehouse_id[] (merged with carrier_id[] and ' +
            'warehouse_ids[]), display_id[], sort_by, its status words, and <field>__gte/<field>__lte date pairs.',
          body: ListShipmentsBody,
          response: {
            200: answer(
              ListShipmentsResponse,
              'A page of shipments, newest first unless asked otherwise, with the exact total and the next search_after.',
              LISTING_ANSWER,
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      // The service writes the answer's JSON itself (rows arrive from the database as JSON text).
      async (request, reply) =>
        reply
          .type(JSON_CONTENT_TYPE)
          .send((await shipments.list(request.accountId, request.body, storesOf(request))) as never),
    );
  };
}
