import { ChannelFailure, jsonOf, networkFailure, type SendMessage } from './channel.js';

export interface Msg91Account {
  baseUrl: string;
  authKey: string;
  /** The DLT-registered sender id (six letters). */
  sender: string;
}

/**
 * MSG91's flow API: POST {base}/api/v5/flow/ with the `authkey` header, the DLT template id and one
 * recipient whose variables fill the template. MSG91 answers `{type: "success", message: <request
 * id>}` or `{type: "error", message}`, sometimes with a 200: the body's type decides.
 */
export function msg91Sender(account: Msg91Account, timeoutMs: number): SendMessage {
  const url = `${account.baseUrl}/api/v5/flow/`;
  return async (message, signal) => {
    const v = message.variables;
    const fields =
      message.purpose === 'ndr'
        ? { brand: v.brand, order_id: v.order_id, awb: message.variables.awb, tracking_url: message.variables.tracking_url }
        : message.purpose === 'address_update'
          ? { brand: v.brand, order_id: v.order_id, update_url: message.variables.update_url }
          : { brand: v.brand, order_id: v.order_id, amount: message.variables.amount, confirm_url: message.variables.confirm_url, cancel_url: message.variables.cancel_url, payment_url: message.variables.payment_url };
    const body = {
      template_id: message.template,
      sender: account.sender,
      short_url: '1',
      // Hindi needs the unicode route.
      unicode: message.language === 'hi' ? 1 : 0,
      recipients: [{ mobiles: message.to, ...fields }],
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authkey: account.authKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
    } catch (error) {
      throw networkFailure('MSG91', error);
    }
    const answer = (await jsonOf(response)) as { type?: unknown; message?: unknown } | undefined;
    const words = typeof answer?.message === 'string' ? answer.message : `HTTP ${response.status}`;
    if (response.ok && answer?.type === 'success') return { providerMessageId: words };
    const retry = response.status === 429 || response.status >= 500;
    throw new ChannelFailure(`MSG91 refused (${response.status}): ${words}`.slice(0, 500), retry);
  };
}
