import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { RETURN_REASONS } from '../../domain/return-requests/return-reasons.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { STORE_ERRORS } from '../../tenancy/stores/stores.errors.js';
import { StoreIdParams } from '../../tenancy/stores/stores.schemas.js';
import { EXAMPLE_STORE_ID, RETURN_POLICY_EXAMPLE } from './return-policy.examples.js';
import { type ReturnPolicyBody, ReturnPolicyInput, ReturnPolicyView } from './return-policy.schemas.js';
import type { ReturnPolicyService } from './return-policy.service.js';

const tags = ['Return requests'];
const PolicyEnvelope = Type.Object({ data: ReturnPolicyView });
// A store id that is not a UUID names no store: 404, as for any unknown one.
const config = { resource: 'Store', notFound: STORE_ERRORS.store_not_found };

export function returnRequestsRoutes(policies: ReturnPolicyService): FastifyPluginAsyncTypebox {
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
                store_id: EXAMPLE_STORE_ID,
                window_days: 0,
                reasons: [...RETURN_REASONS],
                non_returnable_skus: [],
                non_returnable_categories: [],
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
            'All four, replaced together. Requests already made keep the terms they were made under; new ones follow these.',
          params: StoreIdParams,
          body: { ...ReturnPolicyInput, examples: [RETURN_POLICY_EXAMPLE] },
          response: {
            200: answer(PolicyEnvelope, 'The policy as set.', {
              data: { store_id: EXAMPLE_STORE_ID, ...RETURN_POLICY_EXAMPLE, updated_at: '2026-11-20T06:30:00.000Z' },
            }),
            ...errorResponses(400, 401, 404, 413, 415),
          },
        },
      },
      async (request) => ({
        data: await policies.savePolicy(request.accountId, request.params.id, request.body as ReturnPolicyBody),
      }),
    );
  };
}
