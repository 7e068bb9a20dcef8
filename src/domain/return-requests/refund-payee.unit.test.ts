import { describe, expect, it } from 'vitest';
import { createIfscDirectory } from '../banking/ifsc.js';
import { maskPayee, type RefundToFacts, type RefundToInput, readRefundTo, refundMethodsFor } from './refund-payee.js';

// Two branches of the published list (HDFC0000001, SBIN0005943), the rest unknown.
const banks = createIfscDirectory(() => ({
  branches: { HDFC: [1], SBIN: [5943] },
  bankNames: { HDFC: 'HDFC Bank', SBIN: 'State Bank of India' },
  sublets: {},
  customSublets: {},
}));

const COD: RefundToFacts = { cod: true, storeCredit: false, required: true };
const PREPAID: RefundToFacts = { cod: false, storeCredit: false, required: true };
const BANK: RefundToInput = {
  method: 'bank_transfer',
  account_holder: '  Asha   Menon ',
  account_number: '5010 0432-1904521',
  ifsc: ' hdfc0000001 ',
};

describe('how a buyer is refunded', () => {
  it.each([
    [{ cod: true, storeCredit: false }, ['upi', 'bank_transfer']],
    [{ cod: true, storeCredit: true }, ['upi', 'bank_transfer', 'store_credit']],
    [{ cod: false, storeCredit: false }, ['original']],
    [{ cod: false, storeCredit: true }, ['original', 'store_credit']],
  ])('%o may be refunded by %o', (facts, methods) => {
    expect(refundMethodsFor(facts)).toEqual(methods);
  });

  it.each<[string, RefundToInput | undefined, RefundToFacts, unknown]>([
    ['a prepaid order, nothing given', undefined, PREPAID, { method: 'original' }],
    ['a prepaid order, original', { method: 'original' }, PREPAID, { method: 'original' }],
    [
      'store credit where offered',
      { method: 'store_credit' },
      { ...COD, storeCredit: true },
      { method: 'store_credit' },
    ],
    [
      'UPI, in lower case',
      { method: 'upi', upi_id: ' Asha.Menon@OKAXIS ' },
      COD,
      { method: 'upi', upi_id: 'asha.menon@okaxis' },
    ],
    [
      'a bank account: spaces and hyphens dropped, the IFSC in capitals, the bank named',
      BANK,
      COD,
      {
        method: 'bank_transfer',
        account_holder: 'Asha Menon',
        account_number: '501004321904521',
        ifsc: 'HDFC0000001',
        bank: 'HDFC Bank',
      },
    ],
    ['a COD order by the API, nothing given: to be agreed', undefined, { ...COD, required: false }, undefined],
  ])('%s', (_case, input, facts, payee) => {
    expect(readRefundTo(input, facts, banks)).toEqual({ payee, refusals: [] });
  });

  it.each<[string, RefundToInput | undefined, RefundToFacts, [string, string][]]>([
    ['a COD order on the form, nothing given', undefined, COD, [['refund_method_required', 'refund_to.method']]],
    ['a COD order, a blank method', { method: '  ' }, COD, [['refund_method_required', 'refund_to.method']]],
    [
      'a COD order has no original method',
      { method: 'original' },
      COD,
      [['refund_method_not_offered', 'refund_to.method']],
    ],
    [
      'a prepaid order by UPI',
      { method: 'upi', upi_id: 'asha@okaxis' },
      PREPAID,
      [['refund_method_not_offered', 'refund_to.method']],
    ],
    [
      'store credit the store does not offer',
      { method: 'store_credit' },
      COD,
      [['refund_method_not_offered', 'refund_to.method']],
    ],
    ['an unknown method', { method: 'cheque' }, COD, [['refund_method_not_offered', 'refund_to.method']]],
    ['UPI without an id', { method: 'upi' }, COD, [['upi_id_invalid', 'refund_to.upi_id']]],
    ['UPI without the app', { method: 'upi', upi_id: 'asha.menon' }, COD, [['upi_id_invalid', 'refund_to.upi_id']]],
    ['UPI with a space', { method: 'upi', upi_id: 'asha menon@okaxis' }, COD, [['upi_id_invalid', 'refund_to.upi_id']]],
    [
      'UPI, a one-character handle',
      { method: 'upi', upi_id: 'a@okaxis' },
      COD,
      [['upi_id_invalid', 'refund_to.upi_id']],
    ],
    [
      'a bank account with nothing in it',
      { method: 'bank_transfer' },
      COD,
      [
        ['account_holder_required', 'refund_to.account_holder'],
        ['account_number_invalid', 'refund_to.account_number'],
        ['ifsc_invalid', 'refund_to.ifsc'],
      ],
    ],
    [
      '8 digits',
      { ...BANK, account_number: '12345678' },
      COD,
      [['account_number_invalid', 'refund_to.account_number']],
    ],
    [
      '19 digits',
      { ...BANK, account_number: '1234567890123456789' },
      COD,
      [['account_number_invalid', 'refund_to.account_number']],
    ],
    [
      'letters in the number',
      { ...BANK, account_number: '50100432190452A' },
      COD,
      [['account_number_invalid', 'refund_to.account_number']],
    ],
    [
      'a holder of 101 characters',
      { ...BANK, account_holder: 'A'.repeat(101) },
      COD,
      [['account_holder_required', 'refund_to.account_holder']],
    ],
    ['an IFSC of the wrong form', { ...BANK, ifsc: 'HDFC1000001' }, COD, [['ifsc_invalid', 'refund_to.ifsc']]],
    ['an IFSC the list lacks', { ...BANK, ifsc: 'HDFC0000002' }, COD, [['ifsc_unknown', 'refund_to.ifsc']]],
  ])('refuses %s', (_case, input, facts, refusals) => {
    expect(readRefundTo(input, facts, banks)).toEqual({
      payee: undefined,
      refusals: refusals.map(([code, field]) => ({ code, field })),
    });
  });

  it.each([
    [
      { method: 'upi', upi_id: 'asha.menon@okaxis' },
      { method: 'upi', upi_id: 'as********@okaxis' },
    ],
    [
      { method: 'upi', upi_id: 'ab@ybl' },
      { method: 'upi', upi_id: 'ab**@ybl' },
    ],
    [
      {
        method: 'bank_transfer',
        account_holder: 'Asha Menon',
        account_number: '501004321904521',
        ifsc: 'HDFC0000001',
        bank: 'HDFC Bank',
      },
      {
        method: 'bank_transfer',
        account_holder: 'Asha Menon',
        account_number: 'XXXXXXXXXXX4521',
        ifsc: 'HDFC0000001',
        bank: 'HDFC Bank',
      },
    ],
    [{ method: 'store_credit' }, { method: 'store_credit' }],
    [{ method: 'original' }, { method: 'original' }],
  ] as const)('masks %o as %o', (payee, masked) => {
    expect(maskPayee(payee)).toEqual(masked);
  });
});
