import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { EXAMPLE } from '../../http/examples.js';
import { actorOf } from '../../http/permission-guard.js';
import { Uuid } from '../../http/schemas.js';
import type { AccountDeletion } from './account-deletion.service.js';

const tags = ['Privacy'];
const Deletion = Type.Object(
  {
    data: Type.Object({
      deletion: Type.Union([
        Type.Object({
          requested_at: Type.String({ format: 'date-time' }),
          due_at: Type.String({
            format: 'date-time',
            description: 'When every row of the account is deleted (ACCOUNT_DELETION_GRACE_DAYS after the request).',
          }),
        }),
        Type.Null(),
      ]),
    }),
  },
  {
    examples: [
      { data: { deletion: { requested_at: '2026-11-20T06:30:00.000Z', due_at: '2026-12-20T06:30:00.000Z' } } },
    ],
  },
);
const RequestBody = Type.Object(
  {
    confirm_account_name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The account's name, as the panel shows it: what makes the request deliberate.",
    }),
  },
  { additionalProperties: false, examples: [{ confirm_account_name: EXAMPLE.accountName }] },
);

/** `/account/deletion`: the owner deletes the account, after a grace period (docs/data-lifecycle.md). */
export function accountDeletionRoutes(deletion: AccountDeletion): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/account/deletion',
      {
        schema: {
          tags,
          summary: "Read whether the account's deletion is pending, and when it falls due",
          response: { 200: answer(Deletion, 'The pending deletion, or null.'), ...errorResponses(401, 403) },
        },
      },
      async (request) => ({ data: await deletion.status(request.accountId) }),
    );
    app.post(
      '/account/deletion',
      {
        schema: {
          tags,
          summary: 'Ask for the account to be deleted, with all its data, after a grace period',
          description:
            "Owner only. ACCOUNT_DELETION_GRACE_DAYS (30) later a background job deletes every row of the account (orders, shipments, money, members, keys, the audit log: everything) and the account itself; until then the account works and the owner may take the request back with DELETE. Keep what you need (the listings' and reports' CSV downloads) before it falls due.",
          body: RequestBody,
          response: { 200: answer(Deletion, 'The deletion, now pending.'), ...errorResponses(400, 401, 403, 413, 415) },
        },
      },
      async (request) => ({ data: await deletion.request(actorOf(request), request.body.confirm_account_name) }),
    );
    app.delete(
      '/account/deletion',
      {
        schema: {
          tags,
          summary: "Take back the account's pending deletion",
          description: 'Owner only. The account and its data stay.',
          response: {
            200: answer(Deletion, 'No deletion pending any more.', { data: { deletion: null } }),
            ...errorResponses(401, 403, 404),
          },
        },
      },
      async (request) => ({ data: await deletion.cancel(actorOf(request)) }),
    );
  };
}

const Report = Type.Object(
  {
    data: Type.Object({
      accounts: Type.Integer({ minimum: 0 }),
      deleted: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Rows deleted, by table.' }),
    }),
  },
  {
    examples: [
      { data: { accounts: 1, deleted: { api_keys: 2, orders: 1840, shipments: 1840, events: 9120, accounts: 1 } } },
    ],
  },
);

/** The operator deletes an account at once (what `npm run cli -- accounts delete` sends). */
export function accountDeletionAdminRoutes(deletion: AccountDeletion): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.delete(
      '/accounts/:id',
      {
        schema: {
          tags: ['Operator'],
          summary: 'Delete an account now, with every row of it, and say what each table lost',
          description:
            "No grace period and no way back: the account's keys stop at once, then its rows go table by table in batches.",
          security: [{ adminToken: [] }],
          params: Type.Object({ id: { ...Uuid, description: "The account's id.", examples: [EXAMPLE.accountId] } }),
          response: { 200: answer(Report, 'What was deleted.'), ...errorResponses(401, 404) },
        },
      },
      async (request) => ({ data: await deletion.deleteNow(request.params.id) }),
    );
  };
}
