import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import type { Anonymisation } from './anonymisation.service.js';
import { ANONYMISE_MAX_DAYS, ANONYMISE_MIN_DAYS } from './privacy.settings.js';

const Days = Type.Integer({
  minimum: ANONYMISE_MIN_DAYS,
  maximum: ANONYMISE_MAX_DAYS,
  description:
    "Days after a shipment (or a return of no forward shipment) last changed in a final status before its buyer's name, phone, e-mail and street address are replaced by `[erased]` everywhere they were copied; pincode, city and state stay.",
  'x-error': `must be a whole number of days from ${ANONYMISE_MIN_DAYS} to ${ANONYMISE_MAX_DAYS}`,
});
const Period = Type.Object(
  {
    data: Type.Object({
      anonymise_buyers_after_days: Days,
      default: Type.Boolean({
        description: "Whether this is the server's default (BUYER_DATA_ANONYMISE_DAYS), not the account's own.",
      }),
    }),
  },
  { examples: [{ data: { anonymise_buyers_after_days: 180, default: true } }] },
);
const PeriodBody = Type.Object(
  { anonymise_buyers_after_days: Days },
  { additionalProperties: false, examples: [{ anonymise_buyers_after_days: 365 }] },
);

/** `/privacy-settings`: how long the account keeps finished shipments' buyers in clear (docs/data-lifecycle.md). */
export function privacySettingsRoutes(anonymisation: Anonymisation): FastifyPluginAsyncTypebox {
  const tags = ['Privacy'];
  return async (app) => {
    app.get(
      '/privacy-settings',
      {
        schema: {
          tags,
          summary: "Read how long the account keeps finished shipments' buyers in clear",
          response: { 200: answer(Period, 'The period (the default until set).'), ...errorResponses(401) },
        },
      },
      async (request) => ({ data: await anonymisation.period(request.accountId) }),
    );
    app.put(
      '/privacy-settings',
      {
        schema: {
          tags,
          summary: "Set how long the account keeps finished shipments' buyers in clear",
          description:
            'The background job (hourly) anonymises what the new period makes due; shipments already anonymised stay so.',
          body: PeriodBody,
          response: { 200: answer(Period, 'The period as set.'), ...errorResponses(400, 401, 413, 415) },
        },
      },
      async (request) => ({
        data: await anonymisation.setPeriod(actorOf(request), request.body.anonymise_buyers_after_days),
      }),
    );
  };
}

const Report = Type.Object(
  {
    data: Type.Object({
      orders: Type.Integer({ minimum: 0, description: 'Finished orders whose buyer was anonymised.' }),
      returns: Type.Integer({
        minimum: 0,
        description: 'Finished returns of no forward shipment whose buyer was anonymised.',
      }),
      left: Type.Integer({
        minimum: 0,
        description: 'Due but left for a later run: something of theirs is still on its way.',
      }),
      erased: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Rows changed, by table.' }),
    }),
  },
  {
    examples: [
      { data: { orders: 1840, returns: 12, left: 1, erased: { orders: 1840, shipments: 1840, events: 9120 } } },
    ],
  },
);

/** The operator's run of the anonymisation job now, under /admin/v1. */
export function anonymisationAdminRoutes(anonymisation: Anonymisation): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/privacy/anonymise',
      {
        schema: {
          tags: ['Operator'],
          summary: "Anonymise every finished shipment's buyer that is due now, and say what changed",
          description:
            'What the background job does every hour, at once and without its pauses. `npm run cli -- buyers anonymise` does the same from the shell.',
          security: [{ adminToken: [] }],
          response: { 200: answer(Report, 'What was anonymised.'), ...errorResponses(401) },
        },
      },
      async () => ({ data: await anonymisation.anonymiseDue() }),
    );
  };
}
