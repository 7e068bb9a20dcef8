import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storesOf } from '../../http/store-guard.js';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import { IdempotencyHeaders } from '../../http/schemas.js';
import {
  COMPLETE_REFUND_EXAMPLE,
  FAIL_REFUND_EXAMPLE,
  REFUND_EXAMPLE,
  REFUND_PAYEE_EXAMPLE,
} from './refunds.examples.js';
import { REFUND_ERRORS } from './refunds.errors.js';
import {
  CompleteRefundBody,
  FailRefundBody,
  type ListRefundsInput,
  ListRefundsQuery,
  RefundElement,
  RefundPayeeElement,
  RefundIdParams,
} from './refunds.schemas.js';
import type { RefundsService } from './refunds.service.js';

const tags = ['Refunds'];
const RefundEnvelope = Type.Object({ data: RefundElement });
const RefundPayeeEnvelope = Type.Object({ data: RefundPayeeElement });
const RefundPage = Type.Object({
  data: Type.Array(RefundElement),
  meta: Type.Object({
    next_after: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The cursor for the next page: the last id of this one.',
    }),
    has_more: Type.Boolean(),
  }),
});
const config = { resource: 'Refund', notFound: REFUND_ERRORS.refund_not_found };
// The handlers pass `request.transaction` to the service (http/idempotency.ts).
const step = { ...config, idempotent: true };

export function refundsRoutes(refunds: RefundsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/refunds',
      {
        schema: {
          tags,
          summary: "List the account's refunds, oldest first",
          description:
            'A refund is recorded when a return request the buyer wants their money back for is approved (docs/returns.md). status=pending&due=true is what to pay now. Page with after (the last id you have) until has_more is false.',
          querystring: ListRefundsQuery,
          response: {
            200: answer(RefundPage, 'A page of refunds, oldest first.', {
              data: [REFUND_EXAMPLE],
              meta: { next_after: REFUND_EXAMPLE.id, has_more: false },
            }),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => refunds.list(request.accountId, request.query as ListRefundsInput, storesOf(request)),
    );

    app.get(
      '/refunds/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Get a refund',
          params: RefundIdParams,
          response: {
            200: answer(RefundEnvelope, 'The refund.', { data: REFUND_EXAMPLE }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await refunds.get(request.accountId, request.params.id) }),
    );

    app.get(
      '/refunds/:id/payee',
      {
        config,
        schema: {
          tags,
          summary: 'Get whom a refund is paid to, in full',
          description:
            'The UPI id or bank account the buyer gave, unmasked, for your payment system to pay. Refunds and their events show it masked; this is the one answer that opens it. A refund without details (original, store_credit, to_be_agreed) answers its method alone.',
          params: RefundIdParams,
          response: {
            200: answer(RefundPayeeEnvelope, 'The payee, in full.', { data: REFUND_PAYEE_EXAMPLE }),
            ...errorResponses(401, 404, 409),
          },
        },
      },
      async (request, reply) => {
        // The buyer's bank details: no shared cache may keep them.
        reply.header('cache-control', 'no-store');
        return { data: await refunds.payee(request.accountId, request.params.id) };
      },
    );

    app.post(
      '/refunds/:id/initiate',
      {
        config: step,
        schema: {
          tags,
          summary: 'Mark a refund initiated: the payment system took it',
          description:
            'A pending refund fallen due (released_at set), or a failed one tried again. 409 refund_not_due before it falls due; 409 refund_state from another state.',
          headers: IdempotencyHeaders,
          params: RefundIdParams,
          response: {
            200: answer(RefundEnvelope, 'The refund, initiated.', {
              data: { ...REFUND_EXAMPLE, status: 'initiated', initiated_at: '2026-11-26T10:00:00.000Z' },
            }),
            ...errorResponses(401, 404, 409, 422),
          },
        },
      },
      async (request) => ({
        data: await refunds.initiate(actorOf(request), request.params.id, request.transaction),
      }),
    );

    app.post(
      '/refunds/:id/complete',
      {
        config: step,
        schema: {
          tags,
          summary: 'Mark a refund paid, with its UTR',
          description:
            'A pending refund fallen due, or an initiated one. Completed is final. 409 refund_not_due before it falls due; 409 refund_state from another state.',
          headers: IdempotencyHeaders,
          params: RefundIdParams,
          body: { ...CompleteRefundBody, examples: [COMPLETE_REFUND_EXAMPLE] },
          response: {
            200: answer(RefundEnvelope, 'The refund, completed.', {
              data: {
                ...REFUND_EXAMPLE,
                status: 'completed',
                utr: COMPLETE_REFUND_EXAMPLE.utr,
                completed_at: '2026-11-26T10:05:00.000Z',
              },
            }),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ({
        data: await refunds.complete(
          actorOf(request),
          request.params.id,
          (request.body as { utr: string }).utr,
          request.transaction,
        ),
      }),
    );

    app.post(
      '/refunds/:id/fail',
      {
        config: step,
        schema: {
          tags,
          summary: "Mark a refund's payment failed",
          description: 'An initiated refund. Initiate it again once put right. 409 refund_state from another state.',
          headers: IdempotencyHeaders,
          params: RefundIdParams,
          body: { ...FailRefundBody, examples: [FAIL_REFUND_EXAMPLE] },
          response: {
            200: answer(RefundEnvelope, 'The refund, failed.', {
              data: {
                ...REFUND_EXAMPLE,
                status: 'failed',
                failure_reason: FAIL_REFUND_EXAMPLE.reason,
                initiated_at: '2026-11-26T10:00:00.000Z',
                failed_at: '2026-11-26T11:00:00.000Z',
              },
            }),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ({
        data: await refunds.fail(
          actorOf(request),
          request.params.id,
          (request.body as { reason: string }).reason,
          request.transaction,
        ),
      }),
    );
  };
}
