import { errorCodes } from '../../domain/errors.js';

export const ACCOUNT_ERRORS = errorCodes({
  invalid_login: ['unauthorized', 'The username or the password is wrong (which one is not said).'],
  too_many_logins: [
    'rate_limited',
    'Too many failed logins from this address or for this username; `Retry-After` says when to try again.',
  ],
  username_taken: ['unprocessable', 'Another account has this username (a mobile number in any spelling).'],
  account_not_found: ['not_found', 'No account has this id.'],
  store_not_of_account: [
    'unprocessable',
    'A member or key was to be limited to a store id the account does not have (GET /client-stores lists them).',
  ],
  api_key_not_found: [
    'not_found',
    'No API key of this account (or, for the operator, of any account) has this id or prefix.',
  ],
  api_key_expiry_past: ['invalid', "A new key's expires_at is not in the future."],
  not_an_access_token: [
    'unprocessable',
    'Only an access token can be revoked with the credential it is; revoke an API key with DELETE /api-keys/{id}.',
  ],
  two_factor_required: [
    'unauthorized',
    'The password was right and the login has two-factor sign-in on: send `code` too (from the app, or a recovery code).',
  ],
  invalid_two_factor_code: [
    'unauthorized',
    'The second-factor code is neither a current code nor an unused recovery code.',
  ],
  two_factor_code_wrong: [
    'unprocessable',
    'The code is not the one the authenticator app shows now (or a recovery code).',
  ],
  two_factor_on: [
    'conflict',
    'Two-factor sign-in is on already; turn it off (with a code) before setting it up again.',
  ],
  two_factor_not_started: ['conflict', 'There is no two-factor set-up to confirm, or nothing to turn off.'],
});
