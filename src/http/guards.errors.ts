import { errorCodes } from '../domain/errors.js';

/** The refusals of the HTTP kit's guards around a route: idempotency, one import at a time, closed scopes. */
export const GUARD_ERRORS = errorCodes({
  idempotency_key_in_progress: [
    'conflict',
    'A request with this Idempotency-Key is still running: send it again once that one has answered.',
  ],
  idempotency_key_reused: [
    'unprocessable',
    'This Idempotency-Key was already used (in the last 24 hours) with a different route or body.',
  ],
  import_in_progress: [
    'conflict',
    'Another file import of the account is running: an account imports one file at a time.',
  ],
  json_too_deep: ['invalid', 'The JSON body nests arrays and objects more than 64 levels deep.'],
  body_required: ['invalid', 'The route takes a JSON body and none was sent.'],
  api_not_served: ['not_found', 'This server does not serve this part of the API (the message says why).'],
});
