import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  RULE_BODY_EXAMPLE,
  RULE_EXAMPLES,
  RuleBody,
  RuleEnvelope,
  RuleIdParams,
  RuleListEnvelope,
} from './allocation.schemas.js';
import type { AllocationService } from './allocation.service.js';

const tags = ['Courier allocation'];
const body = { ...RuleBody, examples: [RULE_BODY_EXAMPLE] };
const WARNINGS =
  "The answer's warnings name every rule of the account that overlaps an earlier one (orders meeting both go to the earlier) " +
  "or that an earlier one covers entirely (never used, or used only when none of that rule's couriers can carry the parcel).";

/** The account's courier allocation rules, under /custom/api/v1 (docs/couriers.md, "Allocation rules"). */
export function allocationRoutes(allocation: AllocationService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/allocation/rules',
      {
        schema: {
          tags,
          summary: "List the account's courier allocation rules, in the order they are tried",
          description: `Inactive rules are listed too. ${WARNINGS}`,
          response: {
            200: answer(
              RuleListEnvelope,
              'The rules, lowest priority first, and the warnings of the set.',
              RULE_EXAMPLES.list,
            ),
            ...errorResponses(401),
          },
        },
      },
      async (request) => allocation.list(request.accountId),
    );

    app.post(
      '/allocation/rules',
      {
        schema: {
          tags,
          summary: 'Add a courier allocation rule',
          description:
            'An order booked without carrier_id is given to the first active rule (lowest priority) whose conditions it meets ' +
            'and that has a courier able to carry it; the rule chooses by its strategy. Without one, the cheapest serviceable ' +
            `service. Every bad field is named in one 400. ${WARNINGS}`,
          body,
          response: {
            201: answer(RuleEnvelope, 'The saved rule, and the warnings of the set.', RULE_EXAMPLES.saved),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request, reply) => reply.status(201).send(await allocation.create(actorOf(request), request.body)),
    );

    app.get(
      '/allocation/rules/:id',
      {
        config: { resource: 'Allocation rule' },
        schema: {
          tags,
          summary: 'Get a courier allocation rule',
          params: RuleIdParams,
          response: { 200: answer(RuleEnvelope, 'The rule.', RULE_EXAMPLES.one), ...errorResponses(401, 404) },
        },
      },
      async (request) => allocation.get(request.accountId, request.params.id),
    );

    app.put(
      '/allocation/rules/:id',
      {
        config: { resource: 'Allocation rule' },
        schema: {
          tags,
          summary: 'Replace a courier allocation rule',
          description: `The body is the whole rule, as POST takes it. ${WARNINGS}`,
          params: RuleIdParams,
          body,
          response: {
            200: answer(RuleEnvelope, 'The saved rule, and the warnings of the set.', RULE_EXAMPLES.saved),
            ...errorResponses(400, 401, 404, 413, 415),
          },
        },
      },
      async (request) => allocation.replace(actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/allocation/rules/:id',
      {
        config: { resource: 'Allocation rule' },
        schema: {
          tags,
          summary: 'Delete a courier allocation rule',
          description: 'Shipments it allocated keep their recorded allocation.',
          params: RuleIdParams,
          response: {
            200: answer(RuleEnvelope, 'The rule as it was.', RULE_EXAMPLES.one),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => allocation.remove(actorOf(request), request.params.id),
    );
  };
}
