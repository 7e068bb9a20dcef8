import { describe, expect, it } from 'vitest';
import { type Machine, replacedByReread } from './status-change.js';
import { foldEvents, type ShipmentState, type StoredEvent } from './status-machine.js';

const t = (minute: number) => new Date(Date.UTC(2026, 10, 21, 6, minute));
type Row = StoredEvent & { location: string | null; eventId: string | null };
const row = (id: string, status: StoredEvent['status'], minute: number, subStatus: string | null = null): Row => ({
  id,
  status,
  subStatus,
  eventTime: t(minute),
  receivedAt: t(minute),
  ndrReason: null,
  rtoReason: null,
  location: null,
  eventId: `dlv:${id}`,
});
const SHIPMENT: Machine<Row, ShipmentState> = { kind: 'shipment', fold: foldEvents, extra: () => ({}) };

// A parcel on its way back (RTO started at 20): Delhivery's RT scan with a forward code was once
// read as out_for_delivery, which the machine never applied after the RTO began.
const history = [
  row('pickup', 'in_transit', 0, 'picked_up'),
  row('rto', 'rto_initiated', 20, 'rto_initiated'),
  row('rt-ofd', 'out_for_delivery', 30, 'out_for_delivery'),
];

describe('replacedByReread: which recorded scans a replay’s new reading replaces', () => {
  it.each([
    [
      'a scan never applied that reads differently now',
      { status: 'rto_in_transit', subStatus: 'rto_out_for_delivery', eventTime: t(30), eventId: 'dlv:rt-ofd' },
      ['rt-ofd'],
    ],
    [
      'a scan never applied that reads the same',
      { status: 'out_for_delivery', subStatus: 'out_for_delivery', eventTime: t(30), eventId: 'dlv:rt-ofd' },
      [],
    ],
    [
      'a scan the machine applied: history stays, whatever the table says now',
      { status: 'in_transit', subStatus: 'reached_origin_hub', eventTime: t(0), eventId: 'dlv:pickup' },
      [],
    ],
    [
      'a scan with an id no recorded scan has',
      { status: 'rto_in_transit', subStatus: null, eventTime: t(40), eventId: 'dlv:new' },
      [],
    ],
    ['a scan without an id', { status: 'rto_in_transit', subStatus: null, eventTime: t(30), eventId: null }, []],
  ])('%s', (_name, reread, replaced) => {
    expect(replacedByReread(SHIPMENT, history, [reread])).toEqual(replaced);
  });
});
