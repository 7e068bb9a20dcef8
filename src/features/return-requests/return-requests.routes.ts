import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storesOf } from '../../http/store-guard.js';
import { Type } from 'typebox';
import { RETURN_REASONS } from '../../domain/return-requests/return-reasons.js';
import { actorOf } from '../../http/permission-guard.js';
import { answer } from '../../http/answer.js';
import { EXAMPLE } from '../../http/examples.js';
import { errorResponses } from '../../http/errors.js';
import { IdempotencyHeaders, Uuid } from '../../http/schemas.js';
import { STORE_ERRORS } from '../../tenancy/stores/stores.errors.js';
import { StoreIdParams } from '../../tenancy/stores/stores.schemas.js';
import {
  APPROVE_WITH_QC_EXAMPLE,
  QUEUED_RETURN_REQUEST_ANSWER,
  REJECTION_EXAMPLE,
  RETURN_POLICY_EXAMPLE,
  RETURN_REQUEST_ANSWER,
  RETURN_REQUEST_EXAMPLE,
} from './return-requests.examples.js';
import { RETURN_REQUEST_ERRORS } from './return-requests.errors.js';
import {
  ApproveReturnRequestBody,
  type ApproveReturnRequestInput,
  type CreateReturnRequestInput,
  CreateReturnRequestBody,
  type ListReturnRequestsInput,
  ListReturnRequestsQuery,
  QueuedReturnRequest,
  RejectReturnRequestBody,
  ReturnRequestElement,
} from './return-requests.schemas.js';
import type { ReturnRequestDecisions } from './return-request-decisions.js';
import type { ReturnRequestsService } from './return-requests.service.js';
import { type ReturnPolicyBody, ReturnPolicyInput, ReturnPolicyView } from './return-policy.schemas.js';
import type { ReturnPolicyService } from './return-policy.service.js';

const tags = ['Return requests'];
const PolicyEnvelope = Type.Object({ data: ReturnPolicyView });
// A store id that is not a UUID names no store: 404, as for any unknown one.
const config = { resource: 'Store', notFound: STORE_ERRORS.store_not_found };

const RequestEnvelope = Type.Object({ data: ReturnRequestElement });
const QueuedEnvelope = Type.Object({ data: QueuedReturnRequest });
const RequestPage = Type.Object({
  data: Type.Array(QueuedReturnRequest),
  meta: Type.Object({
    next_after: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The cursor for the next page: the last id of this one.',
    }),
    has_more: Type.Boolean(),
  }),
});
const RequestIdParams = Type.Object({
  id: { ...Uuid, description: "The return request's id.", examples: [EXAMPLE.returnRequestId] },
});

const PhotoParams = Type.Object({
  ...RequestIdParams.properties,
  position: Type.String({
    pattern: '^[0-4]$',
    description: "The photo's place in the request's photos, from 0.",
    examples: ['0'],
  }),
});

