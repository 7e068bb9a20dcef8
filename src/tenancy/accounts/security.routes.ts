import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import type { AccountsService } from './accounts.service.js';

const Security = Type.Object({
  owners_need_two_factor: Type.Boolean({
    description:
      "Owners (the account's own login and owner members) sign in to the panel only with two-factor on; one without it signs in only to set it up.",
  }),
});
const SecurityEnvelope = Type.Object({ data: Security }, { examples: [{ data: { owners_need_two_factor: true } }] });
const SecurityBody = Type.Object(
  { owners_need_two_factor: Security.properties.owners_need_two_factor },
  { additionalProperties: false, examples: [{ owners_need_two_factor: true }] },
);

/** `/security`: the account's sign-in rules (docs/teams.md). */
export function securityRoutes(accounts: AccountsService): FastifyPluginAsyncTypebox {
  const tags = ['Members'];
  return async (app) => {
    app.get(
      '/security',
      {
        schema: {
          tags,
          summary: "Read the account's sign-in rules",
          response: { 200: answer(SecurityEnvelope, 'What sign-in requires.'), ...errorResponses(401) },
        },
      },
      async (request) => ({ data: await accounts.security(request.accountId) }),
    );
    app.put(
      '/security',
      {
        schema: {
          tags,
          summary: "Change the account's sign-in rules",
          description: 'Only an owner may (403 owner_only otherwise).',
          body: SecurityBody,
          response: {
            200: answer(SecurityEnvelope, 'The rules, changed.'),
            ...errorResponses(400, 401, 403, 413, 415),
          },
        },
      },
      async (request) => ({
        data: await accounts.setSecurity(actorOf(request), request.body.owners_need_two_factor),
      }),
    );
  };
}
