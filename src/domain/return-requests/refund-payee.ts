import { IFSC_FORM, type IfscDirectory } from '../banking/ifsc.js';

// How a buyer is refunded (issue 50, docs/returns.md): a prepaid order to how it was paid; a cash
// on delivery order, having nothing to refund to, to the buyer's UPI id or bank account; either to
// store credit where the store offers it. The payee's details are the buyer's: kept sealed, shown
// masked, opened only for the merchant's payment system (GET /refunds/{id}/payee).

export const REFUND_METHODS = ['original', 'upi', 'bank_transfer', 'store_credit'] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

/** What the buyer (or the merchant for them) gives: the method, and its details. */
export interface RefundToInput {
  method?: string | undefined;
  upi_id?: string | undefined;
  account_holder?: string | undefined;
  account_number?: string | undefined;
  ifsc?: string | undefined;
}

/** The payee in full, as sealed. */
export type RefundPayee =
  | { method: 'original' | 'store_credit' }
  | { method: 'upi'; upi_id: string }
  | { method: 'bank_transfer'; account_holder: string; account_number: string; ifsc: string; bank: string };

export type RefundToCode =
  | 'refund_method_required'
  | 'refund_method_not_offered'
  | 'upi_id_invalid'
  | 'account_holder_required'
  | 'account_number_invalid'
  | 'ifsc_invalid'
  | 'ifsc_unknown';

export interface RefundToRefusal {
  code: RefundToCode;
  field: string;
}

export interface RefundToFacts {
  /** Whether the order was paid on delivery: it has no original method to refund to. */
  cod: boolean;
  /** Whether the store offers store credit (its return policy). */
  storeCredit: boolean;
  /** Whether a method must be given: the buyer's form asks; the merchant's API may leave it to be agreed. */
  required: boolean;
}

// NPCI's virtual payment address: a handle of letters, digits, dots, hyphens or underscores, then
// `@` and the payment app's handle (okaxis, ybl, paytm, …).
const UPI_ID = /^[a-z0-9][a-z0-9._-]{1,255}@[a-z][a-z0-9]{1,63}$/;
// Indian bank account numbers run from 9 digits (some public sector banks) to 18.
const ACCOUNT_NUMBER = /^\d{9,18}$/;
const HOLDER_MAX = 100;

/** The methods an order may be refunded by: what it was paid with, or what the store adds. */
export function refundMethodsFor(facts: Pick<RefundToFacts, 'cod' | 'storeCredit'>): RefundMethod[] {
  const own: RefundMethod[] = facts.cod ? ['upi', 'bank_transfer'] : ['original'];
  return facts.storeCredit ? [...own, 'store_credit'] : own;
}

/**
 * The payee the input names, or why not, each refusal naming its field under `refund_to`. No
 * input and none required: undefined (a prepaid order's method is its original one, a COD
 * order's is agreed with the buyer).
 */
export function readRefundTo(
  input: RefundToInput | undefined,
  facts: RefundToFacts,
  banks: IfscDirectory,
): { payee: RefundPayee | undefined; refusals: RefundToRefusal[] } {
  const offered = refundMethodsFor(facts);
  const method = input?.method?.trim() || undefined;
  if (method === undefined) {
    if (!facts.cod) return { payee: { method: 'original' }, refusals: [] };
    return facts.required
      ? { payee: undefined, refusals: [{ code: 'refund_method_required', field: 'refund_to.method' }] }
      : { payee: undefined, refusals: [] };
  }
  if (!offered.includes(method as RefundMethod))
    return { payee: undefined, refusals: [{ code: 'refund_method_not_offered', field: 'refund_to.method' }] };
  if (method === 'original' || method === 'store_credit') return { payee: { method }, refusals: [] };
  if (method === 'upi') {
    const upiId = (input?.upi_id ?? '').trim().toLowerCase();
    return UPI_ID.test(upiId)
      ? { payee: { method, upi_id: upiId }, refusals: [] }
      : { payee: undefined, refusals: [{ code: 'upi_id_invalid', field: 'refund_to.upi_id' }] };
  }
  const refusals: RefundToRefusal[] = [];
  const holder = (input?.account_holder ?? '').replace(/\s+/g, ' ').trim();
  if (holder === '' || holder.length > HOLDER_MAX)
    refusals.push({ code: 'account_holder_required', field: 'refund_to.account_holder' });
  const accountNumber = (input?.account_number ?? '').replace(/[\s-]/g, '');
  if (!ACCOUNT_NUMBER.test(accountNumber))
    refusals.push({ code: 'account_number_invalid', field: 'refund_to.account_number' });
  const ifsc = (input?.ifsc ?? '').trim().toUpperCase();
  const bank = banks.bankOf(ifsc);
  if (!bank) refusals.push({ code: IFSC_FORM.test(ifsc) ? 'ifsc_unknown' : 'ifsc_invalid', field: 'refund_to.ifsc' });
  if (refusals.length > 0 || !bank) return { payee: undefined, refusals };
  return {
    payee: { method: 'bank_transfer', account_holder: holder, account_number: accountNumber, ifsc, bank: bank.name },
    refusals: [],
  };
}

/** The payee as answers, events and the panel show it: a UPI id's handle and all but an account's last four digits hidden. */
export type MaskedPayee = RefundPayee;

export function maskPayee(payee: RefundPayee): MaskedPayee {
  if (payee.method === 'upi') {
    const [handle = '', app = ''] = payee.upi_id.split('@');
    return { method: 'upi', upi_id: `${handle.slice(0, 2)}${'*'.repeat(Math.max(2, handle.length - 2))}@${app}` };
  }
  if (payee.method === 'bank_transfer')
    return {
      ...payee,
      account_number: `${'X'.repeat(payee.account_number.length - 4)}${payee.account_number.slice(-4)}`,
    };
  return payee;
}
