import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import type { SessionCheck } from '../../http/auth.js';
import type { Actor } from '../../domain/access/permissions.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';

import { MEMBER_ERRORS } from './members.errors.js';
import {
  AcceptBody,
  InvitationTokenBody,
  ResetAskBody,
  ResetConfirmBody,
  InvitationView,
  InviteBody,
  InvitedEnvelope,
  MemberChangeBody,
  MemberEnvelope,
  MemberListEnvelope,
  MemberParams,
} from './members.schemas.js';
import type { MembersService } from './members.service.js';
import type { PasswordResetService } from './password-reset.service.js';
import { SessionBody, signedIn } from './sessions.routes.js';
import type { SessionsService } from './sessions.service.js';

const tags = ['Members'];
const actor = actorOf;
const memberConfig = { resource: 'member', notFound: MEMBER_ERRORS.member_not_found };

/** The account's members under /custom/api/v1 (docs/teams.md): invited, re-roled, suspended, removed. */
export function memberRoutes(members: MembersService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/members',
      {
        schema: {
          tags,
          summary: "List the account's members",
          response: {
            200: answer(MemberListEnvelope, 'Invited, active and suspended members.'),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await members.list(request.accountId) }),
    );

    app.post(
      '/members',
      {
        schema: {
          tags,
          summary: 'Invite a member by e-mail',
          description:
            'Sends a link that works once for 7 days through SMTP_URL; without a relay, or when it refuses, the answer carries the link to pass on. Only an owner may invite an owner.',
          body: InviteBody,
          response: {
            201: answer(InvitedEnvelope, 'The member, invited, and what became of the e-mail.'),
            ...errorResponses(400, 401, 403, 409, 413, 415, 422),
          },
        },
      },
      async (request, reply) => {
        const { email, role, name, stores } = request.body;
        const invited = await members.invite(actor(request), { email, role, name: name ?? null, stores });
        return reply.status(201).send({ data: invited.member, invitation: invited.invitation });
      },
    );

    app.patch(
      '/members/:id',
      {
        config: memberConfig,
        schema: {
          tags,
          summary: "Change a member's role, name or stores",
          description:
            'A new role or set of stores holds at once, in every process within a second, for their sessions and keys.',
          params: MemberParams,
          body: MemberChangeBody,
          response: {
            200: answer(MemberEnvelope, 'The member, changed.'),
            ...errorResponses(400, 401, 403, 404, 413, 415, 422),
          },
        },
      },
      async (request) => {
        const { role, name, stores } = request.body;
        const changed = await members.update(actor(request), request.params.id, {
          ...(role === undefined ? {} : { role }),
          ...(name === undefined ? {} : { name }),
          ...(stores === undefined ? {} : { stores }),
        });
        return { data: changed };
      },
    );

    // The member's state changes: each a POST on the member, answering the member (and, sent
    // again, the invitation's fate).
    const changes = [
      {
        path: 'suspend',
        summary: 'Suspend a member',
        description:
          'Their sessions and API keys stop at once here and within a second in every other process; reactivating lets them sign in again.',
        envelope: MemberEnvelope,
        run: async (by: Actor, id: string) => ({ data: await members.suspend(by, id) }),
      },
      {
        path: 'reactivate',
        summary: 'Reactivate a suspended member',
        description: 'They sign in again; keys they made work again.',
        envelope: MemberEnvelope,
        run: async (by: Actor, id: string) => ({ data: await members.reactivate(by, id) }),
      },
      {
        path: 'invitation',
        summary: 'Send an invitation again',
        description: 'A new link for 7 days; the old one stops working. Only while the member has not joined.',
        envelope: InvitedEnvelope,
        run: async (by: Actor, id: string) => {
          const sent = await members.resend(by, id);
          return { data: sent.member, invitation: sent.invitation };
        },
      },
    ];
    for (const { path, summary, description, envelope, run } of changes) {
      app.post(
        `/members/:id/${path}`,
        {
          config: memberConfig,
          schema: {
            tags,
            summary,
            description,
            params: MemberParams,
            response: { 200: answer(envelope, 'The member.'), ...errorResponses(401, 403, 404, 409, 422) },
          },
        },
        async (request) => run(actor(request), request.params.id),
      );
    }

    app.delete(
      '/members/:id',
      {
        config: memberConfig,
        schema: {
          tags,
          summary: 'Remove a member',
          description: 'Their sessions, keys and open invitation end; their e-mail can be invited again.',
          params: MemberParams,
          response: { 200: answer(MemberEnvelope, 'The member, removed.'), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request) => ({ data: await members.remove(actor(request), request.params.id) }),
    );
  };
}

/**
 * The panel's doors for members before they are signed in: `/panel/v1/invitation` (what a link is
 * to, and joining through it, which signs the new member in) and `/panel/v1/password-reset` (a link
 * by e-mail, then a new password). Tokens travel in bodies, never in a URL a log keeps.
 */
export function memberPanelRoutes(
  members: MembersService,
  resets: PasswordResetService,
  accounts: SessionsService,
  sessions: SessionCheck,
): FastifyPluginAsyncTypebox {
  const hide = true;
  return async (app) => {
    app.post(
      '/invitation',
      { schema: { hide, body: InvitationTokenBody, response: { 200: InvitationView } } },
      async (request) => members.invitation(request.body.token),
    );

    app.post(
      '/invitation/accept',
      { schema: { hide, body: AcceptBody, response: { 200: SessionBody } } },
      async (request, reply) => {
        const { token, name, password } = request.body;
        const userAgent = request.headers['user-agent'];
        const member = await members.accept(
          token,
          { name, password },
          { ip: request.ip, ...(typeof userAgent === 'string' && { userAgent: userAgent.slice(0, 300) }) },
        );
        return signedIn(request, reply, sessions, await accounts.openSession(member.email, password, request.ip));
      },
    );

    app.post('/password-reset', { schema: { hide, body: ResetAskBody } }, async (request, reply) => {
      await resets.ask(request.body.email, request.ip);
      return reply.status(202).send({
        message: 'If this e-mail is a member’s login, a link to choose a new password is on its way',
      });
    });

    app.post('/password-reset/confirm', { schema: { hide, body: ResetConfirmBody } }, async (request) => {
      await resets.confirm(request.body.token, request.body.password);
      return { message: 'Password changed; sign in with it' };
    });
  };
}
