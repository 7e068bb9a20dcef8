import { describe, expect, it } from 'vitest';
import { foldEvents, type ShipmentStatus } from '../domain/shipment/status-machine.js';
import type { ReadScan } from './carrier-event.js';
import { mapShipmentScans } from './delhivery-scans.js';
import cancelled from './fixtures/delhivery/s1-captures.json' with { type: 'json' };
import codes from './fixtures/delhivery/codes.json' with { type: 'json' };
import delivered from './fixtures/delhivery/s7-delivered.json' with { type: 'json' };
import inTransit from './fixtures/delhivery/s7-in-transit.json' with { type: 'json' };

// Whole histories as Delhivery answered them (fixtures/delhivery/*.json cite each), through the
// table and through the status machine.

const details = (scans: { ScanDetail: Record<string, unknown> }[]) => scans.map((s) => s.ScanDetail);
const steps = (events: ReadScan[]) => events.map((e) => [e.status, e.sub_status, e.ndr_reason, e.rto_reason]);
const fold = (events: ReadScan[]) =>
  foldEvents(
    events.map((e) => ({
      id: e.event_id!,
      status: e.status as ShipmentStatus,
      subStatus: e.sub_status ?? null,
      eventTime: new Date(e.event_time),
      ndrReason: e.ndr_reason ?? null,
      rtoReason: e.rto_reason ?? null,
      receivedAt: new Date(e.event_time),
    })),
  );

describe('Delhivery histories other teams captured', () => {
  it('a parcel in transit (source 7): each scan read, none kept unread', () => {
    const { events, unread } = mapShipmentScans(inTransit.AWB, details(inTransit.Scans));
    expect(unread).toEqual([]);
    expect(steps(events)).toEqual([
      ['pending', 'pickup_scheduled', undefined, undefined],
      ['pending', 'pickup_scheduled', undefined, undefined],
      ['in_transit', 'picked_up', undefined, undefined],
      ['in_transit', 'in_transit', undefined, undefined], // S-MAR: Move by surface
      ['in_transit', 'reached_origin_hub', undefined, undefined],
      ['in_transit', 'in_transit', undefined, undefined], // X-DBL1F: Added to Bag
      ['in_transit', 'departed_origin_hub', undefined, undefined],
      ['in_transit', 'in_transit', undefined, undefined], // X-ILL2F: Trip Arrived
      ['in_transit', 'reached_destination_hub', undefined, undefined],
    ]);
    expect(events[0]).toEqual({
      awb: '26805710004126',
      status: 'pending',
      sub_status: 'pickup_scheduled',
      event_time: '2024-09-21T14:31:48.752+05:30',
      location: 'Amritsar_VerkaBypss_I (Punjab)',
      description: 'Manifest uploaded',
      event_id: 'dlv:X-UCI:2024-09-21T14:31:48.752',
      raw: inTransit.Scans[0]!.ScanDetail,
    });
    expect(fold(events)).toMatchObject({ status: 'in_transit', subStatus: 'reached_destination_hub' });
  });

  it('a failed attempt then a delivery (source 7): "Pending" at a facility is an arrival, EOD-11 an NDR', () => {
    const { events, unread } = mapShipmentScans(delivered.AWB, details(delivered.Scans));
    expect(unread).toEqual([]);
    const tail = steps(events).slice(-5);
    expect(tail).toEqual([
      ['in_transit', 'reached_destination_hub', undefined, undefined], // X-IBD3F, Scan "Pending"
      ['out_for_delivery', 'out_for_delivery', undefined, undefined],
      ['out_for_delivery', 'out_for_delivery', undefined, undefined], // ST-114: Call placed to consignee
      ['ndr_raised', 'customer_unavailable', 'customer_unavailable', undefined],
      ['delivered', 'delivered', undefined, undefined],
    ]);
    const state = fold(events);
    expect(state).toMatchObject({ status: 'delivered', attemptCount: 2, ndrReason: 'customer_unavailable' });
    expect(state.milestones.map((m) => m.milestone)).toEqual([
      'pending',
      'picked_up',
      'out_for_delivery',
      'ndr_raised',
      'delivered',
    ]);
  });

  it('a cancellation before pickup (source 1, capture 10): "Not Picked", then DTUP-210 cancels', () => {
    const { events, unread } = mapShipmentScans(
      cancelled.trackAfterCancel.AWB,
      details(cancelled.trackAfterCancel.Scans),
    );
    expect(unread).toEqual([]);
    expect(steps(events)).toEqual([
      ['pending', 'pickup_scheduled', undefined, undefined],
      ['pending', 'pickup_failed', undefined, undefined],
      ['cancelled', 'cancelled_by_merchant', undefined, undefined],
    ]);
    expect(fold(events)).toMatchObject({ status: 'cancelled', subStatus: 'cancelled_by_merchant' });
  });

  it('a return to origin told only by forward codes under RT (sources 2 and 3): the RTO starts at the first', () => {
    // The way there (source 7) and back: the RT rows codes.json holds, stamped an hour apart.
    const rt = (codes.forward as string[][]).filter(([type, , code]) =>
      ['RT|X-DLL2F', 'RT|X-OLL4F', 'RT|X-ILL1F', 'RT|X-DRD1R', 'DL|RT-110'].includes(`${type}|${code}`),
    );
    const back = rt.map(([ScanType, Scan, StatusCode, Instructions], i) => ({
      ScanType,
      Scan,
      StatusCode,
      Instructions,
      ScanDateTime: `2024-09-23T1${i}:00:00`,
      ScannedLocation: 'Jalandhar_QajiMandi_P (Punjab)',
    }));
    const { events, unread } = mapShipmentScans(inTransit.AWB, [...details(inTransit.Scans), ...back]);
    expect(unread).toEqual([]);
    expect(steps(events).slice(-6)).toEqual([
      ['rto_initiated', 'rto_initiated', undefined, undefined],
      ['rto_in_transit', 'rto_in_transit', undefined, undefined],
      ['rto_in_transit', 'rto_in_transit', undefined, undefined],
      ['rto_in_transit', 'rto_in_transit', undefined, undefined],
      ['rto_in_transit', 'rto_out_for_delivery', undefined, undefined],
      ['rto_delivered', 'rto_delivered', undefined, undefined],
    ]);
    expect(events.at(-6)).toMatchObject({
      event_time: '2024-09-23T04:29:59.999Z',
      description: 'Return to origin started',
      event_id: 'dlv:rto-start:dlv:X-DLL2F:2024-09-23T10:00:00',
    });
    const state = fold(events);
    expect(state.status).toBe('rto_delivered');
    expect(state.milestones.map((m) => m.milestone)).toEqual([
      'pending',
      'picked_up',
      'rto_initiated',
      'rto_in_transit',
      'rto_delivered',
    ]);
  });
});
