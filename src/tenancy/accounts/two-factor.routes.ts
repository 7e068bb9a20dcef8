import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { SessionCheck } from '../../http/auth.js';
import { AUTH_ERRORS } from '../../http/auth.errors.js';
import { unauthorized } from '../../http/errors.js';
import { ACCOUNT_SCOPE, bearerChallenge } from '../../http/auth.js';
import { signedChange } from './sessions.routes.js';
import type { SessionsService } from './sessions.service.js';
import type { TwoFactorService } from './two-factor.service.js';

const CodeBody = Type.Object(
  {
    code: Type.String({ minLength: 1, maxLength: 40, description: 'From the authenticator app, or a recovery code.' }),
  },
  { additionalProperties: false },
);

/**
 * `/panel/v1/two-factor`: the signed-in person's own second factor, from the panel only (a key is no
 * person): whether it is on, setting it up (a secret to scan, then a code to confirm, which answers
 * the recovery codes once), and turning it off with a code.
 */
export function twoFactorRoutes(
  twoFactor: TwoFactorService,
  sessions: SessionsService,
  check: SessionCheck,
  /** Forgets remembered sessions: one that could only set up two-factor holds its role once it is on. */
  forgetCredentials: () => void,
): FastifyPluginAsyncTypebox {
  const hide = true;
  /** Whose second factor a request of the panel is about, and the label their app shows. */
  async function loginOf(request: FastifyRequest) {
    const found = await sessions.findSession(signedChange(request, check));
    if (!found) throw unauthorized('Not signed in', bearerChallenge(ACCOUNT_SCOPE), AUTH_ERRORS.not_signed_in);
    return {
      ref: { accountId: found.account.id, memberId: found.member?.id ?? null },
      label: found.member?.email ?? found.account.username ?? found.account.name,
    };
  }
  return async (app) => {
    app.get('/two-factor', { schema: { hide } }, async (request) => twoFactor.status((await loginOf(request)).ref));

    app.post('/two-factor', { schema: { hide } }, async (request) => {
      const login = await loginOf(request);
      return twoFactor.start(login.ref, login.label);
    });

    app.post('/two-factor/confirm', { schema: { hide, body: CodeBody } }, async (request) => {
      const confirmed = await twoFactor.confirm((await loginOf(request)).ref, request.body.code);
      forgetCredentials();
      return confirmed;
    });

    app.delete('/two-factor', { schema: { hide, body: CodeBody } }, async (request) => {
      await twoFactor.disable((await loginOf(request)).ref, request.body.code);
      return { message: 'Two-factor sign-in is off' };
    });
  };
}
