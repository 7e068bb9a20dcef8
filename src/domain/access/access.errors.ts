import { errorCodes } from '../errors.js';

/** A credential refused for what it may do, not for who it is (that is a 401: http/auth.errors.ts). */
export const ACCESS_ERRORS = errorCodes({
  permission_denied: [
    'forbidden',
    "The credential's scopes do not hold the permission the route needs, or a key asked for holds one its maker lacks (the message names it).",
  ],
});
