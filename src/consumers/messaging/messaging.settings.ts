import { baseUrl, delays, fixed } from '../../base/setting-kinds.js';
import { defineSettings, type SettingsOf } from '../../base/settings.js';

/** Buyer messaging: where the providers are and how sends are retried. */
export const messagingSettings = defineSettings({
  whatsappBaseUrl: baseUrl('WHATSAPP_BASE_URL', {
    doc: "the WhatsApp Business Cloud API's host for every account that does not set its own `base_url` (a proxy, or a test server)",
    default: 'https://graph.facebook.com',
  }),
  smsBaseUrl: baseUrl('SMS_BASE_URL', {
    doc: "MSG91's host for every account that does not set its own `base_url`",
    default: 'https://control.msg91.com',
  }),
  // A confirmation is worth little hours late.
  retryDelaysSeconds: delays('MESSAGE_RETRY_DELAYS', {
    doc: 'seconds between attempts at a buyer message (WhatsApp, SMS, e-mail) the provider refused for now (429, 5xx, a rate-limit code, unreachable); a final refusal (an unknown template, a bad token) is not retried',
    default: [30, 120, 600, 1800],
  }),
  timeoutMs: fixed(10_000, 'One call to a messaging provider (WhatsApp Cloud API, MSG91) must end within this.'),
});

export type MessagingSettings = SettingsOf<typeof messagingSettings>;
