import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { actorOf } from '../../http/permission-guard.js';
import { errorResponses } from '../../http/errors.js';
import { IdempotencyHeaders } from '../../http/schemas.js';
import { EXCHANGE_ANSWER, EXCHANGE_REQUEST, EXCHANGE_TERMS_EXAMPLE } from './exchanges.examples.js';
import { CreateExchangeBody, ExchangeResponse, ExchangeTerms } from './exchanges.schemas.js';
import type { ExchangesService } from './exchanges.service.js';

const tags = ['Exchanges'];
const TermsEnvelope = Type.Object({ data: ExchangeTerms });

export function exchangesRoutes(exchanges: ExchangesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/exchange-order-orchestration',
      {
        // The handler passes `request.transaction` to the service (http/idempotency.ts).
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'Exchange an item: send the replacement and pick up the old one, in one step',
          description:
            "Books the replacement (a forward order to billing_*, from forward_warehouse_id) and the old item's pickup (a return " +
            'from pickup_*, to return_warehouse_id) together: both AWBs and labels, or neither (a refusal of either leg cancels ' +
            "the other at its courier and answers that leg's error, naming the exchange's field). A repeated order_id answers " +
            "the exchange already made. awb_code is the pickup's AWB, as Velocity answers it. When the account's terms hold the " +
            'replacement until the pickup (PUT /exchange-settings), its label and pickup are refused until then (docs/returns.md).',
          headers: IdempotencyHeaders,
          body: { ...CreateExchangeBody, examples: [EXCHANGE_REQUEST] },
          response: {
            200: answer(
              ExchangeResponse,
              'The exchange: both legs booked, their AWBs, labels and charges.',
              EXCHANGE_ANSWER,
            ),
            ...errorResponses(400, 401, 409, 413, 415, 422, 502, 503),
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await exchanges.orchestrate(actorOf(request), request.body, request.transaction),
      }),
    );

    app.get(
      '/exchange-settings',
      {
        schema: {
          tags,
          summary: "Read the account's exchange terms",
          description: "When a replacement may go, and what an exchange's QC and the exchange itself are charged.",
          response: {
            200: answer(TermsEnvelope, "The account's terms (the defaults until set).", {
              data: { release_on: 'at_once', qc_charge: null, exchange_charge: 0 },
            }),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await exchanges.terms(request.accountId) }),
    );

    app.put(
      '/exchange-settings',
      {
        schema: {
          tags,
          summary: "Set the account's exchange terms",
          description:
            'All three, replaced together. Exchanges booked from now on follow them; those booked keep theirs.',
          body: { ...ExchangeTerms, examples: [EXCHANGE_TERMS_EXAMPLE] },
          response: {
            200: answer(TermsEnvelope, 'The terms as set.', { data: EXCHANGE_TERMS_EXAMPLE }),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => ({ data: await exchanges.saveTerms(actorOf(request), request.body) }),
    );
  };
}
