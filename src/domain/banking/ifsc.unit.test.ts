import { describe, expect, it } from 'vitest';
import { ifscDirectory } from '../../data-files.js';
import { createIfscDirectory, type IfscData } from './ifsc.js';

// Branch codes against the list RBI publishes, as Razorpay's `ifsc` package (2.0.50) carries it:
// the real codes and names below are from its data files (IFSC.json, banknames.json, sublet.json,
// custom-sublets.json).

describe('an IFSC against the published list', () => {
  it.each([
    ['HDFC0000001', 'HDFC Bank'],
    ['SBIN0005943', 'State Bank of India'],
    ['ICIC0000001', 'ICICI Bank'],
    ['UTIB0000001', 'Axis Bank'],
    ['PUNB0244200', 'Punjab National Bank'],
    ['KKBK0000131', 'Kotak Mahindra Bank'],
    // A branch code with letters (kept as a string in the list, not a number).
    ['SBIN0000BGL', 'State Bank of India'],
    ['BARB0AAMBUR', 'Bank of Baroda'],
    // Sublet whole (sublet.json): a co-operative bank clearing through a sponsor's code.
    ['APBL0001001', 'District Co-operative Central Bank Srikakul'],
    ['HDFC0C0CUCB', 'Chamba Urban Co-operative Bank Chamba'],
    // Sublet by prefix (custom-sublets.json), to a bank code or straight to a name.
    ['YESB0FINCO2', 'Financial Co-operative Bank'],
    ['HDFC0CNICBL', 'Navsarjan Industrial Co-operative Bank'],
    ['UJVN0001008', 'Ujjivan Small Finance Bank'],
  ])('%s is a branch of %s', (ifsc, bank) => {
    expect(ifscDirectory.bankOf(ifsc)).toEqual({ ifsc, name: bank });
  });

  it.each([
    ['KKBK0000001', 'a bank the list knows, a branch it does not'],
    ['HDFC0ZZZZZZ', 'a branch code of letters it does not list'],
    ['ZZZZ0000001', 'a bank it does not know'],
    ['HDFC1000001', 'the fifth character is not the zero'],
    ['HDFC000001', 'ten characters'],
    ['hdfc0000001', 'lower case (the caller puts it in capitals)'],
    ['', 'nothing'],
  ])('%s is not one (%s)', (ifsc) => {
    expect(ifscDirectory.bankOf(ifsc)).toBeUndefined();
  });

  it('reads the list once, at the first look-up, and names a bank the list lists without a name by its code', () => {
    let loads = 0;
    const data: IfscData = {
      branches: { ADBK: [1, 'X00001'] },
      bankNames: {},
      sublets: {},
      customSublets: {},
    };
    const directory = createIfscDirectory(() => {
      loads++;
      return data;
    });
    expect(loads).toBe(0);
    expect(directory.bankOf('ADBK0000001')).toEqual({ ifsc: 'ADBK0000001', name: 'ADBK' });
    expect(directory.bankOf('ADBK0X00001')).toEqual({ ifsc: 'ADBK0X00001', name: 'ADBK' });
    expect(directory.bankOf('ADBK0000002')).toBeUndefined();
    // Not a code's form: answered without the list.
    expect(directory.bankOf('ADBK')).toBeUndefined();
    expect(loads).toBe(1);
  });
});
