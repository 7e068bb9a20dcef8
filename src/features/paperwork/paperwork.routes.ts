import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import type { PaperworkSettingsService } from './paperwork.service.js';

const EwayBillCheck = Type.Union([Type.Literal('refuse'), Type.Literal('warn')], {
  description:
    "What booking an order that needs an e-way bill (rule 138 of the CGST Rules; docs/paperwork.md) and has no ewaybill_no does: `refuse` (the default: 422 eway_bill_required) or `warn` (booked, with the rule in the answer's warnings).",
  'x-error': 'must be "refuse" or "warn"',
});
const Settings = Type.Object({ eway_bill_check: EwayBillCheck });
const SettingsEnvelope = Type.Object({ data: Settings }, { examples: [{ data: { eway_bill_check: 'refuse' } }] });
const SettingsBody = Type.Object(
  { eway_bill_check: EwayBillCheck },
  { additionalProperties: false, examples: [{ eway_bill_check: 'warn' }] },
);

/** `/paperwork-settings`: the account's rules for shipping paperwork (docs/paperwork.md). */
export function paperworkRoutes(settings: PaperworkSettingsService): FastifyPluginAsyncTypebox {
  const tags = ['Paperwork'];
  return async (app) => {
    app.get(
      '/paperwork-settings',
      {
        schema: {
          tags,
          summary: "Read the account's paperwork settings",
          response: { 200: answer(SettingsEnvelope, 'The settings (the defaults until set).'), ...errorResponses(401) },
        },
      },
      async (request) => ({ data: await settings.settings(request.accountId) }),
    );
    app.put(
      '/paperwork-settings',
      {
        schema: {
          tags,
          summary: "Set the account's paperwork settings",
          description: 'Bookings from now on follow them; booked shipments are not touched.',
          body: SettingsBody,
          response: {
            200: answer(SettingsEnvelope, 'The settings as set.'),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => ({ data: await settings.setSettings(actorOf(request), request.body) }),
    );
  };
}
