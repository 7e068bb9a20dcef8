import { errorCodes } from '../domain/errors.js';

/** Why a request's credential was refused, before any module sees it: `WWW-Authenticate` names the realm. */
export const AUTH_ERRORS = errorCodes({
  missing_credential: ['unauthorized', 'No Authorization header (nor, for the panel, a session cookie) was sent.'],
  malformed_credential: [
    'unauthorized',
    'The Authorization header is not "Bearer <credential>", "Token <credential>" or a bare credential.',
  ],
  basic_auth_not_accepted: [
    'unauthorized',
    'HTTP Basic is not accepted: exchange the username and password for a token (POST /custom/api/v1/auth-token).',
  ],
  invalid_credential: ['unauthorized', 'The API key, access token or session is unknown, revoked or expired.'],
  invalid_carrier_token: ['unauthorized', 'The carrier token is unknown or revoked.'],
  invalid_operator_token: ['unauthorized', 'Operator routes need "Authorization: Bearer <ADMIN_TOKEN>".'],
  not_signed_in: ['unauthorized', 'The panel session cookie is missing or its session has ended.'],
  csrf_token_mismatch: [
    'forbidden',
    'A change made with the panel session cookie lacks its X-CSRF-Token header, or sends another.',
  ],
});
