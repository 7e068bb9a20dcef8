import { describe, expect, it } from 'vitest';
import { SHIPMENT_STATUSES, SUB_STATUSES } from '../domain/shipment/status-machine.js';
import statusIds from './fixtures/shadowfax/status-ids.json' with { type: 'json' };
import captures from './fixtures/shadowfax/tracking-captures.json' with { type: 'json' };
import { BY_STATUS_ID, INFORMATIONAL, mapScan, mapTrackingDetails, scanTime } from './shadowfax-scans.js';

// Each row's reading follows Shadowfax's words for the id (fixtures/shadowfax/status-ids.json,
// from its Unified API as transcribed, index id 54543910210), not a copy of the table.
const ROWS: [string, string, string, string?][] = [
  // "A fresh shipment file has been safely registered"; riders assigned, out to collect it.
  ['new', 'pending', 'pickup_scheduled'],
  ['assigned_for_seller_pickup', 'pending', 'pickup_scheduled'],
  ['assigned_for_pickup', 'pending', 'pickup_scheduled'],
  ['ofp', 'pending', 'pickup_scheduled'],
  // The pickup did not happen: held, delayed by the seller, seller unreachable, not attempted.
  ['pickup_on_hold', 'pending', 'pickup_failed'],
  ['seller_initiated_delay', 'pending', 'pickup_failed'],
  ['seller_not_contactable', 'pending', 'pickup_failed'],
  ['pickup_not_attempted', 'pending', 'pickup_failed'],
  // "Package was collected successfully"; the warehouse model's "collection confirmed at the client warehouse".
  ['picked', 'in_transit', 'picked_up'],
  ['received_from_client_warehouse', 'in_transit', 'picked_up'],
  ['recd_at_rev_hub', 'in_transit', 'reached_origin_hub'],
  ['sent_to_fwd', 'in_transit', 'departed_origin_hub'],
  ['in_transit', 'in_transit', 'in_transit'],
  // Bagged, the bag moving between DCs or through a via DC.
  ['item_manifested', 'in_transit', 'in_transit'],
  ['bag_in_transit', 'in_transit', 'in_transit'],
  ['bag_received_at_via', 'in_transit', 'in_transit'],
  // At the destination hub or DC, then assigned to a delivery executive there.
  ['bag_received', 'in_transit', 'reached_destination_hub'],
  ['recd_at_fwd_dc', 'in_transit', 'reached_destination_hub'],
  ['recd_at_fwd_hub', 'in_transit', 'reached_destination_hub'],
  ['assigned_for_delivery', 'in_transit', 'reached_destination_hub'],
  ['item_misrouted', 'in_transit', 'misrouted'],
  ['ofd', 'out_for_delivery', 'out_for_delivery'],
  ['delivered', 'delivered', 'delivered'],
  ['nc', 'ndr_raised', 'contact_unreachable', 'contact_unreachable'],
  ['na', 'ndr_raised', 'customer_unavailable', 'customer_unavailable'],
  ['cid', 'ndr_raised', 'future_delivery_requested', 'future_delivery_requested'],
  ['cancelled_by_customer', 'ndr_raised', 'refused', 'refused'],
  // "Require Delivery As Per NDR Instructions": the re-attempt is on, the parcel waits at its hub.
  ['reopen_ndr', 'in_transit', 'reached_destination_hub'],
  // Marketplace: return to seller, through middle nodes, out to the seller, not handed over, handed over.
  ['rts', 'rto_initiated', 'rto_initiated'],
  ['rts_in_process', 'rto_in_transit', 'rto_in_transit'],
  ['rts_ofd', 'rto_in_transit', 'rto_out_for_delivery'],
  ['rts_nd', 'rto_in_transit', 'rto_in_transit'],
  ['rts_d', 'rto_delivered', 'rto_delivered'],
  // Captured v4 answers on the way back (index id 5990078441).
  ['in_transit_return', 'rto_in_transit', 'rto_in_transit'],
  ['recd_at_dc_rts', 'rto_in_transit', 'rto_in_transit'],
  ['received_at_rts_hub', 'rto_in_transit', 'rto_reached_origin_hub'],
  // Warehouse: return to origin, in process, not delivered, "Returned to Client".
  ['rto', 'rto_initiated', 'rto_initiated'],
  ['rto_in_process', 'rto_in_transit', 'rto_in_transit'],
  ['rto_nd', 'rto_in_transit', 'rto_in_transit'],
  ['rto_d', 'rto_delivered', 'rto_delivered'],
  ['cancelled_by_seller', 'cancelled', 'cancelled_by_merchant'],
  ['cancelled', 'cancelled', 'cancelled_by_courier'],
  ['on_hold', 'others', 'on_hold'],
  ['lost', 'others', 'lost'],
  ['damaged', 'others', 'damaged'],
];

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 6, 30) + minutes * 60_000).toISOString();
const chain = (...ids: string[]) => ids.map((status_id, i) => ({ status_id, status: status_id, created: at(i) }));
const statuses = (awb: string, ids: string[]) =>
  mapTrackingDetails(awb, chain(...ids)).events.map((e) => `${e.status}/${e.sub_status}`);

