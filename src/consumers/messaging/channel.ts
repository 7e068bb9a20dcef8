/** The channels a buyer can be messaged on, in the order a policy lists them by default. */
export const CHANNELS = ['whatsapp', 'sms', 'email'] as const;
export type ChannelName = (typeof CHANNELS)[number];
export const LANGUAGES = ['en', 'hi'] as const;
export type MessageLanguage = (typeof LANGUAGES)[number];

/**
 * What a message is for: a COD order's confirmation, a failed delivery's choices, an address to
 * complete (docs/rto.md), or a return request's news (docs/returns.md).
 */
export type MessagePurpose = 'order_confirmation' | 'ndr' | 'address_update' | 'return_update';

/** One message to one buyer, with what its template is filled with. */
export type OutgoingMessage = {
  /** An Indian mobile as 91 and ten digits (WhatsApp, SMS), or an e-mail address. */
  to: string;
  template: string;
  language: MessageLanguage;
} & (
  | { purpose: 'order_confirmation'; variables: MessageVariables }
  | { purpose: 'ndr'; variables: NdrVariables }
  | { purpose: 'address_update'; variables: AddressUpdateVariables }
  | { purpose: 'return_update'; variables: ReturnUpdateVariables }
);

/** What a return request's message says: the request received, approved or declined (docs/returns.md). */
export interface ReturnUpdateVariables {
  brand: string;
  order_id: string;
  /** What happened to the request, in the message's language ("received", "approved", "declined"). */
  update: string;
  /** The return page of the store's tracking page, where the buyer follows the request (SMS). */
  return_url: string;
  /** WhatsApp's See request button: the part after the template's URL (`{PUBLIC_BASE_URL}/t/{{1}}`). */
  return_path: string;
  /** The request and which of its updates this is: one message per update, a replayed batch notwithstanding. */
  request_id: string;
  request_update: string;
}

/** What an "update your address" message says (docs/rto.md, Update your address). */
export interface AddressUpdateVariables {
  brand: string;
  order_id: string;
  /** The form on the store's tracking page (SMS, e-mail). */
  update_url: string;
  /** WhatsApp's Update address button: the part after the template's URL (`{PUBLIC_BASE_URL}/t/{{1}}`). */
  update_path: string;
}

/** What a confirmation says: the same names on every channel (docs/rto.md lists them). */
export interface MessageVariables {
  brand: string;
  order_id: string;
  amount: string;
  confirm_url: string;
  cancel_url: string;
  /** Empty when the policy offers no payment link. */
  payment_url: string;
  /**
   * WhatsApp's Pay online button: payment_url after the link template's fixed start (the template up
   * to its first placeholder, which the merchant registers as the button's URL before `{{1}}`).
   * Empty when no link is offered or the template has no placeholder (a static button).
   */
  payment_path?: string;
  /** WhatsApp's button payloads: `confirm:<shipment id>` and `cancel:<shipment id>`. */
  confirm_payload: string;
  cancel_payload: string;
}

/** What an NDR message says: the same names on every channel (docs/rto.md, NDR messages). */
export interface NdrVariables {
  brand: string;
  order_id: string;
  awb: string;
  /** The store's tracking page, where the buyer picks a day, corrects the address or phone (SMS, e-mail). */
  tracking_url: string;
  /** WhatsApp's Change address button: the part after the template's URL (`{PUBLIC_BASE_URL}/t/{{1}}`). */
  tracking_path: string;
  /** WhatsApp's quick-reply payloads: `ndr_reattempt:<shipment id>:<attempt>` and `ndr_cancel:<shipment id>:<attempt>`. */
  reattempt_payload: string;
  cancel_payload: string;
}

/** A send the provider refused or never answered; `retry` when trying later may succeed (429, 5xx, network). */
export class ChannelFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** Sends one message through one provider; answers the provider's id for it. Throws ChannelFailure. */
export type SendMessage = (
  message: OutgoingMessage,
  signal: AbortSignal,
) => Promise<{ providerMessageId: string | null }>;

/** A phone as WhatsApp and MSG91 take it (91 and ten digits), or null when it is not an Indian mobile. */
export function indianMobile(phone: string): string | null {
  const digits = phone.replace(/[\s()+-]/g, '');
  const ten = /^(?:0|91|0091)?([6-9]\d{9})$/.exec(digits)?.[1];
  return ten ? `91${ten}` : null;
}
