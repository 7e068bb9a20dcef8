import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  RULES_EXAMPLES,
  RulesBody,
  RulesEnvelope,
  THRESHOLDS_EXAMPLES,
  ThresholdsBody,
  ThresholdsEnvelope,
} from './rto.schemas.js';
import type { RtoSettingsService } from './rto.service.js';

const tags = ['RTO risk and NDR rules'];

/** The account's RTO risk thresholds and NDR rules, under /custom/api/v1 (docs/rto.md). */
export function rtoSettingsRoutes(settings: RtoSettingsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/rto-risk/thresholds',
      {
        schema: {
          tags,
          summary: 'Read the RTO risk thresholds',
          description:
            'The scores at which a booking is medium and high risk, and the COD amount that counts as high value (docs/rto.md: RTO risk).',
          response: {
            200: answer(
              ThresholdsEnvelope,
              "The account's thresholds (the defaults until set).",
              THRESHOLDS_EXAMPLES.read,
            ),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await settings.thresholds(request.accountId) }),
    );

    app.put(
      '/rto-risk/thresholds',
      {
        schema: {
          tags,
          summary: 'Set the RTO risk thresholds',
          description:
            'All three, replaced together; medium must be below high (422). Bookings from now on are scored against them; booked shipments keep their risk.',
          body: ThresholdsBody,
          response: {
            200: answer(ThresholdsEnvelope, 'The thresholds as set.', THRESHOLDS_EXAMPLES.set),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request) => ({ data: await settings.setThresholds(actorOf(request), request.body) }),
    );

    app.get(
      '/ndr-rules',
      {
        schema: {
          tags,
          summary: 'Read the NDR rules',
          description:
            'The rules that act when a delivery fails, in the order they are tried (docs/rto.md: NDR rules). None until set.',
          response: { 200: answer(RulesEnvelope, "The account's rules.", RULES_EXAMPLES.read), ...errorResponses(401) },
        },
      },
      async (request) => ({ data: await settings.rules(request.accountId) }),
    );

    app.put(
      '/ndr-rules',
      {
        schema: {
          tags,
          summary: 'Replace the NDR rules',
          description:
            'The whole list, in order; [] turns automation off. When an NDR is raised, the first rule it meets acts, through the same ' +
            'path and limits as POST /reattempt and /initiate-rto; each action is recorded as shipment.ndr_action_taken with the rule. ' +
            'Names must be unique, ndr_reasons known, attempt_min not above attempt_max, rto_after_hours only on message_buyer (422, naming each).',
          body: RulesBody,
          response: {
            200: answer(RulesEnvelope, 'The rules as set.', RULES_EXAMPLES.set),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request) => ({ data: await settings.setRules(actorOf(request), request.body) }),
    );
  };
}
