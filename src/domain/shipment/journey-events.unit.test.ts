import { describe, expect, it } from 'vitest';
import { foldReturnEvents, type ReturnState, type StoredReturnEvent } from './return-status-machine.js';
import { journeyEvents, type Machine } from './status-change.js';
import { foldEvents, type ShipmentState, type ShipmentStatus, type StoredEvent } from './status-machine.js';

const t = (minute: number) => new Date(Date.UTC(2026, 10, 20, 6, minute));
type Scan = StoredEvent & { location: string | null };
const scan = (
  id: string,
  status: ShipmentStatus,
  subStatus: string | null,
  minute: number,
  extra: Partial<Scan> = {},
): Scan => ({
  id,
  status,
  subStatus,
  eventTime: t(minute),
  receivedAt: t(minute),
  ndrReason: null,
  rtoReason: null,
  location: `at ${id}`,
  ...extra,
});

const SHIPMENT: Machine<Scan, ShipmentState> = {
  kind: 'shipment',
  fold: foldEvents,
  extra: (s) => ({ attempt_count: s.attemptCount, ndr_reason: s.ndrReason }),
};

/** Records `batch` on top of `earlier` and answers the events raised, briefly. */
function raise(earlier: Scan[], batch: Scan[]) {
  const history = [...earlier, ...batch];
  const stored = foldEvents(earlier);
  const raised = journeyEvents(
    SHIPMENT,
    { status: stored.status, subStatus: stored.subStatus },
    history,
    new Set(batch.map((e) => e.id)),
    foldEvents(history),
  );
  return raised.map(({ type, change }) =>
    type.endsWith('tracking_added')
      ? `${type} ${(change.tracking as { id: string }).id} -> ${change.status}`
      : `${type} ${change.from}->${change.to}/${change.sub_status} @${change.location} #${change.attempt_count}`,
  );
}

describe('journeyEvents: every status a batch passes through', () => {
  it('a batch of four scans is three moves and a sub-status move, each with its own scan, in time order whatever the batch order', () => {
    const batch = [
      scan('d', 'delivered', 'delivered', 40),
      scan('a', 'in_transit', 'picked_up', 10),
      scan('c', 'out_for_delivery', 'out_for_delivery', 30),
      scan('b', 'in_transit', 'reached_destination_hub', 20),
    ];
    expect(raise([], batch)).toEqual([
      'shipment.status_changed pending->in_transit/picked_up @at a #0',
      'shipment.tracking_added a -> in_transit',
      'shipment.status_changed in_transit->in_transit/reached_destination_hub @at b #0',
      'shipment.tracking_added b -> in_transit',
      'shipment.status_changed in_transit->out_for_delivery/out_for_delivery @at c #0',
      'shipment.tracking_added c -> out_for_delivery',
      'shipment.status_changed out_for_delivery->delivered/delivered @at d #1',
      'shipment.delivered out_for_delivery->delivered/delivered @at d #1',
      'shipment.tracking_added d -> delivered',
    ]);
  });

  it('a failed attempt and a new one in one batch: the NDR is heard, with the count as it stood then', () => {
    const earlier = [scan('a', 'in_transit', 'picked_up', 10), scan('b', 'out_for_delivery', 'out_for_delivery', 20)];
    const batch = [
      scan('c', 'ndr_raised', 'customer_unavailable', 30, { ndrReason: 'customer_unavailable' }),
      scan('d', 'out_for_delivery', 'out_for_delivery', 40),
      scan('e', 'delivered', 'delivered', 50),
    ];
    expect(raise(earlier, batch)).toEqual([
      'shipment.status_changed out_for_delivery->ndr_raised/customer_unavailable @at c #1',
      'shipment.ndr_raised out_for_delivery->ndr_raised/customer_unavailable @at c #1',
      'shipment.tracking_added c -> ndr_raised',
      'shipment.status_changed ndr_raised->out_for_delivery/out_for_delivery @at d #1',
      'shipment.tracking_added d -> out_for_delivery',
      'shipment.status_changed out_for_delivery->delivered/delivered @at e #2',
      'shipment.delivered out_for_delivery->delivered/delivered @at e #2',
      'shipment.tracking_added e -> delivered',
    ]);
  });

  it('a repeat of the stage and a scan the machine keeps aside are scans, not moves', () => {
    const earlier = [scan('a', 'in_transit', 'in_transit', 10), scan('b', 'delivered', 'delivered', 20)];
    expect(raise(earlier, [scan('c', 'in_transit', 'in_transit', 30)])).toEqual([
      'shipment.tracking_added c -> delivered',
    ]);
    expect(raise([scan('a', 'in_transit', 'in_transit', 10)], [scan('b', 'in_transit', 'in_transit', 20)])).toEqual([
      'shipment.tracking_added b -> in_transit',
    ]);
  });

  it('a late scan that rewrites the past raises one change to where the parcel is now, not the journey again', () => {
    // Delivered at 40 after an NDR at 30; a delivery scan dated 25 arrives late: the NDR no longer applies.
    const earlier = [
      scan('a', 'in_transit', 'in_transit', 10),
      scan('b', 'ndr_raised', 'refused', 30, { ndrReason: 'refused' }),
    ];
    expect(raise(earlier, [scan('c', 'delivered', 'delivered', 25)])).toEqual([
      'shipment.status_changed ndr_raised->delivered/delivered @at c #1',
      'shipment.delivered ndr_raised->delivered/delivered @at c #1',
      'shipment.tracking_added c -> delivered',
    ]);
  });

  it("a return's QC result follows the move it came with, once", () => {
    type ReturnScan = StoredReturnEvent & { location: string | null };
    const machine: Machine<ReturnScan, ReturnState> = {
      kind: 'return',
      fold: (events) => foldReturnEvents(events),
      extra: (s) => ({ qc_status: s.qcStatus }),
      also: (previous, state) =>
        state.qcStatus !== previous.qcStatus
          ? [{ type: 'return.qc_updated', change: { qc_status: state.qcStatus } }]
          : [],
    };
    const r = (
      id: string,
      status: ReturnScan['status'],
      minute: number,
      qcStatus: ReturnScan['qcStatus'] = null,
    ): ReturnScan => ({
      id,
      status,
      subStatus: null,
      eventTime: t(minute),
      receivedAt: t(minute),
      qcStatus,
      qcReason: null,
      location: null,
    });
    const history = [r('a', 'return_picked_up', 10, 'passed'), r('b', 'return_in_transit', 20)];
    const raised = journeyEvents(
      machine,
      { status: 'return_pickup_scheduled', subStatus: null },
      history,
      new Set(['a', 'b']),
      foldReturnEvents(history),
    );
    expect(raised.map((e) => e.type)).toEqual([
      'return.status_changed',
      'return.qc_updated',
      'return.tracking_added',
      'return.status_changed',
      'return.tracking_added',
    ]);
  });
});
