import { type SecretBox, SecretBoxError } from '../../base/secret-box.js';
import { OPERATOR_RULES, type OutboundRules } from '../../base/outbound/outbound-url.js';
import type { ChannelName, MessageLanguage, MessagePurpose, SendMessage } from './channel.js';
import { emailSender } from './email.channel.js';
import { msg91Sender } from './msg91.channel.js';
import { providerPost } from './provider-request.js';
import type { ChannelRow } from './messaging.repository.js';
import type { MessagingSettings } from './messaging.settings.js';
import { DEFAULT_WHATSAPP_API_VERSION, whatsappSender } from './whatsapp.channel.js';

/** The secrets each channel keeps sealed; what the API never answers. */
export const SECRET_FIELDS: Record<ChannelName, readonly string[]> = {
  whatsapp: ['access_token', 'app_secret', 'verify_token'],
  sms: ['auth_key'],
  email: [],
};

/** The server's side of sending: provider hosts, the SMTP relay, time-outs. */
export interface SendSettings extends Pick<MessagingSettings, 'whatsappBaseUrl' | 'smsBaseUrl'> {
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  timeoutMs: number;
  /**
   * The outbound guard's rules for an account's own base_url (WEBHOOK_ALLOW_HTTP,
   * WEBHOOK_ALLOW_PRIVATE): judged when it is saved and before every send. The operator's hosts
   * above are not judged.
   */
  outbound: OutboundRules;
}

/**
 * A channel's credentials. Ones sealed under another key (SECRETS_KEY changed) read as none: the
 * channel shows no credentials_set and cannot send until they are entered again, rather than
 * every read of the channel failing.
 */
export function secretsOf(box: SecretBox, row: Pick<ChannelRow, 'sealedSecret'>): Record<string, string> {
  if (!row.sealedSecret) return {};
  try {
    return JSON.parse(box.open(row.sealedSecret)) as Record<string, string>;
  } catch (error) {
    if (error instanceof SecretBoxError) return {};
    throw error;
  }
}

/** Where a WhatsApp or SMS channel keeps each purpose's templates (per language). */
const TEMPLATE_FIELDS: Record<MessagePurpose, string> = {
  order_confirmation: 'confirmation_template',
  ndr: 'ndr_template',
  address_update: 'address_template',
  return_update: 'return_template',
};

/** The template a channel sends a confirmation (or an NDR or address message) with in `language`, or undefined when the merchant set none (email has its own). */
export function templateOf(
  row: ChannelRow,
  language: MessageLanguage,
  purpose: MessagePurpose = 'order_confirmation',
): string | undefined {
  // A return request's e-mails are the store's notifications: the e-mail channel has none of its own.
  if (row.channel === 'email')
    return purpose === 'return_update'
      ? undefined
      : purpose === 'ndr'
        ? 'email_ndr'
        : purpose === 'address_update'
          ? 'email_address'
          : 'email';
  const field = TEMPLATE_FIELDS[purpose];
  const templates = row.settings[field] as Partial<Record<MessageLanguage, string>> | undefined;
  return templates?.[language];
}

/** What is missing for the channel to send, in words; empty when it can. */
export function missingFor(row: ChannelRow, secrets: Record<string, string>, send: SendSettings): string[] {
  const s = row.settings;
  if (row.channel === 'whatsapp')
    return [...(s.phone_number_id ? [] : ['phone_number_id']), ...(secrets.access_token ? [] : ['access_token'])];
  if (row.channel === 'sms') return [...(s.sender ? [] : ['sender']), ...(secrets.auth_key ? [] : ['auth_key'])];
  return send.smtpUrl && send.mailFrom ? [] : ['SMTP_URL and MAIL_FROM on the server'];
}

/** The sender for one configured channel of one account: through its own base_url, guarded, or the server's. */
export function senderFor(row: ChannelRow, secrets: Record<string, string>, send: SendSettings): SendMessage {
  const s = row.settings as Record<string, string | null | undefined>;
  const own = typeof s.base_url === 'string' ? s.base_url : undefined;
  const rules = own === undefined ? OPERATOR_RULES : send.outbound;
  if (row.channel === 'whatsapp') {
    return whatsappSender(
      {
        baseUrl: own ?? send.whatsappBaseUrl,
        apiVersion: s.api_version ?? DEFAULT_WHATSAPP_API_VERSION,
        phoneNumberId: s.phone_number_id!,
        accessToken: secrets.access_token!,
      },
      providerPost('WhatsApp', rules, send.timeoutMs),
    );
  }
  if (row.channel === 'sms')
    return msg91Sender(
      { baseUrl: own ?? send.smsBaseUrl, authKey: secrets.auth_key!, sender: s.sender! },
      providerPost('MSG91', rules, send.timeoutMs),
    );
  return emailSender(send.smtpUrl!, send.mailFrom!, send.timeoutMs);
}
