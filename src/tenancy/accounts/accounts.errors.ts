import { errorCodes } from '../../domain/errors.js';

export const ACCOUNT_ERRORS = errorCodes({
  invalid_login: ['unauthorized', 'The username or the password is wrong (which one is not said).'],
  too_many_logins: [
    'rate_limited',
    'Too many failed logins from this address or for this username; `Retry-After` says when to try again.',
  ],
  username_taken: ['unprocessable', 'Another account has this username (a mobile number in any spelling).'],
  account_not_found: ['not_found', 'No account has this id.'],
  api_key_not_found: [
    'not_found',
    'No API key of this account (or, for the operator, of any account) has this id or prefix.',
  ],
  api_key_expiry_past: ['invalid', "A new key's expires_at is not in the future."],
  not_an_access_token: [
    'unprocessable',
    'Only an access token can be revoked with the credential it is; revoke an API key with DELETE /api-keys/{id}.',
  ],
});
