import { type Static, type TSchema, Type } from 'typebox';
import { NdrAction } from '../../domain/shipment/ndr-actions.js';
import {
  QC_STATUSES,
  RETURN_STATUSES,
  RETURN_SUB_STATUSES,
  RETURN_TRANSITIONS,
} from '../../domain/shipment/return-status-machine.js';
import {
  NDR_REASONS,
  RTO_REASONS,
  SHIPMENT_STATUSES,
  SUB_STATUSES,
  TRANSITIONS,
} from '../../domain/shipment/status-machine.js';
import { EXAMPLE } from '../../http/examples.js';
import { granularCatalogue } from '../../domain/shipment/granular-catalogue.js';

export const OrderTrackingBody = Type.Object(
  {
    awbs: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: 50,
      'x-error': 'must list 1 to 50 AWBs',
    }),
  },
  { additionalProperties: false, examples: [{ awbs: [EXAMPLE.awb] }] },
);

const VelocityDateTime = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    description: `${description} India time, YYYY-MM-DD HH:mm:ss, as Velocity writes dates.`,
  });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const Activity = Type.Object({
  date: VelocityDateTime('When the courier scanned the parcel:'),
  activity: Type.String({
    description:
      "Velocity's upper-case label (OUT FOR PICKUP, PICKED UP, IN TRANSIT, OUT FOR DELIVERY, DELIVERED, UNDELIVERED, RTO INITIATED, " +
      "RTO IN TRANSIT, RTO DELIVERED, CANCELLED, …) from the event's status and sub_status; the table is in docs/tracking.md.",
  }),
  status: Type.String({ description: "The event's status (GET /custom/api/v1/meta/statuses)." }),
  description: Nullable(Type.String({ description: "The courier's own words for the scan." })),
  location: Nullable(Type.String()),
  sr_status_label: Nullable(Type.String({ description: "The event's sub_status." })),
  courier_date: Type.Optional(
    VelocityDateTime(
      'Only on a scan the courier stamped before the booking (clocks drift, times are cut to the second): `date` places it just after the booking, and this is the time the courier gave it:',
    ),
  ),
});

const ShipmentTrack = Type.Object({
  id: Type.String({
    format: 'uuid',
    description: 'The id of this track: Dakiya keeps one per shipment, so it is the shipment id.',
  }),
  awb_code: Type.String(),
  courier_company_id: Nullable(Type.String({ description: 'The courier service id (GET /custom/api/v1/carriers).' })),
  courier_name: Nullable(Type.String()),
  shipment_id: Type.String({ format: 'uuid' }),
  order_id: Type.String({ format: 'uuid', description: "Dakiya's order id, as the booking answer's order_id." }),
  channel_order_id: Type.String({ description: "The merchant's order_id." }),
  pickup_date: Nullable(VelocityDateTime('The first pickup scan (null before it):')),
  delivered_date: Nullable(VelocityDateTime('Delivery (null before it):')),
  weight: Type.Number({ description: 'Applied weight in kilograms.' }),
  packages: Type.Literal(1, { description: 'Dakiya ships one package per shipment.' }),
  current_status: Type.String({ description: 'As shipment_status: the granular word.' }),
  delivered_to: Nullable(Type.String({ description: 'The delivery city once delivered, else null.' })),
  destination: Type.String({ description: 'The delivery city.' }),
  consignee_name: Type.String({ description: 'The shipping name, with the last name when there is one.' }),
  origin: Type.String({ description: "The pickup warehouse's city." }),
  courier_agent_details: Type.Null({ description: 'Dakiya has no courier agent details.' }),
});

