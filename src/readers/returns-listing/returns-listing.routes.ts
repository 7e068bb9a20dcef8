import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storesOf } from '../../http/store-guard.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import type { ReturnsListing } from './returns-listing.js';
import { RETURNS_LISTING_ANSWER } from './returns-listing.examples.js';
import { ListReturnsBody, ListReturnsResponse } from './returns-listing.schemas.js';

const tags = ['Returns'];

export function returnsListingRoutes(listing: ReturnsListing): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/returns',
      {
        // Every parameter is optional, so an empty POST is the first page, unfiltered.
        config: { optionalBody: true },
        schema: {
          tags,
          summary: 'List returns, filtered and sorted, newest first by default',
          description:
            "The forward listing's paging: sorted by created_at then id, meta.total exact, meta.next_search_after sent back as " +
            'search_after continues strictly after the last row. start_time/end_time are Unix seconds (milliseconds when 10^12 or ' +
            'more), inclusive, on date_field (default created_at). qc_status[] takes passed, failed, pending (quality-checked, no ' +
            'result yet) and not_applicable. Returns are always prepaid: is_cod true matches none.',
          body: {
            ...ListReturnsBody,
            examples: [
              {
                page: { number: 1 },
                per_page: 20,
                status: 'return_in_transit',
                'qc_status[]': ['passed'],
                search: 'RET-10045',
              },
            ],
          },
          response: {
            200: answer(
              ListReturnsResponse,
              'A page of returns, newest first unless asked otherwise, with the exact total.',
              RETURNS_LISTING_ANSWER,
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => listing.list(request.accountId, request.body, storesOf(request)),
    );
  };
}
