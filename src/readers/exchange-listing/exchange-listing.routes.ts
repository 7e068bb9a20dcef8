import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storesOf } from '../../http/store-guard.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { ListExchangesResponse } from './exchange-element.schemas.js';
import { EXCHANGE_LISTING_ANSWER } from './exchange-listing.examples.js';
import type { ExchangeListing } from './exchange-listing.js';
import { ListExchangesBody } from './exchange-listing.schemas.js';

export function exchangeListingRoutes(listing: ExchangeListing): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/exchange-orders',
      {
        // Every parameter is optional, so an empty POST is the first page, unfiltered.
        config: { optionalBody: true },
        schema: {
          tags: ['Returns'],
          summary: 'List exchanges (a replacement sent and the old item picked up), newest first by default',
          description:
            'Sorted by sort_by (created_at, or updated_at: the latest change to the exchange or either leg) then id; ' +
            'meta.total is exact and meta.total_pages follows from it. status is read from the legs at each read ' +
            '(docs/returns.md, Exchanges). Array filters take one value or several (OR within a filter, AND across ' +
            'filters), with or without "[]"; warehouse_id[], carrier_ids[], sku[] and zone[] match either leg. ' +
            'created_at/updated_at bounds take dates, ISO 8601 instants or Unix seconds. refund_status[] is accepted ' +
            'but no exchange has one: any value matches none.',
          body: {
            ...ListExchangesBody,
            examples: [
              { page: { number: 1 }, per_page: 20, sort_by: 'created_at', sort_order: 'desc', 'status[]': ['pending'] },
            ],
          },
          response: {
            200: answer(
              ListExchangesResponse,
              'A page of exchanges with both legs, newest first unless asked otherwise, with the exact total.',
              EXCHANGE_LISTING_ANSWER,
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => listing.list(request.accountId, request.body, storesOf(request)),
    );
  };
}