describe('Shadowfax status table', () => {
  it.each(ROWS)('%s is %s / %s', (statusId, status, sub, reason) => {
    expect(mapScan({ status_id: statusId })).toEqual({
      status,
      sub_status: sub,
      ...(reason && { ndr_reason: reason }),
    });
    expect(mapScan({ status_id: statusId.toUpperCase() })).toEqual(mapScan({ status_id: statusId }));
  });

  it('has a test row for every row of the table', () => {
    expect(Object.keys(BY_STATUS_ID).sort()).toEqual(ROWS.map(([id]) => id).sort());
  });

  it('reads every status_id of both documented lifecycles, and the ids clients saw in tracking', () => {
    const documented = [
      ...statusIds.marketplace.map((row) => row.status_id),
      ...statusIds.warehouse.map((row) => row.status_id),
      ...statusIds.warehouse_client.status_ids,
      ...statusIds.seen_only_in_tracking.status_ids,
    ];
    const unread = documented.filter((id) => !BY_STATUS_ID[id] && !INFORMATIONAL[id]);
    expect(unread).toEqual([]);
    // The terminal return scan is "rto_d or rts_d" (index ids 70865823288, 70971863721).
    for (const id of statusIds.terminal_return.status_ids) expect(BY_STATUS_ID[id]!.status).toBe('rto_delivered');
  });

  it('keeps a pincode update unread as informational, and an id it does not know with its name', () => {
    expect(mapTrackingDetails('SF1', chain('pincode_updated', 'rts_in_transit'))).toEqual({
      events: [],
      unread: [
        {
          raw: chain('pincode_updated')[0],
          reason: "informational: the destination pincode was updated; the parcel's status is unchanged",
        },
        {
          raw: { status_id: 'rts_in_transit', status: 'rts_in_transit', created: at(1) },
          reason: "no status for status_id 'rts_in_transit'",
        },
      ],
    });
  });

  it('maps every row to a status and a sub_status the status machine allows', () => {
    for (const mapped of Object.values(BY_STATUS_ID)) {
      expect(SHIPMENT_STATUSES).toContain(mapped.status);
      expect(SUB_STATUSES[mapped.status as keyof typeof SUB_STATUSES]).toContain(mapped.sub_status);
    }
  });

  it("takes a warehouse parcel's return to origin to its end, and a marketplace parcel's return to seller", () => {
    expect(
      statuses('SF1', [
        'new',
        'received_from_client_warehouse',
        'bag_in_transit',
        'ofd',
        'nc',
        'rto_in_process',
        'rto_nd',
        'rto_d',
      ]),
    ).toEqual([
      'pending/pickup_scheduled',
      'in_transit/picked_up',
      'in_transit/in_transit',
      'out_for_delivery/out_for_delivery',
      'ndr_raised/contact_unreachable',
      // Shadowfax reported the return only by its movement: its start is made a millisecond before.
      'rto_initiated/rto_initiated',
      'rto_in_transit/rto_in_transit',
      'rto_in_transit/rto_in_transit',
      'rto_delivered/rto_delivered',
    ]);
    expect(
      statuses('SF2', ['picked', 'ofd', 'cancelled_by_customer', 'rts', 'rts_in_process', 'rts_ofd', 'rts_d']),
    ).toEqual([
      'in_transit/picked_up',
      'out_for_delivery/out_for_delivery',
      'ndr_raised/refused',
      'rto_initiated/rto_initiated',
      'rto_in_transit/rto_in_transit',
      'rto_in_transit/rto_out_for_delivery',
      'rto_delivered/rto_delivered',
    ]);
  });

  it('reads a captured v4 answer of a delivered parcel scan by scan (index id 5990078441)', () => {
    const [shipment] = captures.bulk_track_forward.answer.data;
    const { events, unread } = mapTrackingDetails(shipment!.awb_number, shipment!.tracking_details);
    expect(unread).toEqual([]);
    expect(events.map(({ raw: _raw, ...e }) => e)).toEqual(
      [
        [
          '2024-04-05T10:29:08.000Z',
          'new',
          'pending',
          'pickup_scheduled',
          'NCR Bijwasan DC',
          'Item New at NCR Bijwasan DC',
        ],
        [
          '2024-04-08T07:28:01.000Z',
          'recd_at_fwd_dc',
          'in_transit',
          'reached_destination_hub',
          'NCR Bijwasan DC',
          'Item Received at dc at NCR Bijwasan DC',
        ],
        [
          '2024-04-08T07:28:21.000Z',
          'item_manifested',
          'in_transit',
          'in_transit',
          'NCR Bijwasan DC',
          'Item added to bag at NCR Bijwasan DC',
        ],
        [
          '2024-04-08T07:28:55.000Z',
          'bag_received_at_via',
          'in_transit',
          'in_transit',
          'Bangalore DC',
          'Bag received at via Bangalore DC',
        ],
        [
          '2024-04-08T07:30:04.000Z',
          'bag_in_transit',
          'in_transit',
          'in_transit',
          'Bangalore DC',
          'Bag in transit from Bangalore DC',
        ],
        [
          '2024-04-08T08:16:41.000Z',
          'recd_at_fwd_hub',
          'in_transit',
          'reached_destination_hub',
          'BLR_Hebbal',
          'Item Received at hub at BLR_Hebbal',
        ],
        [
          '2024-04-08T08:17:18.000Z',
          'assigned_for_delivery',
          'in_transit',
          'reached_destination_hub',
          'BLR_Hebbal',
          'Item Assigned at BLR_Hebbal',
        ],
        [
          '2024-04-08T09:34:38.000Z',
          'ofd',
          'out_for_delivery',
          'out_for_delivery',
          'BLR_Hebbal',
          'Item OFD at BLR_Hebbal',
        ],
        [
          '2024-04-08T09:35:40.000Z',
          'delivered',
          'delivered',
          'delivered',
          'BLR_Hebbal',
          'Item Delivered at BLR_Hebbal',
        ],
      ].map(([time, id, status, sub, location, description]) => ({
        awb: 'SF100000022431JIF',
        status,
        sub_status: sub,
        event_time: time,
        location,
        description,
        event_id: `shadowfax:${id}:${time}`,
      })),
    );
  });

  it('reads ISO times, India time when they carry no zone, and leaves out unknown ids and unreadable times', () => {
    expect(scanTime('2026-11-20T12:00:00+05:30')).toBe('2026-11-20T06:30:00.000Z');
    expect(scanTime('2026-11-20T06:30:00Z')).toBe('2026-11-20T06:30:00.000Z');
    expect(scanTime('2026-11-20 12:00:00')).toBe('2026-11-20T06:30:00.000Z');
    expect(scanTime('yesterday')).toBeUndefined();
    expect(scanTime(1763620200000)).toBeUndefined();
    expect(mapScan({ status_id: 'shrugged' })).toBeUndefined();
    expect(mapScan({ status: 'Delivered' })).toBeUndefined();
    expect(
      mapTrackingDetails('SF1', [
        { status_id: 'delivered', created: 'soon' },
        { status_id: 'shrugged', created: '2026-11-20T06:30:00Z' },
      ]),
    ).toEqual({
      events: [],
      unread: [
        { raw: { status_id: 'delivered', created: 'soon' }, reason: "created 'soon' is not a time" },
        {
          raw: { status_id: 'shrugged', created: '2026-11-20T06:30:00Z' },
          reason: "no status for status_id 'shrugged'",
        },
      ],
    });
  });

  it('orders scans by time, with a stable event id, and starts a return Shadowfax reports only by its movement', () => {
    const events = mapTrackingDetails('SF1', [
      {
        status_id: 'rto_in_process',
        status: 'In RTO/RTS Process',
        remarks: 'Item RTO In Progress at Mumbai',
        location: 'Mumbai',
        created: '2026-11-20T12:00:02+05:30',
      },
      { status_id: 'picked', status: 'Picked', created: '2026-11-20T12:00:00+05:30' },
    ]).events.map(({ raw: _raw, ...event }) => event);
    expect(events).toEqual([
      {
        awb: 'SF1',
        status: 'in_transit',
        sub_status: 'picked_up',
        event_time: '2026-11-20T06:30:00.000Z',
        description: 'Picked',
        event_id: 'shadowfax:picked:2026-11-20T06:30:00.000Z',
      },
      {
        awb: 'SF1',
        status: 'rto_initiated',
        sub_status: 'rto_initiated',
        event_time: '2026-11-20T06:30:01.999Z',
        location: 'Mumbai',
        description: 'Return to origin started',
        event_id: 'shadowfax:rto-start:shadowfax:rto_in_process:2026-11-20T06:30:02.000Z',
      },
      {
        awb: 'SF1',
        status: 'rto_in_transit',
        sub_status: 'rto_in_transit',
        event_time: '2026-11-20T06:30:02.000Z',
        location: 'Mumbai',
        description: 'Item RTO In Progress at Mumbai',
        event_id: 'shadowfax:rto_in_process:2026-11-20T06:30:02.000Z',
      },
    ]);
  });
});
