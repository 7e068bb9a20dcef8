import { errorCodes } from '../../domain/errors.js';

export const TRACKING_ERRORS = errorCodes({
  ekart_webhooks_disabled: ['not_found', 'Ekart webhooks are not enabled on this server.'],
  ekart_signature_invalid: [
    'forbidden',
    "No signature of the Ekart push verifies its body under the server's secret; the post is kept for the operator.",
  ],
  ekart_push_invalid: ['invalid', 'The Ekart push is not one the server can read (not a scan of a known shape).'],
});

/**
 * The parcel a scan was found for went before the scan's transaction locked it (its account was
 * deleted in between). Thrown inside that transaction, so nothing of the scan is written; the
 * intake answers it as it answers an AWB it does not hold. Never reaches HTTP.
 */
export class ParcelGone extends Error {
  constructor(journey: 'forward' | 'return', id: string) {
    super(`the ${journey === 'forward' ? 'shipment' : 'return'} ${id} is gone`);
  }
}
