import { EXAMPLE } from '../../http/examples.js';
import type { RefundView } from './refund-view.js';

export const REFUND_EXAMPLE: RefundView = {
  id: EXAMPLE.refundId,
  return_request_id: EXAMPLE.returnRequestId,
  return_id: EXAMPLE.returnId,
  store_id: EXAMPLE.storeId,
  status: 'pending',
  amount: 832.1,
  items_amount: 998,
  deduction: 99.8,
  return_shipping_fee: 66.1,
  currency: 'INR',
  method: 'bank_transfer',
  payee: {
    method: 'bank_transfer',
    account_holder: 'Asha Menon',
    account_number: 'XXXXXXXXXXX4521',
    ifsc: 'HDFC0000001',
    bank: 'HDFC Bank',
  },
  release_on: 'warehouse',
  released_at: '2026-11-26T09:40:00.000Z',
  utr: null,
  failure_reason: null,
  initiated_at: null,
  completed_at: null,
  failed_at: null,
  cancelled_at: null,
  created_at: '2026-11-23T04:00:00.000Z',
  updated_at: '2026-11-26T09:40:00.000Z',
};

/** What the payment system pays to, in full (the buyer's own details: answered only to the account). */
export const REFUND_PAYEE_EXAMPLE = {
  refund_id: EXAMPLE.refundId,
  method: 'bank_transfer',
  account_holder: 'Asha Menon',
  account_number: '501004321904521',
  ifsc: 'HDFC0000001',
  bank: 'HDFC Bank',
};

export const COMPLETE_REFUND_EXAMPLE = { utr: 'SBIN326331234567' };
export const FAIL_REFUND_EXAMPLE = { reason: 'The UPI id given is not active.' };
