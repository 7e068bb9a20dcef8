import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import { MEMBER_ERRORS } from './members.errors.js';
import { NewRoleBody, RoleChangeBody, RoleEnvelope, RoleListEnvelope, RoleParams } from './roles.schemas.js';
import type { RolesService } from './roles.service.js';

const tags = ['Members'];
const actor = actorOf;
const roleConfig = { resource: 'role', notFound: MEMBER_ERRORS.role_not_found };

/** The roles members hold: the built-in ones and the account's own (docs/teams.md). */
export function roleRoutes(roles: RolesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/roles',
      {
        schema: {
          tags,
          summary: 'List the roles a member can hold',
          response: {
            200: answer(RoleListEnvelope, "The built-in roles and the account's own, each with what it grants."),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await roles.list(request.accountId) }),
    );

    app.post(
      '/roles',
      {
        schema: {
          tags,
          summary: 'Define a role of the account’s own',
          body: NewRoleBody,
          response: {
            201: answer(RoleEnvelope, 'The role; members can be given it at once.'),
            ...errorResponses(400, 401, 403, 409, 413, 415),
          },
        },
      },
      async (request, reply) => reply.status(201).send({ data: await roles.create(actor(request), request.body) }),
    );

    app.put(
      '/roles/:name',
      {
        config: roleConfig,
        schema: {
          tags,
          summary: 'Change what a role of the account’s own grants',
          description:
            'Its members hold the new permissions at once (within a second in other processes), their keys too.',
          params: RoleParams,
          body: RoleChangeBody,
          response: {
            200: answer(RoleEnvelope, 'The role, changed.'),
            ...errorResponses(400, 401, 403, 404, 413, 415),
          },
        },
      },
      async (request) => ({
        data: await roles.update(actor(request), request.params.name, request.body.permissions),
      }),
    );

    app.delete(
      '/roles/:name',
      {
        config: roleConfig,
        schema: {
          tags,
          summary: 'Delete a role of the account’s own',
          description: 'Only when no member holds it (409 otherwise).',
          params: RoleParams,
          response: { 200: answer(RoleEnvelope, 'The role as it was.'), ...errorResponses(401, 403, 404, 409) },
        },
      },
      async (request) => ({ data: await roles.remove(actor(request), request.params.name) }),
    );
  };
}
