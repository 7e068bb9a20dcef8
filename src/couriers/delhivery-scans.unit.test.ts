import { describe, expect, it } from 'vitest';
import codes from './fixtures/delhivery/codes.json' with { type: 'json' };
import type { Mapped } from './delhivery-codes.js';
import { DELHIVERY_SCAN_TABLE_VERSION, mapScan, readReturnScan, scanTime } from './delhivery-scans.js';

type Row = [type: string, word: string, code: string, remark: string, where: string];
const scanOf = ([ScanType, Scan, StatusCode, Instructions]: Row) => ({
  ScanType,
  Scan,
  StatusCode,
  Instructions,
  ScanDateTime: '2026-11-20T14:31:48.752',
});

const ndr = (reason?: string): Mapped =>
  reason ? { status: 'ndr_raised', sub_status: reason, ndr_reason: reason } : { status: 'ndr_raised' };
const pending = (sub_status: string): Mapped => ({ status: 'pending', sub_status });
const moving = (sub_status: string): Mapped => ({ status: 'in_transit', sub_status });
const rtoStart = (rto_reason?: string): Mapped => ({
  status: 'rto_initiated',
  sub_status: 'rto_initiated',
  ...(rto_reason && { rto_reason }),
});
const back = (sub_status: string): Mapped => ({ status: 'rto_in_transit', sub_status });

/**
 * What each real row (fixtures/delhivery/codes.json) means, from its remark: failed attempts are
 * NDRs with the reason the remark names (none where SPEC has no such reason: 'other' is not in
 * its vocabulary), facility scans are transit, RT scans are the way back whatever their code.
 */
