import { type TSchema, Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { CALENDAR_DAY_PATTERN } from '../../domain/date-patterns.js';
import { statedRule } from '../../http/stated-rules.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Rupees = (description: string) => Type.Number({ description: `${description} Rupees, exact to the paisa.` });
const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const Day = (description: string) =>
  Type.String({ pattern: DAY_PATTERN, description: `${description} YYYY-MM-DD, India's calendar.` });
const DayFilter = (description: string) =>
  Type.Optional(
    Type.String({
      pattern: DAY_PATTERN,
      'x-error': 'must be a date, YYYY-MM-DD',
      description,
      ...statedRule({ pattern: CALENDAR_DAY_PATTERN }),
    }),
  );
const CarrierFilter = Type.Optional(
  Type.String({ minLength: 1, maxLength: 40, description: 'Only this courier service (GET /carriers).' }),
);
const UtrFilter = Type.Optional(
  Type.String({
    pattern: '^[A-Za-z0-9]{1,40}$',
    'x-error': 'must be 1 to 40 letters and digits',
    description: 'Only this bank reference.',
  }),
);
const Paging = {
  limit: Type.Optional(
    Type.String({
      pattern: '^(?:[1-9]\\d?|[1-4]\\d\\d|500)$',
      'x-error': 'must be 1 to 500',
      description: 'At most this many (1–500; 50).',
    }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The previous page's next_cursor." })),
};
const NextCursor = Nullable(Type.String({ description: 'Send as cursor for the next page; null on the last.' }));

const receivableState = (options: Record<string, unknown>) =>
  Type.Union([Type.Literal('pending'), Type.Literal('remitted'), Type.Literal('reconciled')], options);

export const ReceivablesQuery = Type.Object(
  {
    state: Type.Optional(receivableState({ 'x-error': 'must be pending, remitted or reconciled' })),
    carrier_id: CarrierFilter,
    utr: UtrFilter,
    delivered_from: DayFilter('Delivered on or after this day (India).'),
    delivered_to: DayFilter('Delivered on or before this day.'),
    expected_from: DayFilter('Due on or after this day.'),
    expected_to: DayFilter('Due on or before this day.'),
    ...Paging,
  },
  { additionalProperties: false },
);
export const ReceivablesExportQuery = Type.Omit(ReceivablesQuery, ['limit', 'cursor'], { additionalProperties: false });

const Receivable = Type.Object({
  id: Type.String({ format: 'uuid' }),
  awb: Type.String(),
  shipment_id: Type.String({ format: 'uuid' }),
  carrier_id: Type.String(),
  courier_name: Type.String(),
  cod_amount: Rupees('The cash the courier collected.'),
  delivered_at: Type.String({ format: 'date-time' }),
  expected_date: Day("When the courier's remittance cycle makes it due."),
  state: receivableState({
    description: 'pending: nothing paid; remitted: paid, but not the amount; reconciled: paid in full.',
  }),
  received_amount: Rupees('Sum of the remittance lines for it.'),
  utr: Nullable(Type.String()),
  remittance_date: Nullable(Day('The latest remittance’s date.')),
  overdue: Type.Boolean({ description: 'Pending past its expected day.' }),
});

const RECEIVABLE_EXAMPLE = {
  id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  awb: EXAMPLE.awb,
  shipment_id: EXAMPLE.bookedShipmentId,
  carrier_id: 'CARSHFXSTD001',
  courier_name: 'Shadowfax Standard',
  cod_amount: 998,
  delivered_at: '2026-11-21T06:00:00.000Z',
  expected_date: '2026-11-30',
  state: 'pending',
  received_amount: 0,
  utr: null,
  remittance_date: null,
  overdue: false,
};

export const ReceivablesResponse = Type.Object(
  { data: Type.Array(Receivable, { description: 'Newest delivery first.' }), next_cursor: NextCursor },
  { examples: [{ data: [RECEIVABLE_EXAMPLE], next_cursor: null }] },
);

export const RemittancesQuery = Type.Object(
  {
    carrier_id: CarrierFilter,
    utr: UtrFilter,
    awb: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this AWB.' })),
    from: DayFilter('Remitted on or after this day.'),
    to: DayFilter('Remitted on or before this day.'),
    ...Paging,
  },
  { additionalProperties: false },
);
export const RemittancesExportQuery = Type.Omit(RemittancesQuery, ['limit', 'cursor'], { additionalProperties: false });

const Remittance = Type.Object({
  id: Type.String({ format: 'uuid' }),
  import_id: Type.String({ format: 'uuid', description: 'The file it came in.' }),
  awb: Type.String(),
  shipment_id: Type.String({ format: 'uuid' }),
  receivable_id: Nullable(
    Type.String({ format: 'uuid', description: 'Null for a line paid on a shipment that was not delivered.' }),
  ),
  carrier_id: Type.String(),
  courier_name: Type.String(),
  utr: Type.String(),
  amount: Rupees('What the line paid.'),
  remittance_date: Day('The transfer’s date.'),
  imported_at: Type.String({ format: 'date-time' }),
});

export const RemittancesResponse = Type.Object(
  { data: Type.Array(Remittance, { description: 'Newest remittance date first.' }), next_cursor: NextCursor },
  {
    examples: [
      {
        data: [
          {
            id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
            import_id: '4f2a9c1e-7b3d-4e8a-9c0f-1d2e3f4a5b6c',
            awb: EXAMPLE.awb,
            shipment_id: EXAMPLE.bookedShipmentId,
            receivable_id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            carrier_id: 'CARSHFXSTD001',
            courier_name: 'Shadowfax Standard',
            utr: 'UTIB0000123456',
            amount: 998,
            remittance_date: '2026-11-27',
            imported_at: '2026-11-27T10:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    ],
  },
);

const discrepancyKind = (options: Record<string, unknown>) =>
  Type.Union(
    [
      Type.Literal('short_paid'),
      Type.Literal('over_paid'),
      Type.Literal('paid_not_delivered'),
      Type.Literal('missing_from_remittance'),
    ],
    options,
  );

export const DiscrepanciesQuery = Type.Object(
  {
    kind: Type.Optional(
      discrepancyKind({ 'x-error': 'must be short_paid, over_paid, paid_not_delivered or missing_from_remittance' }),
    ),
    carrier_id: CarrierFilter,
    from: DayFilter('Found on or after this day.'),
    to: DayFilter('Found on or before this day.'),
    ...Paging,
  },
  { additionalProperties: false },
);
export const DiscrepanciesExportQuery = Type.Omit(DiscrepanciesQuery, ['limit', 'cursor'], {
  additionalProperties: false,
});

const Discrepancy = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: discrepancyKind({}),
  awb: Type.String(),
  carrier_id: Type.String(),
  shipment_id: Type.String({ format: 'uuid' }),
  receivable_id: Nullable(Type.String({ format: 'uuid' })),
  remittance_id: Nullable(Type.String({ format: 'uuid' })),
  expected_amount: Rupees('What was owed.'),
  received_amount: Rupees('What had been paid.'),
  difference: Rupees('received_amount minus expected_amount.'),
  expected_date: Nullable(Day('The day it was due (missing_from_remittance).')),
  detected_at: Type.String({ format: 'date-time' }),
});

export const DiscrepanciesResponse = Type.Object(
  { data: Type.Array(Discrepancy, { description: 'Newest first.' }), next_cursor: NextCursor },
  {
    examples: [
      {
        data: [
          {
            id: '3e4f5a6b-7c8d-4e9f-8a0b-2c3d4e5f6a7b',
            kind: 'short_paid',
            awb: EXAMPLE.awb,
            carrier_id: 'CARSHFXSTD001',
            shipment_id: EXAMPLE.bookedShipmentId,
            receivable_id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
            remittance_id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
            expected_amount: 998,
            received_amount: 950.5,
            difference: -47.5,
            expected_date: null,
            detected_at: '2026-11-27T10:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    ],
  },
);

export const ReconciliationQuery = Type.Object(
  {
    carrier_id: CarrierFilter,
    from: DayFilter('Cycles due on or after this day.'),
    to: DayFilter('Cycles due on or before this day.'),
  },
  { additionalProperties: false },
);

const CycleCounts = {
  receivables: Type.Integer({ minimum: 0 }),
  expected_amount: Rupees('The COD amounts due.'),
  received_amount: Rupees('What the courier paid for them.'),
  difference: Rupees('received minus expected.'),
  pending: Type.Integer({ minimum: 0 }),
  remitted: Type.Integer({ minimum: 0 }),
  reconciled: Type.Integer({ minimum: 0 }),
  discrepancies: Type.Integer({ minimum: 0, description: 'Receivables with at least one discrepancy.' }),
};

const Cycle = Type.Object({
  carrier_id: Type.String(),
  courier_name: Type.String(),
  expected_date: Day('The payout day of the cycle.'),
  ...CycleCounts,
});

const CYCLE_EXAMPLE = {
  receivables: 2,
  expected_amount: 1996,
  received_amount: 1948.5,
  difference: -47.5,
  pending: 0,
  remitted: 1,
  reconciled: 1,
  discrepancies: 1,
};

export const ReconciliationResponse = Type.Object(
  {
    data: Type.Array(Cycle, { description: 'One row per courier service and payout day, latest day first.' }),
    totals: Type.Object(CycleCounts),
  },
  {
    examples: [
      {
        data: [
          {
            carrier_id: 'CARSHFXSTD001',
            courier_name: 'Shadowfax Standard',
            expected_date: '2026-11-30',
            ...CYCLE_EXAMPLE,
          },
        ],
        totals: CYCLE_EXAMPLE,
      },
    ],
  },
);
