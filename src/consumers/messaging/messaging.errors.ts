import { errorCodes } from '../../domain/errors.js';

export const MESSAGING_ERRORS = errorCodes({
  messaging_setting_unknown: [
    'invalid',
    'A field that is not a setting of this messaging channel; `details` names each.',
  ],
  messaging_channel_incomplete: [
    'unprocessable',
    'The channel cannot be enabled without the settings sending needs; `details` names each one missing.',
  ],
  cod_payment_amount_mismatch: ['unprocessable', 'The amount paid is not the cash on delivery the order collects.'],
  whatsapp_verify_token_mismatch: [
    'forbidden',
    "Meta's subscription check sent a hub.verify_token that is not the account's WhatsApp verify_token.",
  ],
  whatsapp_channel_not_found: ['not_found', 'The account has no WhatsApp channel with an app_secret.'],
  whatsapp_signature_missing: ['unauthorized', 'The inbound WhatsApp webhook has no X-Hub-Signature-256 header.'],
  whatsapp_signature_mismatch: [
    'forbidden',
    "X-Hub-Signature-256 is not the body's HMAC with the account's WhatsApp app secret.",
  ],
});
