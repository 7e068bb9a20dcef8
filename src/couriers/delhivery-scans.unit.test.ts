import { describe, expect, it } from 'vitest';
import {
  BY_SCAN_WORD,
  BY_STATUS_CODE,
  DELHIVERY_SCAN_TABLE_VERSION,
  mapScan,
  mapShipmentScans,
  scanTime,
} from './delhivery-scans.js';

describe(`Delhivery scan table ${DELHIVERY_SCAN_TABLE_VERSION}`, () => {
  // Every code the table lists, with what it must mean; a code added to the table without a row here fails.
  const CODES: [string, string, string, string | undefined][] = [
    ['X-UCI', 'pending', 'pickup_scheduled', undefined],
    ['FMPUR-101', 'pending', 'pickup_scheduled', undefined],
    ['FMEOD-118', 'pending', 'pickup_failed', undefined],
    ['X-PPOM', 'in_transit', 'picked_up', undefined],
    ['X-PIOM', 'in_transit', 'reached_origin_hub', undefined],
    ['X-DLL2F', 'in_transit', 'departed_origin_hub', undefined],
    ['X-ILL1F', 'in_transit', 'reached_destination_hub', undefined],
    ['X-DDD3FD', 'out_for_delivery', 'out_for_delivery', undefined],
    ['EOD-38', 'delivered', 'delivered', undefined],
    ['EOD-11', 'ndr_raised', 'customer_unavailable', 'customer_unavailable'],
    ['EOD-86', 'ndr_raised', 'customer_unavailable', 'customer_unavailable'],
    ['EOD-74', 'ndr_raised', 'contact_unreachable', 'contact_unreachable'],
    ['EOD-15', 'ndr_raised', 'address_incomplete', 'address_incomplete'],
    ['EOD-43', 'ndr_raised', 'address_incomplete', 'address_incomplete'],
    ['EOD-104', 'ndr_raised', 'premises_closed', 'premises_closed'],
    ['EOD-6', 'ndr_raised', 'refused', 'refused'],
    ['EOD-69', 'ndr_raised', 'refused', 'refused'],
    ['EOD-3', 'ndr_raised', 'future_delivery_requested', 'future_delivery_requested'],
    ['RT-101', 'rto_initiated', 'rto_initiated', undefined],
    ['RT-113', 'rto_initiated', 'rto_initiated', undefined],
    ['DLYLH-151', 'others', 'lost', undefined],
    ['DLYDC-132', 'others', 'damaged', undefined],
  ];
  it('has a case for every code', () =>
    expect(CODES.map(([code]) => code).sort()).toEqual(Object.keys(BY_STATUS_CODE).sort()));
  it.each(CODES)('StatusCode %s is %s / %s', (code, status, subStatus, ndrReason) => {
    const mapped = mapScan({ StatusCode: code, ScanType: 'UD', Scan: 'Whatever' });
    expect(mapped).toMatchObject({ status, sub_status: subStatus });
    expect(mapped?.ndr_reason).toBe(ndrReason);
  });

  const WORDS: [string, string, string, string][] = [
    ['UD', 'Manifested', 'pending', 'pickup_scheduled'],
    ['UD', 'Not Picked', 'pending', 'pickup_failed'],
    ['UD', 'In Transit', 'in_transit', 'in_transit'],
    ['UD', 'Pending', 'in_transit', 'reached_destination_hub'],
    ['UD', 'Dispatched', 'out_for_delivery', 'out_for_delivery'],
    ['UD', 'LOST', 'others', 'lost'],
    ['DL', 'Delivered', 'delivered', 'delivered'],
    ['RT', 'In Transit', 'rto_in_transit', 'rto_in_transit'],
    ['RT', 'Pending', 'rto_in_transit', 'rto_reached_origin_hub'],
    ['RT', 'Dispatched', 'rto_in_transit', 'rto_out_for_delivery'],
    ['DL', 'RTO', 'rto_delivered', 'rto_delivered'],
    ['CN', 'Canceled', 'cancelled', 'cancelled_by_courier'],
    ['CN', 'Cancelled', 'cancelled', 'cancelled_by_courier'],
  ];
  it('has a case for every word', () =>
    expect(WORDS.map(([t, w]) => `${t}|${w}`).sort()).toEqual(Object.keys(BY_SCAN_WORD).sort()));
  it.each(WORDS)('ScanType %s, Scan %s, an unknown code: %s / %s', (type, word, status, subStatus) => {
    expect(mapScan({ StatusCode: 'ZZ-1', ScanType: type, Scan: word })).toEqual({ status, sub_status: subStatus });
  });

  it('knows nothing of an unknown type and word', () =>
    expect(mapScan({ StatusCode: 'ZZ-1', ScanType: 'XX', Scan: 'Odd' })).toBeUndefined());

  it.each([
    ['2026-11-20T14:31:48.752', '2026-11-20T14:31:48.752+05:30'],
    ['2026-11-20T14:31', '2026-11-20T14:31+05:30'],
    ['2026-11-20T09:01:48Z', '2026-11-20T09:01:48Z'],
    ['yesterday', undefined],
    [null, undefined],
  ])('reads the time %s as %s', (raw, expected) => expect(scanTime(raw)).toBe(expected));

  it('orders a shipment’s scans, keeps unreadable ones unread with why, and starts the RTO at the first return scan', () => {
    const odd = { ScanType: 'UD', Scan: 'Odd', StatusCode: 'ZZ-9', ScanDateTime: '2026-11-20T13:00:00' };
    const untimed = { ScanType: 'UD', Scan: 'In Transit', StatusCode: 'X-PIOM', ScanDateTime: 'not a time' };
    const { events, unread } = mapShipmentScans('1490000000001', [
      {
        ScanType: 'RT',
        Scan: 'In Transit',
        StatusCode: 'RT-102',
        ScanDateTime: '2026-11-21T10:00:00',
        ScannedLocation: 'Mumbai_Andheri_DC (Maharashtra)',
      },
      {
        ScanType: 'UD',
        Scan: 'In Transit',
        StatusCode: 'X-PPOM',
        ScanDateTime: '2026-11-20T12:10:00',
        Instructions: 'Shipment picked up',
      },
      odd,
      untimed,
    ]);
    expect(unread).toEqual([
      { raw: odd, reason: "no status for StatusCode 'ZZ-9', ScanType 'UD', Scan 'Odd'" },
      { raw: untimed, reason: "ScanDateTime 'not a time' is not a time" },
    ]);
    expect(events.map(({ raw: _raw, ...event }) => event)).toEqual([
      {
        awb: '1490000000001',
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T12:10:00+05:30',
        description: 'Shipment picked up',
        event_id: 'dlv:X-PPOM:2026-11-20T12:10:00',
      },
      {
        awb: '1490000000001',
        status: 'rto_initiated',
        sub_status: 'rto_initiated',
        event_time: '2026-11-21T04:29:59.999Z',
        location: 'Mumbai_Andheri_DC (Maharashtra)',
        description: 'Return to origin started',
        event_id: 'dlv:rto-start:dlv:RT-102:2026-11-21T10:00:00',
      },
      {
        awb: '1490000000001',
        status: 'rto_in_transit',
        sub_status: 'rto_in_transit',
        event_time: '2026-11-21T10:00:00+05:30',
        location: 'Mumbai_Andheri_DC (Maharashtra)',
        event_id: 'dlv:RT-102:2026-11-21T10:00:00',
      },
    ]);
  });
});
