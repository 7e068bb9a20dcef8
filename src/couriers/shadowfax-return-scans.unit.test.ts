import { describe, expect, it } from 'vitest';
import { CARRIER_RETURN_STATUSES, RETURN_SUB_STATUSES } from '../domain/shipment/return-status-machine.js';
import captures from './fixtures/shadowfax/tracking-captures.json' with { type: 'json' };
import { mapReturnScans, RETURN_BY_STATE, RETURN_BY_STATUS_ID, readShadowfaxScans } from './shadowfax-return-scans.js';

// A reverse request's states, read as Shadowfax's words say (a capture, index id 5990078441, and a
// client's reverse table, Sauravambuskar/parcel-hub55): not yet collected, collected, on its way to
// the warehouse, handed over, or over without reaching it.
const STATES: [string, string, string?][] = [
  ['New', 'return_pickup_scheduled'],
  ['Order Received', 'return_pickup_scheduled'],
  ['Assigned', 'return_pickup_scheduled'],
  ['Out For Pickup', 'return_pickup_scheduled'],
  ['Not Contactable', 'return_pickup_scheduled', 'return_pickup_failed'],
  ['Not Attempted', 'return_pickup_scheduled', 'return_pickup_failed'],
  ['On Hold', 'return_pickup_scheduled', 'return_pickup_failed'],
  ['Cid', 'return_pickup_scheduled', 'return_pickup_rescheduled'],
  ['Picked', 'return_picked_up', 'return_picked_up'],
  ['Received', 'return_in_transit', 'return_reached_hub'],
  ['Item added to Bag', 'return_in_transit', 'return_in_transit'],
  ['Bag in transit for return', 'return_in_transit', 'return_in_transit'],
  ['Bag Received', 'return_in_transit', 'return_reached_hub'],
  ['Bag Received at Via', 'return_in_transit', 'return_reached_hub'],
  ['Received at Return DC', 'return_in_transit', 'return_reached_hub'],
  ['Return to Seller initiated', 'return_in_transit', 'return_in_transit'],
  ['Received at RTS destination hub', 'return_in_transit', 'return_reached_hub'],
  ['Return Shipment Out for Delivery', 'return_in_transit', 'return_out_for_delivery'],
  ['Undelivered', 'return_in_transit', 'return_in_transit'],
  ['Returned To Client', 'return_delivered', 'return_delivered'],
  ['QC Failed', 'return_cancelled', 'qc_failed'],
  ['Cancelled', 'return_cancelled', 'return_cancelled_by_courier'],
  ['Lost', 'return_lost', 'return_lost'],
];

const state = (name: string, minute = 0, comment = `${name} at BLR_Hebbal`) => ({
  state: name,
  created_at: `2024-04-15T08:${String(minute).padStart(2, '0')}:00Z`,
  current_location: 'BLR_Hebbal',
  comment,
});

