import { errorCodes } from '../../domain/errors.js';

export const WEBHOOK_ERRORS = errorCodes({
  webhook_endpoint_not_found: ['not_found', 'No webhook endpoint of the account has this id.'],
  webhook_delivery_not_found: ['not_found', 'The endpoint has no delivery with this id.'],
  webhook_endpoint_disabled: [
    'unprocessable',
    'The webhook endpoint is disabled: enable it (PUT status "enabled") before testing it or sending a delivery again.',
  ],
  webhook_event_has_no_velocity_form: [
    'unprocessable',
    "The delivery's event has no form in Velocity's webhook format, which the endpoint now receives: it cannot be sent again.",
  ],
});