const TRACKING_EXAMPLE = {
  result: {
    SFX0000000001: {
      tracking_data: {
        track_status: 1,
        shipment_status: 'delivered',
        dakiya_status: 'delivered',
        shipment_sub_status: 'delivered',
        shipment_track: [
          {
            id: '5b0d7c1e-2f4a-4c8e-9d3b-7a6e1f2c3d4e',
            awb_code: 'SFX0000000001',
            courier_company_id: 'CARSHFXSTD001',
            courier_name: 'Shadowfax Standard',
            shipment_id: '5b0d7c1e-2f4a-4c8e-9d3b-7a6e1f2c3d4e',
            order_id: '0f8e2a6b-9c4d-4e1f-8a7b-3c2d1e0f9a8b',
            channel_order_id: 'WEB-1001',
            pickup_date: '2026-11-20 15:30:00',
            delivered_date: '2026-11-21 11:30:00',
            weight: 0.5,
            packages: 1,
            current_status: 'delivered',
            delivered_to: 'Mumbai',
            destination: 'Mumbai',
            consignee_name: 'Asha Rao',
            origin: 'New Delhi',
            courier_agent_details: null,
          },
        ],
        shipment_track_activities: [
          {
            date: '2026-11-21 11:30:00',
            activity: 'DELIVERED',
            status: 'delivered',
            description: 'Delivered to the consignee',
            location: 'Andheri DC',
            sr_status_label: 'delivered',
          },
          {
            date: '2026-11-21 09:30:00',
            activity: 'OUT FOR DELIVERY',
            status: 'out_for_delivery',
            description: null,
            location: 'Andheri DC',
            sr_status_label: null,
          },
          {
            date: '2026-11-20 15:30:00',
            activity: 'PICKED UP',
            status: 'in_transit',
            description: 'Picked up from seller',
            location: 'Okhla Hub',
            sr_status_label: 'picked_up',
          },
        ],
        track_url: 'https://ship.example.in/t/q2Xn8V0bTgK4mYc1Pz7wAa',
        label_url:
          'https://ship.example.in/public/v1/labels/3f6c2a9e-8b1d-4c7a-9e2f-5a1b7c3d9e04?expires=1795250400&signature=pV3mX8QbW1nR5tY7uI9oP2aS4dF6gH8jK0lZ1xC3vB5',
      },
    },
    SFX0000000002: {
      tracking_data: {
        track_status: 1,
        shipment_status: 'return_in_transit',
        dakiya_status: 'return_in_transit',
        shipment_sub_status: null,
        is_return: 1,
        qc_status: 'passed',
        qc_reason: null,
        shipment_track: [
          {
            id: '7c2e9d4f-1a3b-4c5d-8e6f-0a1b2c3d4e5f',
            awb_code: 'SFX0000000002',
            courier_company_id: 'CARSHFXSTD001',
            courier_name: 'Shadowfax Standard',
            shipment_id: '7c2e9d4f-1a3b-4c5d-8e6f-0a1b2c3d4e5f',
            order_id: '6f1d2c3b-8a9e-4f10-b2c4-5d6e7f8a9b0c',
            channel_order_id: 'RET-10045',
            pickup_date: '2026-11-22 12:10:00',
            delivered_date: null,
            weight: 0.5,
            packages: 1,
            current_status: 'return_in_transit',
            delivered_to: null,
            destination: 'New Delhi',
            consignee_name: 'Ravi Kumar',
            origin: 'Mumbai',
            courier_agent_details: null,
          },
        ],
        shipment_track_activities: [
          {
            date: '2026-11-22 18:40:00',
            activity: 'RETURN IN TRANSIT',
            status: 'return_in_transit',
            description: null,
            location: 'Bhiwandi Hub',
            sr_status_label: null,
          },
          {
            date: '2026-11-22 12:10:00',
            activity: 'RETURN PICKED UP',
            status: 'return_picked_up',
            description: 'QC passed, picked up from customer',
            location: 'Colaba',
            sr_status_label: 'return_picked_up',
          },
        ],
        track_url: null,
      },
    },
    SFX0000009999: { tracking_data: { track_status: 0, error: 'AWB SFX0000009999 not found' } },
  },
};

export const OrderTrackingResponse = Type.Object(
  {
    result: Type.Record(
      Type.String(),
      Type.Object({
        tracking_data: Type.Object({
          track_status: Type.Union([Type.Literal(0), Type.Literal(1)], { description: '0 when the AWB is not found.' }),
          error: Type.Optional(Type.String()),
          asked_awb: Type.Optional(
            Type.String({
              description:
                "Dakiya's addition, only when the AWB asked is a multi-piece shipment's box after the first: that AWB. " +
                'The answer is its shipment, under the master AWB (shipment_track[].awb_code), as for the master itself.',
            }),
          ),
          box_no: Type.Optional(
            Type.Integer({
              minimum: 2,
              description:
                "Dakiya's addition, with asked_awb only: the number of the box whose AWB was asked (box 1 carries the master AWB).",
            }),
          ),
          shipment_status: Type.Optional(
            Type.String({
              description:
                "Velocity's granular status, one of the thirty (GET /custom/api/v1/meta/statuses: granular_statuses), as " +
                "shipment_track[].current_status and the listing's granular_status.",
            }),
          ),
          dakiya_status: Type.Optional(
            Type.String({
              description:
                "Dakiya's own status: SPEC section 3's ten for a shipment, the return's status for a return.",
            }),
          ),
          shipment_sub_status: Type.Optional(Nullable(Type.String())),
          is_return: Type.Optional(
            Type.Literal(1, {
              description: 'Present on return AWBs only (statuses return_*; docs/tracking.md, "Returns").',
            }),
          ),
          qc_status: Type.Optional(
            Nullable(
              Type.String({
                description:
                  "Return AWBs only: the courier's QC result at pickup, passed or failed; null until reported.",
              }),
            ),
          ),
          qc_reason: Type.Optional(Nullable(Type.String({ description: 'Return AWBs only: why the QC failed.' }))),
          shipment_track: Type.Optional(Type.Array(ShipmentTrack, { description: 'One entry: the shipment.' })),
          shipment_track_activities: Type.Optional(
            Type.Array(Activity, {
              description: 'Every recorded event, newest first, including those the status machine did not apply.',
            }),
          ),
          track_url: Type.Optional(
            Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
              description:
                "The customer's public tracking page (PUBLIC_BASE_URL/t/<token>). Null on return AWBs: returns have no customer page yet.",
            }),
          ),
          label_url: Type.Optional(
            Nullable(
              Type.String({
                format: 'uri',
                description:
                  "Forward AWBs only: a new signed link to the label PDF on every read (it expires, as the booking's does); null once cancelled.",
              }),
            ),
          ),
          ndr_actions: Type.Optional(
            Type.Array(NdrAction, {
              description: "Dakiya's addition: the merchant's reattempt and RTO instructions, oldest first.",
            }),
          ),
        }),
      }),
      {
        description:
          'Keyed by AWB, as asked. An AWB that does not exist or belongs to another account answers {track_status: 0, error}. ' +
          "A multi-piece shipment's box AWB answers its shipment under the master AWB, with asked_awb and box_no.",
      },
    ),
  },
  { examples: [TRACKING_EXAMPLE] },
);

