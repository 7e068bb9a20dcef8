import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { ACCOUNT_ERRORS } from './accounts.errors.js';
import { indiaTimestamp } from '../../base/clock.js';
import { readCredential } from '../../http/auth.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { invalid } from '../../domain/errors.js';
import type { AccountsService } from './accounts.service.js';
import {
  API_KEY_EXAMPLE,
  AccountIdParams,
  ApiKeyParams,
  CREATED_ACCOUNT_EXAMPLE,
  REVOKED_KEY_EXAMPLE,
  ApiKeyResponse,
  AuthTokenBody,
  AuthTokenResponse,
  CreateAccountBody,
  CreateAccountResponse,
  RevokedKeyResponse,
  RevokedTokenResponse,
} from './accounts.schemas.js';

/** `POST /custom/api/v1/auth-token`: the one account route that needs no credential. */
export function authTokenRoutes(accounts: AccountsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth-token',
      {
        schema: {
          tags: ['Auth'],
          summary: 'Exchange a username and password for a 24-hour access token',
          description:
            'Failed attempts are limited per username and client address together (every spelling of a mobile number ' +
            'counts as one username; LOGIN_ATTEMPTS_PER_MINUTE, 10 by default), per client address over all usernames ' +
            '(LOGIN_ADDRESS_ATTEMPTS_PER_MINUTE, 100) and, softly, per username over all addresses: past ' +
            'LOGIN_USERNAME_ATTEMPTS_PER_15_MINUTES (30) only the addresses that failed for it are refused. A refusal is a 429 with ' +
            '`Retry-After`, for one minute, then doubling (at most 15 minutes) while failures go on. A correct password ' +
            'from an address that has not failed is never refused.',
          security: [],
          body: AuthTokenBody,
          response: { 200: AuthTokenResponse, ...errorResponses(400, 401, 413, 415, 429) },
        },
      },
      async (request) => {
        const { username, password } = request.body;
        const { token, expiresAt } = await accounts.issueAccessToken(username, password, request.ip);
        // Velocity writes India time with no offset; the UTC instant rides along so nothing is ambiguous.
        return { token, expires_at: indiaTimestamp(expiresAt).slice(0, 19), expires_at_utc: expiresAt.toISOString() };
      },
    );
  };
}

/** `DELETE /custom/api/v1/auth-token`: logs out, ending the access token the request presents. */
export function authTokenRevokeRoutes(accounts: AccountsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.delete(
      '/auth-token',
      {
        schema: {
          tags: ['Auth'],
          summary: 'Revoke the access token this request presents (log out)',
          description:
            'The token stops working at once in this process and within a second in every other API process. ' +
            'An API key cannot be revoked here (422): DELETE /api-keys/{id} revokes it.',
          response: {
            200: answer(RevokedTokenResponse, 'The access token is revoked from now on.'),
            ...errorResponses(401, 422),
          },
        },
      },
      async (request) => {
        const revoked = await accounts.revokeAccessToken(
          actorOf(request),
          readCredential(request.headers.authorization),
        );
        return { message: 'Access token revoked', revoked_at: revoked.expiresAt.toISOString() };
      },
    );
  };
}

/** Operator routes for accounts and API keys; app.ts mounts them behind the operator token. */
export function adminRoutes(accounts: AccountsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/accounts',
      {
        schema: {
          tags: ['Operator'],
          summary: 'Create an account and its first API key',
          security: [{ adminToken: [] }],
          body: CreateAccountBody,
          response: {
            201: answer(
              CreateAccountResponse,
              'The account and its first API key (shown only this once).',
              CREATED_ACCOUNT_EXAMPLE,
            ),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const { name, username, password } = request.body;
        if ((username === undefined) !== (password === undefined)) {
          throw invalid(
            'username and password must be given together',
            username === undefined ? 'username' : 'password',
          );
        }
        const created = await accounts.createAccount({ name: name.trim(), username, password });
        return reply.status(201).send({ data: created.account, api_key: created.apiKey, api_key_id: created.apiKeyId });
      },
    );

    app.post(
      '/accounts/:id/api-keys',
      {
        config: { resource: 'Account', notFound: ACCOUNT_ERRORS.account_not_found },
        schema: {
          tags: ['Operator'],
          summary: 'Issue another API key for an account',
          security: [{ adminToken: [] }],
          params: AccountIdParams,
          response: {
            201: answer(ApiKeyResponse, 'A new API key for the account (shown only this once).', API_KEY_EXAMPLE),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request, reply) => {
        const key = await accounts.createApiKey(request.params.id);
        return reply.status(201).send({ api_key: key.apiKey, api_key_id: key.id });
      },
    );

    app.delete(
      '/api-keys/:key_prefix_or_id',
      {
        schema: {
          tags: ['Operator'],
          summary: 'Revoke an API key',
          security: [{ adminToken: [] }],
          params: ApiKeyParams,
          response: {
            200: answer(
              RevokedKeyResponse,
              'The key is revoked: it stops working within a second everywhere.',
              REVOKED_KEY_EXAMPLE,
            ),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => {
        const revoked = await accounts.revokeApiKey(request.params.key_prefix_or_id);
        return { data: { id: revoked.id, prefix: revoked.prefix, revoked_at: revoked.revokedAt!.toISOString() } };
      },
    );
  };
}
