import { errorCodes } from '../errors.js';

/** A credential refused for what it may do, not for who it is (that is a 401: http/auth.errors.ts). */
export const ACCESS_ERRORS = errorCodes({
  permission_denied: [
    'forbidden',
    "The credential's scopes do not hold the permission the route needs, or a key asked for holds one its maker lacks (the message names it).",
  ],
  store_limited: [
    'forbidden',
    'The credential is limited to some stores and the route answers for every store at once (the event feed, file imports, settings); use a credential reaching every store.',
  ],
  outside_credential_stores: [
    'not_found',
    "What the request names (a shipment, return, order, store, pickup, return request, refund or weight dispute) belongs to a store the credential is not limited to, or to none: answered as another account's would be.",
  ],
  store_required: [
    'unprocessable',
    'A credential limited to stores makes only what belongs to them: an order names one in store_name, a return the forward shipment it returns (forward_awb or forward_order_id).',
  ],
});
