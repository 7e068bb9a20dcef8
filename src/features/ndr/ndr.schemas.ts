import { EXAMPLE } from '../../http/examples.js';
import { type Static, Type } from 'typebox';
import { CarrierAction } from '../../domain/shipment/ndr-actions.js';
import { CALENDAR_DAY_PATTERN } from '../../domain/date-patterns.js';
import { INDIAN_MOBILE_PATTERN } from '../../domain/geo/phone.js';
import { statedRule } from '../../http/stated-rules.js';

const Uuid = Type.String({ format: 'uuid' });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Awb = Type.String({ minLength: 1, maxLength: 64, description: 'The AWB of one of your shipments.' });
const Refused = (field: string) =>
  Type.String({
    maxLength: 100,
    description: `Refused with 422: the ${field} cannot change on a reattempt (initiate an RTO and re-book).`,
  });

export const ReattemptBody = Type.Object(
  {
    awb: Awb,
    updated_address: Type.Optional(
      Type.Object(
        {
          address_line: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 500,
              description: 'The corrected street address, in the same pincode.',
            }),
          ),
          landmark: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          pincode: Type.Optional(Refused('pincode')),
          city: Type.Optional(Refused('city')),
          state: Type.Optional(Refused('state')),
        },
        { additionalProperties: false },
      ),
    ),
    updated_phone_number: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description: 'An Indian mobile number the courier can call.',
        ...statedRule({ pattern: `^${INDIAN_MOBILE_PATTERN}$` }),
      }),
    ),
    comments: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'For the delivery agent.' })),
    reattempt_date: Type.Optional(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        'x-error': 'must be a date written YYYY-MM-DD',
        ...statedRule({ pattern: CALENDAR_DAY_PATTERN }),
        description:
          "Dakiya's addition: YYYY-MM-DD, one of the next 3 working days (India time; Sundays and holidays excluded).",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        awb: EXAMPLE.ndrAwb,
        updated_address: {
          address_line: 'Flat 3B, 42, 5th Cross, Koramangala 4th Block',
          landmark: 'Behind Jyoti Nivas College',
        },
        updated_phone_number: '9123456780',
        comments: 'Customer available after 6 pm',
      },
    ],
  },
);
export type ReattemptInput = Static<typeof ReattemptBody>;

export const InitiateRtoBody = Type.Object(
  { awb: Awb },
  { additionalProperties: false, examples: [{ awb: EXAMPLE.ndrAwb }] },
);

export const ReattemptResponse = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({
      awb: Type.String(),
      action_id: Uuid,
      reattempts_used: Type.Integer({ description: 'Including this one; at most 2.' }),
      reattempts_left: Type.Integer(),
      reattempt_date: Nullable(
        Type.String({ format: 'date', description: 'null: the courier picks the next attempt date.' }),
      ),
    }),
  },
  {
    examples: [
      {
        success: true,
        message: 'Reattempt requested',
        data: {
          awb: EXAMPLE.ndrAwb,
          action_id: EXAMPLE.actionId,
          reattempts_used: 1,
          reattempts_left: 1,
          reattempt_date: null,
        },
      },
    ],
  },
);

export const InitiateRtoResponse = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({
      awb: Type.String(),
      action_id: Uuid,
      status: Type.Literal('rto_initiated', {
        description: 'The shipment is rto_initiated from the request on (docs/tracking.md).',
      }),
    }),
  },
  {
    examples: [
      {
        success: true,
        message: 'RTO initiated',
        data: { awb: EXAMPLE.ndrAwb, action_id: '4e6a8c0d-2f1b-4a3c-9d5e-7f8a9b0c1d2e', status: 'rto_initiated' },
      },
    ],
  },
);

export const CarrierActionsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]\\d?|100)$',
        'x-error': 'must be 1 to 100',
        description: 'At most this many (1–100; 50).',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        pattern: '^\\d{1,15}\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
        'x-error': 'must be a next_cursor from an earlier answer',
        description: 'next_cursor of the previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CarrierActionsResponse = Type.Object(
  {
    data: Type.Array(CarrierAction, { description: 'Open instructions on your shipments, oldest first.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Send as cursor for the next page; null on the last.',
    }),
  },
  {
    examples: [
      {
        data: [
          {
            id: EXAMPLE.actionId,
            awb: EXAMPLE.ndrAwb,
            action: 'reattempt',
            requested_by: 'merchant',
            requested_at: '2026-11-22T06:30:00.000Z',
            acknowledged_at: null,
            courier_status: 'waiting',
            refusal: null,
            details: {
              updated_address: {
                address_line: 'Flat 3B, 42, 5th Cross, Koramangala 4th Block',
                landmark: 'Behind Jyoti Nivas College',
              },
              updated_phone_number: '+919123456780',
              comments: 'Customer available after 6 pm',
            },
          },
        ],
        next_cursor: null,
      },
    ],
  },
);

export const ActionIdParams = Type.Object({
  id: { ...Uuid, description: "The instruction's id (GET /carrier/v1/actions).", examples: [EXAMPLE.actionId] },
});
export const CarrierActionEnvelope = Type.Object({ data: CarrierAction });