const FORWARD: Record<string, Mapped> = {
  'UD|Manifested|X-UCI': pending('pickup_scheduled'),
  'UD|Manifested|FMPUR-101': pending('pickup_scheduled'),
  'UD|Not Picked|X-PNP': pending('pickup_failed'),
  'UD|Not Picked|DTUP-210': { status: 'cancelled', sub_status: 'cancelled_by_merchant' },
  'UD|Manifested|FMEOD-118': pending('pickup_failed'),
  'UD|In Transit|X-PPOM': moving('picked_up'),
  'UD|In Transit|X-PIOM': moving('reached_origin_hub'),
  'UD|In Transit|X-DLL2F': moving('departed_origin_hub'),
  'UD|In Transit|X-ILL1F': moving('reached_destination_hub'),
  'UD|Dispatched|X-DDD3FD': { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  'UD|Dispatched|ST-114': { status: 'out_for_delivery', sub_status: 'out_for_delivery' },
  'UD|In Transit|DLYLH-151': moving('in_transit'),
  'UD|Pending|X-IBD3F': moving('reached_destination_hub'),
  ...Object.fromEntries(
    [
      'ST-105',
      'ST-107',
      'ST-110',
      'ST-115',
      'ST-116',
      'L-PMA',
      'U-PMA',
      'X-UNEX',
      'X-AWD',
      'X-RWD',
      'DTUP-205',
      'DTUP-207',
      'DTUP-209',
      'DLYRG-130',
      'DLYB2B-101',
      'DLYHD-007',
      'DLYDC-102',
      'DLYDC-105',
    ].map((code) => [`UD|Pending|${code}`, moving('in_transit')]),
  ),
  'UD|Pending|EOD-11': ndr('customer_unavailable'),
  'UD|Pending|EOD-86': ndr('other'),
  'UD|Pending|EOD-74': ndr('address_incomplete'),
  'UD|Pending|EOD-15': ndr('address_incomplete'),
  'UD|Pending|EOD-43': ndr('future_delivery_requested'),
  'UD|Pending|EOD-104': ndr('premises_closed'),
  'UD|Pending|EOD-6': ndr('refused'),
  'UD|Pending|EOD-6O': ndr('refused'),
  'UD|Pending|EOD-6I': ndr('refused'),
  'UD|Pending|EOD-69': ndr('refused'),
  'UD|Pending|EOD-111': ndr('refused'),
  'UD|Pending|EOD-3': ndr('future_delivery_requested'),
  'UD|Pending|DLYDC-110': ndr('future_delivery_requested'),
  'UD|Pending|EOD-16': ndr('cod_not_ready'),
  'UD|Pending|EOD-40': ndr('cod_not_ready'),
  'UD|Pending|EOD-134': ndr('cod_not_ready'),
  'UD|Pending|EOD-133': ndr('cod_not_ready'),
  'UD|Pending|EOD-137': ndr('contact_unreachable'),
  'UD|Pending|EOD-138': ndr('contact_unreachable'),
  'UD|Pending|DLYDC-107': ndr('premises_closed'),
  'UD|Pending|SC-104': ndr('address_incomplete'),
  'UD|Pending|SC-103': ndr('future_delivery_requested'),
  'UD|Pending|SC-102': ndr('other'),
  'UD|Pending|SC-106': ndr('other'),
  'UD|Pending|X-SC': ndr('other'),
  'UD|Pending|DLYDC-132': ndr('other'),
  'UD|Pending|EOD-105': ndr('other'),
  'UD|Pending|EOD-146': ndr('other'),
  'UD|Pending|ST-108': ndr('other'),
  'UD|Pending|ST-NI': ndr('other'),
  'RT|In Transit|RT-101': rtoStart('merchant_requested'),
  'RT|In Transit|RT-113': rtoStart(),
  'RT|In Transit|RT-107': rtoStart('max_attempts_exceeded'),
  'RT|In Transit|RT-108': rtoStart(),
  'RT|In Transit|RT-109': rtoStart(),
  'RT|In Transit|RT-106': rtoStart(),
  'RT|In Transit|ST-108': rtoStart('max_attempts_exceeded'),
  'RT|In Transit|EOD-6O': rtoStart('customer_refused'),
  'RT|In Transit|EOD-6I': rtoStart('customer_refused'),
  'RT|In Transit|X-DLL2F': back('rto_in_transit'),
  'RT|In Transit|X-ILL2F': back('rto_in_transit'),
  'RT|In Transit|X-ILL1F': back('rto_in_transit'),
  'RT|In Transit|X-PIOM': back('rto_in_transit'),
  'RT|In Transit|X-PROM': back('rto_in_transit'),
  'RT|In Transit|X-OLL2F': back('rto_in_transit'),
  'RT|In Transit|X-OLL4F': back('rto_in_transit'),
  'RT|In Transit|X-DBL1F': back('rto_in_transit'),
  'RT|In Transit|X-DDD3FD': back('rto_out_for_delivery'),
  'RT|Dispatched|X-DDD3FD': back('rto_out_for_delivery'),
  'RT|Dispatched|X-DRD1R': back('rto_out_for_delivery'),
  'RT|In Transit|X-DLL2R': back('rto_in_transit'),
  'RT|Pending|X-IBD1R': back('rto_reached_origin_hub'),
  'RT|Pending|RD-PD4': back('rto_reached_origin_hub'),
  'RT|In Transit|DLYDC-132': back('rto_in_transit'),
  'DL|Delivered|EOD-38': { status: 'delivered', sub_status: 'delivered' },
  'DL|Delivered|EOD-135': { status: 'delivered', sub_status: 'delivered' },
  'DL|Delivered|SC-101': { status: 'delivered', sub_status: 'delivered' },
  'DL|RTO|RT-110': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  'DL|RTO|RD-AC1': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  'DL|RTO|RD-AC': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  'DL|RTO|CL-109': { status: 'rto_delivered', sub_status: 'rto_delivered' },
  'LT|LOST|LT-100': { status: 'others', sub_status: 'lost' },
  'LT|Lost|': { status: 'others', sub_status: 'lost' },
};

const qcFailed = (qc_reason: string) => ({
  status: 'return_cancelled',
  sub_status: 'qc_failed',
  qc_status: 'failed',
  qc_reason,
});
const RETURN: Record<string, Record<string, string>> = {
  'PP|Open|X-UCO': { status: 'return_pickup_scheduled' },
  'PP|Open|X-UCI': { status: 'return_pickup_scheduled' },
  'PP|Scheduled|X-ASP': { status: 'return_pickup_scheduled' },
  'PP|Scheduled|CL-101': { status: 'return_pickup_scheduled' },
  'PP|Dispatched|X-DDD3FP': { status: 'return_pickup_scheduled' },
  'PP|Dispatched|X-DDD4FR': { status: 'return_pickup_scheduled' },
  'PP|Dispatched|X-LM1P': { status: 'return_pickup_scheduled' },
  ...Object.fromEntries(
    ['EOD-73', 'EOD-65', 'EOD-121', 'EOD-26', 'DLYDC-107', 'DLYDC-101'].map((code) => [
      `PP|Scheduled|${code}`,
      { status: 'return_pickup_scheduled', sub_status: 'return_pickup_failed' },
    ]),
  ),
  'PP|Scheduled|EOD-68': { status: 'return_pickup_scheduled', sub_status: 'return_pickup_rescheduled' },
  'PP|Canceled|CL-102': { status: 'return_cancelled', sub_status: 'return_cancelled_by_merchant' },
  'PP|Closed|CL-103': { status: 'return_cancelled', sub_status: 'return_cancelled_by_merchant' },
  ...Object.fromEntries(
    ['EOD-21', 'EOD-106', 'ST-109', 'ST-112'].map((code) => [
      `CN|Canceled|${code}`,
      { status: 'return_cancelled', sub_status: 'return_cancelled_by_courier' },
    ]),
  ),
  'CN|Canceled|EOD-84': qcFailed('Product description mismatch'),
  'CN|Canceled|EOD-95': qcFailed('Damaged/Used product'),
  'CN|Canceled|EOD-108': qcFailed('Product count mismatch'),
  'CN|Canceled|EOD-131': qcFailed('Brand Mismatch'),
  'CN|Canceled|EOD-132': qcFailed('Colour Mismatch'),
  'PU|In Transit|EOD-77': { status: 'return_picked_up', sub_status: 'return_picked_up' },
  'PU|In Transit|X-PRC': { status: 'return_in_transit', sub_status: 'return_reached_hub' },
  'PU|In Transit|X-DLL2R': { status: 'return_in_transit', sub_status: 'return_in_transit' },
  'PU|In Transit|X-ILL1R': { status: 'return_in_transit', sub_status: 'return_reached_hub' },
  'PU|In Transit|DLYLH-109': { status: 'return_in_transit', sub_status: 'return_in_transit' },
  'PU|Pending|X-IBD3R': { status: 'return_in_transit', sub_status: 'return_reached_hub' },
  'PU|Pending|RD-PD4': { status: 'return_in_transit', sub_status: 'return_reached_hub' },
  'PU|Dispatched|X-DRD1R': { status: 'return_in_transit', sub_status: 'return_out_for_delivery' },
  'PU|Dispatched|EOD-140': { status: 'return_in_transit', sub_status: 'return_in_transit' },
  'DL|DTO|RD-AC': { status: 'return_delivered', sub_status: 'return_delivered' },
  'DL|DTO|RT-111': { status: 'return_delivered', sub_status: 'return_delivered' },
  'DTO|Delivered|RD-AC': { status: 'return_delivered', sub_status: 'return_delivered' },
  'LT|LOST|LT-100': { status: 'return_lost', sub_status: 'return_lost' },
};

const key = ([type, word, code]: Row) => `${type}|${word}|${code}`;
const forward = codes.forward as Row[];
const returns = codes.return as Row[];

describe(`Delhivery scan table ${DELHIVERY_SCAN_TABLE_VERSION}, held against the codes other teams saw`, () => {
  it('has a meaning for every real forward and return row, and no meaning without a row', () => {
    expect(forward.map(key).sort()).toEqual(Object.keys(FORWARD).sort());
    expect(returns.map(key).sort()).toEqual(Object.keys(RETURN).sort());
  });

  it.each(forward)('forward: ScanType %s, Scan %s, StatusCode %s (%s)', (...row) => {
    expect(mapScan(scanOf(row as Row))).toEqual(FORWARD[key(row as Row)]);
  });

  it.each(returns)('return: ScanType %s, Scan %s, StatusCode %s (%s)', (...row) => {
    const read = readReturnScan('1490000000001', scanOf(row as Row));
    const { status, sub_status, qc_status, qc_reason } = read as Record<string, string>;
    const expected = RETURN[key(row as Row)]!;
    // A QC failure is named in Delhivery's own words: the scan's Instructions (the remark here).
    expect({ status, sub_status, qc_status, qc_reason }).toEqual({
      status: expected.status,
      sub_status: expected.sub_status,
      qc_status: expected.qc_status,
      qc_reason: expected.qc_reason,
    });
  });
});

describe('Delhivery scan table: what no source lists', () => {
  it.each([
    // A failed attempt under a code no source lists is an NDR, never a hub arrival.
    ['UD', 'Pending', 'EOD-999', ndr('other')],
    ['UD', 'In Transit', 'X-ZZZ', moving('in_transit')],
    ['UD', 'Dispatched', 'X-ZZZ', { status: 'out_for_delivery', sub_status: 'out_for_delivery' }],
    ['UD', 'Manifested', 'X-ZZZ', pending('pickup_scheduled')],
    ['UD', 'LOST', 'X-ZZZ', { status: 'others', sub_status: 'lost' }],
    // Any RT scan is the way back, under any word.
    ['RT', 'In Transit', 'X-ZZZ', back('rto_in_transit')],
    ['RT', 'Pending', 'X-ZZZ', back('rto_reached_origin_hub')],
    ['RT', 'Dispatched', 'X-ZZZ', back('rto_out_for_delivery')],
    ['RT', 'Odd', 'X-ZZZ', back('rto_in_transit')],
    ['CN', 'Canceled', 'X-ZZZ', { status: 'cancelled', sub_status: 'cancelled_by_courier' }],
    ['CN', 'Cancelled', 'X-ZZZ', { status: 'cancelled', sub_status: 'cancelled_by_courier' }],
    // Words in any case, codes in any case.
    ['ud', 'IN TRANSIT', 'x-ppom', moving('picked_up')],
    ['UD', 'pending', 'eod-6o', ndr('refused')],
  ] as const)('ScanType %s, Scan %s, StatusCode %s', (ScanType, Scan, StatusCode, expected) => {
    expect(mapScan({ ScanType, Scan, StatusCode })).toEqual(expected);
  });

  it.each([
    ['XX', 'Odd', 'ZZ-1'],
    ['DL', 'DTO', 'RD-AC'], // a reverse pickup's delivery on a forward parcel
    ['PU', 'In Transit', 'EOD-77'],
    ['UD', 'Odd', 'ZZ-1'],
  ])('reads nothing from ScanType %s, Scan %s, StatusCode %s on a forward parcel', (ScanType, Scan, StatusCode) =>
    expect(mapScan({ ScanType, Scan, StatusCode })).toBeUndefined(),
  );

  it('reads a return’s UD scan through the forward table, and keeps what has no return meaning unread', () => {
    const at = { ScanDateTime: '2026-11-20T14:31:48', ScannedLocation: 'Mumbai_Andheri_DC (Maharashtra)' };
    expect(readReturnScan('R1', { ...at, ScanType: 'UD', Scan: 'Manifested', StatusCode: 'X-UCI' })).toEqual({
      awb: 'R1',
      status: 'return_pickup_scheduled',
      event_time: '2026-11-20T14:31:48+05:30',
      location: 'Mumbai_Andheri_DC (Maharashtra)',
      event_id: 'dlv:X-UCI:2026-11-20T14:31:48',
    });
    expect(readReturnScan('R1', { ...at, ScanType: 'RT', Scan: 'In Transit', StatusCode: 'X-DLL2F' })).toEqual({
      unread: "rto_in_transit is a forward parcel's return to origin: it has no meaning on a return",
    });
    expect(readReturnScan('R1', { ...at, ScanType: 'PU', Scan: 'Odd', StatusCode: 'ZZ-1' })).toEqual({
      unread: "no status for StatusCode 'ZZ-1', ScanType 'PU', Scan 'Odd'",
    });
    expect(readReturnScan('R1', { ...at, ScanType: 'CN', Scan: 'Canceled', StatusCode: 'EOD-95' })).toMatchObject({
      qc_status: 'failed',
      qc_reason: 'Damaged/Used product',
    });
  });

  it.each([
    ['2026-11-20T14:31:48.752', '2026-11-20T14:31:48.752+05:30'],
    ['2026-11-20T14:31', '2026-11-20T14:31+05:30'],
    ['2026-11-20T09:01:48Z', '2026-11-20T09:01:48Z'],
    ['yesterday', undefined],
    [null, undefined],
  ])('reads the time %s as %s', (raw, expected) => expect(scanTime(raw)).toBe(expected));
});