export function returnRequestsRoutes(
  policies: ReturnPolicyService,
  requests: ReturnRequestsService,
  decisions: ReturnRequestDecisions,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/client-stores/:id/return-policy',
      {
        config,
        schema: {
          tags,
          summary: "Read a store's return policy",
          description:
            "Whether the store's buyers may ask for a return on its tracking page, for how many days after delivery, the reasons they pick from, and what the store never takes back (docs/returns.md).",
          params: StoreIdParams,
          response: {
            200: answer(PolicyEnvelope, "The store's policy (the defaults, taking no requests, until set).", {
              data: {
                store_id: EXAMPLE.storeId,
                window_days: 0,
                reasons: [...RETURN_REASONS],
                non_returnable_skus: [],
                non_returnable_categories: [],
                refund_deduction_percent: 0,
                return_shipping_fee: 0,
                refund_release: 'warehouse',
                store_credit: false,
                auto_rules: [],
                updated_at: null,
              },
            }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await policies.policy(request.accountId, request.params.id) }),
    );

    app.put(
      '/client-stores/:id/return-policy',
      {
        config,
        schema: {
          tags,
          summary: "Set a store's return policy",
          description:
            'The window and the three lists, with the refund terms (each left out takes its default), replaced together. Requests already made keep the terms they were made under; refunds, the terms at their approval; new ones follow these.',
          params: StoreIdParams,
          body: { ...ReturnPolicyInput, examples: [RETURN_POLICY_EXAMPLE] },
          response: {
            200: answer(PolicyEnvelope, 'The policy as set.', {
              data: { store_id: EXAMPLE.storeId, ...RETURN_POLICY_EXAMPLE, updated_at: '2026-11-20T06:30:00.000Z' },
            }),
            ...errorResponses(400, 401, 404, 413, 415),
          },
        },
      },
      async (request) => ({
        data: await policies.savePolicy(actorOf(request), request.params.id, request.body as ReturnPolicyBody),
      }),
    );

    app.post(
      '/return-requests',
      {
        // The handler passes `request.transaction` to the service (http/idempotency.ts).
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'File a return request for a buyer',
          description:
            "As the buyer would on the tracking page (a support desk taking a call, say): judged by the store's return policy and the order's earlier requests, and kept pending the merchant's decision. The courier collects from the delivery address. A refusal is a 422 naming each field at fault, in the buyer's language (docs/returns.md).",
          headers: IdempotencyHeaders,
          body: { ...CreateReturnRequestBody, examples: [RETURN_REQUEST_EXAMPLE] },
          response: {
            201: answer(RequestEnvelope, 'The request, pending.', { data: RETURN_REQUEST_ANSWER }),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return {
          data: await requests.create(actorOf(request), request.body as CreateReturnRequestInput, request.transaction),
        };
      },
    );

    app.get(
      '/return-requests',
      {
        schema: {
          tags,
          summary: "List the account's return requests, oldest first",
          description:
            'The pending ones (status=pending) are the queue waiting for a decision, in the order they came in. Page with after (the last id you have) until has_more is false.',
          querystring: ListReturnRequestsQuery,
          response: {
            200: answer(RequestPage, 'A page of requests, oldest first.', {
              data: [QUEUED_RETURN_REQUEST_ANSWER],
              meta: { next_after: RETURN_REQUEST_ANSWER.id, has_more: false },
            }),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => requests.list(request.accountId, request.query as ListReturnRequestsInput, storesOf(request)),
    );

    app.get(
      '/return-requests/:id',
      {
        config: { resource: 'Return request', notFound: RETURN_REQUEST_ERRORS.return_request_not_found },
        schema: {
          tags,
          summary: 'Get a return request',
          params: RequestIdParams,
          response: {
            200: answer(QueuedEnvelope, "The request, with the buyer's history.", {
              data: QUEUED_RETURN_REQUEST_ANSWER,
            }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: await requests.get(request.accountId, request.params.id) }),
    );

    app.get(
      '/return-requests/:id/photos/:position',
      {
        // A path naming no photo that could exist (an id not a UUID, a position past 4) is its 404.
        config: { resource: 'Photo', notFound: RETURN_REQUEST_ERRORS.return_request_photo_not_found },
        schema: {
          tags,
          summary: "A return request's photo",
          description: "The buyer's photo as stored (the request's photos[].url): a JPEG within 1600 px a side.",
          params: PhotoParams,
          response: {
            200: {
              description: 'The JPEG bytes.',
              content: { 'image/jpeg': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
            },
            ...errorResponses(401, 404),
          },
        },
      },
      async (request, reply) => {
        const { id, position } = request.params;
        const photo = await requests.photo(request.accountId, id, Number(position));
        // A photo never changes once stored; it is the buyer's, so it stays out of shared caches.
        reply.headers({
          'cache-control': 'private, max-age=86400, immutable',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'",
        });
        return reply.type(photo.contentType).send(photo.bytes);
      },
    );

    const decided = { resource: 'Return request', notFound: RETURN_REQUEST_ERRORS.return_request_not_found };
    app.post(
      '/return-requests/:id/approve',
      {
        config: { ...decided, idempotent: true, optionalBody: true },
        schema: {
          tags,
          summary: 'Approve a return request, booking its return',
          description:
            "Books the return (reverse-order-orchestration's own path: the courier the allocation chooses collects the items from the pickup address and brings them to the warehouse the order left), in the same transaction as the approval: both or neither; a refund request's refund is recorded with it (GET /refunds). An exchange request books the exchange instead (exchange-order-orchestration's path: the replacement, prepaid, to the delivery address, and the pickup; both legs or neither; `exchange_id`), each item replaced by its own SKU unless `replacements` names another. With `qc` (the body is optional), the items named are checked at the doorstep against their pictures by a courier that does QC pickups. A request is decided once (409).",
          headers: IdempotencyHeaders,
          params: RequestIdParams,
          body: { ...ApproveReturnRequestBody, examples: [APPROVE_WITH_QC_EXAMPLE] },
          response: {
            200: answer(RequestEnvelope, 'The request, approved, with the return booked.', {
              data: {
                ...RETURN_REQUEST_ANSWER,
                status: 'approved',
                return_id: EXAMPLE.returnId,
                exchange_id: 'b68ce5c2-19b0-4751-9c92-1a47a0060424',
              },
            }),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422, 502, 503),
          },
        },
      },
      async (request) => ({
        data: await decisions.approve(actorOf(request), request.params.id, request.transaction, {
          qc: (request.body as ApproveReturnRequestInput).qc?.items,
          replacements: (request.body as ApproveReturnRequestInput).replacements,
          resolution: (request.body as ApproveReturnRequestInput).resolution as 'refund' | 'exchange' | undefined,
        }),
      }),
    );

    app.post(
      '/return-requests/:id/reject',
      {
        // The handler passes `request.transaction` to the service (http/idempotency.ts).
        config: { ...decided, idempotent: true },
        schema: {
          tags,
          summary: 'Reject a return request',
          description: 'With the words the buyer is told. A request is decided once (409).',
          headers: IdempotencyHeaders,
          params: RequestIdParams,
          body: { ...RejectReturnRequestBody, examples: [REJECTION_EXAMPLE] },
          response: {
            200: answer(RequestEnvelope, 'The request, rejected.', {
              data: { ...RETURN_REQUEST_ANSWER, status: 'rejected', decision_note: REJECTION_EXAMPLE.message },
            }),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ({
        data: await decisions.reject(
          actorOf(request),
          request.params.id,
          (request.body as { message: string }).message,
          request.transaction,
        ),
      }),
    );
  };
}