describe('Shadowfax reverse request states', () => {
  it.each(STATES)('%s is %s / %s', (name, status, sub) => {
    const [event] = mapReturnScans('R1', [state(name)]).events;
    expect(event).toMatchObject({ status, ...(sub ? { sub_status: sub } : {}) });
    if (!sub) expect(event).not.toHaveProperty('sub_status');
    // Case and spacing do not matter: the words are Shadowfax's display words.
    expect(mapReturnScans('R1', [state(`  ${name.toUpperCase()} `)]).events[0]?.status).toBe(status);
  });

  it('has a test row for every state, each a return status and sub_status the return machine allows', () => {
    expect(Object.keys(RETURN_BY_STATE).sort()).toEqual(STATES.map(([name]) => name.toLowerCase()).sort());
    for (const mapped of [...Object.values(RETURN_BY_STATE), ...Object.values(RETURN_BY_STATUS_ID)]) {
      expect(CARRIER_RETURN_STATUSES).toContain(mapped.status);
      if (mapped.sub_status)
        expect(RETURN_SUB_STATUSES[mapped.status as keyof typeof RETURN_SUB_STATUSES]).toContain(mapped.sub_status);
    }
  });

  it('reads a captured reverse request handed back to the seller, state by state (index id 5990078441)', () => {
    const [request] = captures.reverse_request_returned.answer.R107620440JIF;
    const { events, unread } = mapReturnScans('R107620440JIF', request!.pickup_request_state_histories);
    expect(unread).toEqual([]);
    expect(events.map((e) => [e.event_time, e.status, e.sub_status ?? null, e.location, e.description])).toEqual([
      ['2024-04-15T06:55:26.000Z', 'return_pickup_scheduled', null, 'BLR_Hebbal', 'Item New at BLR_Hebbal'],
      [
        '2024-04-15T08:27:05.000Z',
        'return_pickup_scheduled',
        null,
        'BLR_Hebbal',
        'Item Assigned For Customer Pickup at BLR_Hebbal',
      ],
      ['2024-04-15T08:42:31.000Z', 'return_pickup_scheduled', null, 'BLR_Hebbal', 'Item Out For Pickup at BLR_Hebbal'],
      [
        '2024-04-15T08:52:46.000Z',
        'return_in_transit',
        'return_reached_hub',
        'BLR_Hebbal',
        'Received at hub Successfully',
      ],
      [
        '2024-04-15T10:58:54.000Z',
        'return_in_transit',
        'return_in_transit',
        'BLR_Hebbal',
        'Item added to bag at BLR_Hebbal',
      ],
      [
        '2024-04-15T11:00:00.000Z',
        'return_in_transit',
        'return_reached_hub',
        'Bangalore DC',
        'Bag received at Bangalore DC',
      ],
      [
        '2024-04-15T11:00:23.000Z',
        'return_in_transit',
        'return_reached_hub',
        'Bangalore DC',
        'Item Received at RTS DC at Bangalore DC',
      ],
      [
        '2024-04-15T12:39:55.000Z',
        'return_in_transit',
        'return_in_transit',
        'Bangalore DC',
        'Item return to seller initiated at Bangalore DC',
      ],
      [
        '2024-04-15T12:57:00.000Z',
        'return_in_transit',
        'return_reached_hub',
        'BLR_NandiniLayout',
        'Item received at RTS destination hub BLR_NandiniLayout',
      ],
      [
        '2024-04-15T13:00:26.000Z',
        'return_in_transit',
        'return_out_for_delivery',
        'BLR_NandiniLayout',
        'Item out for delivery to seller at BLR_NandiniLayout',
      ],
      [
        '2024-04-15T13:01:02.000Z',
        'return_delivered',
        'return_delivered',
        'BLR_NandiniLayout',
        'Item Return To Seller Delivered at BLR_NandiniLayout',
      ],
    ]);
    expect(events.at(-1)).toMatchObject({
      awb: 'R107620440JIF',
      event_id: 'shadowfax:return:returned_to_client:2024-04-15T13:01:02.000Z',
      raw: request!.pickup_request_state_histories.at(-1),
    });
  });

  it('reads a captured R… AWB on the forward tracking: its way to the seller is the return delivered (index id 5990078441)', () => {
    const [shipment] = captures.bulk_track_reverse_awb.answer.data;
    const { events, unread } = readShadowfaxScans('R107620433JIF', 'return', shipment!.tracking_details);
    expect(unread).toEqual([]);
    expect(events.map((e) => `${e.status}/${e.sub_status ?? '-'}`)).toEqual([
      'return_pickup_scheduled/-',
      'return_pickup_scheduled/-',
      'return_pickup_scheduled/-',
      'return_in_transit/return_in_transit',
      'return_in_transit/return_reached_hub',
      'return_in_transit/return_in_transit',
      'return_in_transit/return_in_transit',
      'return_in_transit/return_reached_hub',
      'return_in_transit/return_reached_hub',
      'return_in_transit/return_out_for_delivery',
      'return_delivered/return_delivered',
    ]);
    expect(events.at(-1)).toMatchObject({
      event_id: 'shadowfax:rts_d:2024-04-22T12:40:57.000Z',
      location: 'BLR_Bannerghatta',
    });
    // An id with no reverse row reads as a forward scan would on a return; an RTO of one is none of a return's.
    expect(
      readShadowfaxScans('R1', 'return', [{ status_id: 'lost', created: '2024-04-22T12:40:57Z' }]).events,
    ).toMatchObject([{ status: 'return_lost', sub_status: 'return_lost' }]);
    expect(readShadowfaxScans('R1', 'return', [{ status_id: 'rto', created: '2024-04-22T12:40:57Z' }]).unread).toEqual([
      {
        raw: { status_id: 'rto', created: '2024-04-22T12:40:57Z' },
        reason: "rto_initiated is a forward parcel's return to origin: it has no meaning on a return",
      },
    ]);
  });

  it('fails a QC with its comment as the reason, and keeps what it cannot read with why', () => {
    expect(mapReturnScans('R1', [state('QC Failed', 5, 'DOORSTEP_QC_PRODUCT_MISMATCH')]).events).toMatchObject([
      {
        status: 'return_cancelled',
        sub_status: 'qc_failed',
        qc_status: 'failed',
        qc_reason: 'DOORSTEP_QC_PRODUCT_MISMATCH',
      },
    ]);
    expect(mapReturnScans('R1', [state('Teleported'), { ...state('New'), created_at: 'soon' }, 'junk'])).toEqual({
      events: [],
      unread: [
        { raw: state('Teleported'), reason: "no return status for state 'Teleported'" },
        { raw: { ...state('New'), created_at: 'soon' }, reason: "created_at 'soon' is not a time" },
        { raw: 'junk', reason: 'not a tracking entry' },
      ],
    });
  });
});
