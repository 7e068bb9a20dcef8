import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import type { AccountsService } from './accounts.service.js';
import {
  ApiKeyListEnvelope,
  CreatedApiKeyEnvelope,
  NewApiKeyBody,
  type NewApiKeyInput,
  OwnApiKeyParams,
  RevokedApiKeyEnvelope,
} from './api-keys.schemas.js';

const tags = ['Auth'];
const toKey = (key: {
  id: string;
  prefix: string;
  name: string | null;
  scopes: string[] | null;
  expiresAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  storeIds: string[] | null;
}) => ({
  id: key.id,
  prefix: key.prefix,
  name: key.name,
  scopes: key.scopes,
  expires_at: key.expiresAt?.toISOString() ?? null,
  created_at: key.createdAt.toISOString(),
  revoked_at: key.revokedAt?.toISOString() ?? null,
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  stores: key.storeIds,
});

/** The account's own API keys, under /custom/api/v1: what the panel's settings show (the operator's are under /admin/v1). */
export function apiKeyRoutes(accounts: AccountsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api-keys',
      {
        schema: {
          tags,
          summary: "List the account's API keys",
          response: {
            200: answer(ApiKeyListEnvelope, "The account's keys, without the keys themselves."),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: (await accounts.listApiKeys(request.accountId)).map(toKey) }),
    );

    app.post(
      '/api-keys',
      {
        // Without a body: a key holding what its maker holds, for ever, as before scopes.
        config: { optionalBody: true },
        schema: {
          tags,
          summary: 'Create an API key for this account',
          description:
            'The key is in this answer only; Dakiya keeps its hash. It works at once, until revoked or expired, within its scopes (docs/teams.md).',
          body: NewApiKeyBody,
          response: {
            201: answer(CreatedApiKeyEnvelope, 'The new key, shown this once.'),
            ...errorResponses(400, 401, 403, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const body = (request.body ?? {}) as NewApiKeyInput;
        const key = await accounts.createApiKey(
          request.accountId,
          {
            name: body.name ?? null,
            scopes: body.scopes ?? null,
            expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at),
            stores: body.stores,
          },
          actorOf(request),
        );
        return reply.status(201).send({ data: { ...toKey(key), api_key: key.apiKey } });
      },
    );

    app.delete(
      '/api-keys/:id',
      {
        config: { resource: 'API key', notFound: ACCOUNT_ERRORS.api_key_not_found },
        schema: {
          tags,
          summary: "Revoke one of the account's API keys",
          description:
            'It stops working at once here and within a second in every other API process, even the key this request came with. Revoking a revoked key answers when it was revoked.',
          params: OwnApiKeyParams,
          response: { 200: answer(RevokedApiKeyEnvelope, 'The key, revoked.'), ...errorResponses(401, 404) },
        },
      },
      async (request) => ({ data: toKey(await accounts.revokeOwnApiKey(actorOf(request), request.params.id)) }),
    );
  };
}
