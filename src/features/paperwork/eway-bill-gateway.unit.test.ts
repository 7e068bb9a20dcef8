import { describe, expect, it } from 'vitest';
import { billOf, portalTime, refusalCodes } from './eway-bill-gateway.js';

// Reading a GSP's answers (the shapes and their sources: eway-bill-gateway.ts). The HTTP tests
// send each through the simulator; these hold the edges of the portal's clock and code lists.

describe('portalTime', () => {
  it("reads the portal's 12-hour clock in India time", () => {
    expect(portalTime('11/06/2024 06:37:15 AM')).toBe('2024-06-11T06:37:15+05:30');
    expect(portalTime('25/06/2026 01:06:00 PM')).toBe('2026-06-25T13:06:00+05:30');
    expect(portalTime('26/06/2026 12:05:00 AM')).toBe('2026-06-26T00:05:00+05:30');
    expect(portalTime('26/06/2026 12:05:00 PM')).toBe('2026-06-26T12:05:00+05:30');
    expect(portalTime('2026-06-26')).toBeNull();
    expect(portalTime(null)).toBeNull();
  });
});

describe('refusalCodes', () => {
  it('reads every shape found, trailing commas and blanks aside', () => {
    expect(refusalCodes({ status_cd: '0', error: { message: '{"errorCodes":"219,702,"}' } })).toEqual(['219', '702']);
    expect(refusalCodes({ status: '0', error: Buffer.from('{"errorCodes":"116"}').toString('base64') })).toEqual([
      '116',
    ]);
    expect(refusalCodes({ status_cd: '0', error: { error_cd: '238', message: 'Invalid auth token' } })).toEqual([
      '238',
    ]);
    expect(refusalCodes({ errorCode: '344', errorDesc: 'Invalid eway bill number' })).toEqual(['344']);
    expect(refusalCodes({ status_cd: '0', status_desc: 'Something failed' })).toEqual([]);
  });
});

describe('billOf', () => {
  it('takes a 12-digit number as a JSON number or text, and nothing else', () => {
    const data = { ewayBillDate: '11/06/2024 06:37:15 AM', validUpto: null, alert: '' };
    expect(billOf({ status_cd: '1', data: { ...data, ewayBillNo: '123456789012' } })?.ewayBillNo).toBe('123456789012');
    expect(billOf({ status_cd: '1', data: { ...data, ewayBillNo: 12345 } })).toBeUndefined();
    expect(billOf({ status_cd: '0', data: { ...data, ewayBillNo: 123456789012 } })).toBeUndefined();
  });
});
