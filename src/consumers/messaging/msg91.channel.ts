import { remoteExcerpt } from '../../base/outbound/remote-text.js';
import { ChannelFailure, type SendMessage } from './channel.js';
import { type ProviderPost, providerId } from './provider-request.js';

export interface Msg91Account {
  baseUrl: string;
  authKey: string;
  /** The DLT-registered sender id (six letters). */
  sender: string;
}

/**
 * MSG91's flow API: POST {base}/api/v5/flow/ with the `authkey` header, the DLT template id and one
 * recipient whose variables fill the template. MSG91 answers `{type: "success", message: <request
 * id>}` or `{type: "error", message}`, sometimes with a 200: the body's type decides. A refusal keeps
 * a short excerpt of that message, never the body.
 */
export function msg91Sender(account: Msg91Account, post: ProviderPost): SendMessage {
  const url = `${account.baseUrl}/api/v5/flow/`;
  return async (message, signal) => {
    const v = message.variables;
    const fields =
      message.purpose === 'ndr'
        ? {
            brand: v.brand,
            order_id: v.order_id,
            awb: message.variables.awb,
            tracking_url: message.variables.tracking_url,
          }
        : message.purpose === 'address_update'
          ? { brand: v.brand, order_id: v.order_id, update_url: message.variables.update_url }
          : message.purpose === 'return_update'
            ? {
                brand: v.brand,
                order_id: v.order_id,
                update: message.variables.update,
                return_url: message.variables.return_url,
              }
            : {
                brand: v.brand,
                order_id: v.order_id,
                amount: message.variables.amount,
                confirm_url: message.variables.confirm_url,
                cancel_url: message.variables.cancel_url,
                payment_url: message.variables.payment_url,
              };
    const body = {
      template_id: message.template,
      sender: account.sender,
      short_url: '1',
      // Hindi needs the unicode route.
      unicode: message.language === 'hi' ? 1 : 0,
      recipients: [{ mobiles: message.to, ...fields }],
    };
    const response = await post(url, { authkey: account.authKey }, JSON.stringify(body), signal);
    const answer = response.json as { type?: unknown; message?: unknown } | undefined;
    const ok = response.status >= 200 && response.status < 300;
    if (ok && answer?.type === 'success') {
      const id = providerId(answer.message);
      if (id === undefined) throw new ChannelFailure(`MSG91 answered ${response.status} without a request id`, true);
      return { providerMessageId: id };
    }
    const words = typeof answer?.message === 'string' ? remoteExcerpt(answer.message) : `HTTP ${response.status}`;
    const retry = response.status === 429 || response.status >= 500;
    throw new ChannelFailure(`MSG91 refused (${response.status}): ${words}`, retry);
  };
}