export type OrderTrackingResult = Static<typeof OrderTrackingResponse>['result'];

export const STATUS_CATALOGUE = {
  statuses: SHIPMENT_STATUSES.map((status) => ({ status, sub_statuses: [...SUB_STATUSES[status]] })),
  ndr_reasons: [...NDR_REASONS],
  rto_reasons: [...RTO_REASONS],
  transitions: Object.fromEntries(SHIPMENT_STATUSES.map((status) => [status, [...TRANSITIONS[status]]])),
  // A key of its own: clients that read `statuses` as the forward journey keep doing so.
  return_statuses: {
    statuses: RETURN_STATUSES.map((status) => ({ status, sub_statuses: [...RETURN_SUB_STATUSES[status]] })),
    transitions: Object.fromEntries(RETURN_STATUSES.map((status) => [status, [...RETURN_TRANSITIONS[status]]])),
    qc_statuses: [...QC_STATUSES],
  },
  granular_statuses: granularCatalogue(),
};

export const StatusCatalogueResponse = Type.Object({
  statuses: Type.Array(Type.Object({ status: Type.String(), sub_statuses: Type.Array(Type.String()) })),
  ndr_reasons: Type.Array(Type.String()),
  rto_reasons: Type.Array(Type.String()),
  transitions: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'Which status may follow which.' }),
  return_statuses: Type.Object(
    {
      statuses: Type.Array(Type.Object({ status: Type.String(), sub_statuses: Type.Array(Type.String()) }), {
        description:
          "In lifecycle order. return_requested is the merchant's (no courier booked yet); couriers report the others.",
      }),
      transitions: Type.Record(Type.String(), Type.Array(Type.String()), {
        description:
          'Which return status may follow which; a non-terminal status may also repeat. Other scans are kept without effect.',
      }),
      qc_statuses: Type.Array(Type.String(), {
        description:
          'QC outcomes a courier reports as qc_status: passed with return_picked_up, failed (with qc_reason) with return_cancelled.',
      }),
    },
    {
      description:
        "Returns (reverse pickups): their statuses, sub-statuses, transitions and QC outcomes, apart from the forward journey's.",
    },
  ),
  granular_statuses: Type.Array(
    Type.Object({
      granular_status: Type.String({ description: "One of Velocity's thirty words." }),
      shipment_type: Type.Union([Type.Literal('forward'), Type.Literal('rto'), Type.Literal('return')], {
        description: 'forward: on its way out; rto: once its return to origin began; return: a reverse pickup.',
      }),
      status: Nullable(
        Type.String({
          description: "Dakiya's status that gives the word (a return's status for returns); null when never produced.",
        }),
      ),
      sub_statuses: Type.Array(Type.String(), { description: 'The sub-statuses of that status that give it.' }),
      without_sub_status: Type.Boolean({ description: 'Whether the status with no sub-status gives it too.' }),
      when: Type.Record(Type.String(), Type.Union([Type.Boolean(), Type.Integer()]), {
        description:
          'Other facts it needs: courier_booked, rto_started, reattempt_requested (for the latest failed delivery), ' +
          'attempts_at_most / attempts_above (attempt_count), qc_failed.',
      }),
      produced: Type.Boolean({
        description: 'false: Dakiya never gives this word (the description says why); as a filter it matches nothing.',
      }),
      description: Type.String(),
    }),
    {
      description:
        "How Dakiya's statuses map to Velocity's granular ones: one entry per way to get each word, in Velocity's order. " +
        "Tracking's shipment_status, the listing's granular_status and its granular_status[] filter use these words.",
    },
  ),
});
