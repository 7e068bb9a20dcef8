import { hmacSha256Matches } from '../../base/hmac.js';
import { remoteExcerpt } from '../../base/outbound/remote-text.js';
import { ChannelFailure, type SendMessage } from './channel.js';
import { type ProviderPost, providerId } from './provider-request.js';

/** The Cloud API's Graph version when an account names none. */
export const DEFAULT_WHATSAPP_API_VERSION = 'v21.0';

export interface WhatsAppAccount {
  baseUrl: string;
  apiVersion: string;
  phoneNumberId: string;
  accessToken: string;
}

/** Error codes the Cloud API answers when a sender is going too fast: try again later. */
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);

/**
 * WhatsApp Business Cloud API: a template message with the brand, order id and amount in its body
 * and two quick-reply buttons whose payloads name the shipment, and a Pay online URL button when the
 * account offers a payment link (an NDR message: brand, order id and
 * AWB, and three buttons; an address update: brand and order id, and a URL button to the form; a
 * return update: brand, order id and what happened, and a URL button to the request) (POST {base}/{version}/{phone number
 * id}/messages, bearer token). A 429, a rate-limit code or a 5xx is retried; other refusals are final.
 * A refusal keeps the Graph API's error code and a short excerpt of its error.message, never the body.
 */
export function whatsappSender(account: WhatsAppAccount, post: ProviderPost): SendMessage {
  const url = `${account.baseUrl}/${account.apiVersion}/${encodeURIComponent(account.phoneNumberId)}/messages`;
  return async (message, signal) => {
    const text = (value: string) => ({ type: 'text', text: value });
    const button = (index: number, payload: string) => ({
      type: 'button',
      sub_type: 'quick_reply',
      index: String(index),
      parameters: [{ type: 'payload', payload }],
    });
    const components = (() => {
      if (message.purpose === 'ndr') {
        const v = message.variables;
        // Reattempt tomorrow, Change address (a URL button opening the tracking page), Cancel order.
        return [
          { type: 'body', parameters: [text(v.brand), text(v.order_id), text(v.awb)] },
          button(0, v.reattempt_payload),
          { type: 'button', sub_type: 'url', index: '1', parameters: [text(v.tracking_path)] },
          button(2, v.cancel_payload),
        ];
      }
      if (message.purpose === 'address_update') {
        const v = message.variables;
        return [
          { type: 'body', parameters: [text(v.brand), text(v.order_id)] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [text(v.update_path)] },
        ];
      }
      if (message.purpose === 'return_update') {
        const v = message.variables;
        return [
          { type: 'body', parameters: [text(v.brand), text(v.order_id), text(v.update)] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [text(v.return_path)] },
        ];
      }
      const v = message.variables;
      const confirm = [
        { type: 'body', parameters: [text(v.brand), text(v.order_id), text(v.amount)] },
        button(0, v.confirm_payload),
        button(1, v.cancel_payload),
      ];
      // Pay online: a URL button after Confirm and Cancel, its variable the link's end (a static button takes none).
      return v.payment_path
        ? [...confirm, { type: 'button', sub_type: 'url', index: '2', parameters: [text(v.payment_path)] }]
        : confirm;
    })();
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to,
      type: 'template',
      template: {
        name: message.template,
        language: { code: message.language },
        components,
      },
    };
    const response = await post(url, { authorization: `Bearer ${account.accessToken}` }, JSON.stringify(body), signal);
    const answer = response.json as
      | { messages?: { id?: unknown }[]; error?: { message?: unknown; code?: unknown } }
      | undefined;
    if (response.status >= 200 && response.status < 300) {
      const id = providerId(answer?.messages?.[0]?.id);
      if (id === undefined) throw new ChannelFailure(`WhatsApp answered ${response.status} without a message id`, true);
      return { providerMessageId: id };
    }
    const code = Number.isSafeInteger(answer?.error?.code) ? (answer!.error!.code as number) : undefined;
    const words =
      typeof answer?.error?.message === 'string' ? remoteExcerpt(answer.error.message) : `HTTP ${response.status}`;
    const retry =
      response.status === 429 || response.status >= 500 || (code !== undefined && RATE_LIMIT_CODES.has(code));
    throw new ChannelFailure(
      `WhatsApp refused (${response.status}${code === undefined ? '' : `, code ${code}`}): ${words}`,
      retry,
    );
  };
}

/** Whether `X-Hub-Signature-256` is `sha256=` and the HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(rawBody: string, header: string | undefined, appSecret: string): boolean {
  return (
    header?.startsWith('sha256=') === true && hmacSha256Matches(rawBody, appSecret, header.slice('sha256='.length))
  );
}

/** A buyer's tap on a quick-reply button: whom it came from and the payload we set. */
export interface ButtonReply {
  from: string;
  messageId: string;
  payload: string;
}

/**
 * The button replies in an inbound webhook (entry[].changes[].value.messages[]): template quick
 * replies come as `type: button` with `button.payload`, interactive ones as `interactive.button_reply.id`.
 * Everything else (statuses, text messages) is left out.
 */
export function buttonReplies(body: unknown): ButtonReply[] {
  const replies: ButtonReply[] = [];
  const entries = (body as { entry?: unknown })?.entry;
  if (!Array.isArray(entries)) return replies;
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown })?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const messages = (change as { value?: { messages?: unknown } })?.value?.messages;
      if (!Array.isArray(messages)) continue;
      type Inbound = {
        type?: unknown;
        from?: unknown;
        id?: unknown;
        button?: { payload?: unknown };
        interactive?: { button_reply?: { id?: unknown } };
      };
      for (const m of messages as (Inbound | null)[]) {
        if (!m) continue;
        const payload =
          m.type === 'button'
            ? m.button?.payload
            : m.type === 'interactive'
              ? m.interactive?.button_reply?.id
              : undefined;
        if (typeof payload === 'string' && typeof m.from === 'string')
          replies.push({ from: m.from, messageId: String(m.id ?? ''), payload });
      }
    }
  }
  return replies;
}
