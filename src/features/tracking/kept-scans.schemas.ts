import { Type } from 'typebox';
import { KEPT_REASONS, type KeptReason } from '../../couriers/kept-scans.repository.js';

const ReasonCode = Type.Unsafe<KeptReason>(
  Type.Union(
    KEPT_REASONS.map((reason) => Type.Literal(reason)),
    { 'x-error': `must be one of ${KEPT_REASONS.join(', ')}` },
  ),
);

export const ListKeptScansQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        format: 'uuid',
        'x-error': 'must be the id of a kept scan',
        description: 'List the kept scans after this one (meta.next_after); from the first when absent.',
      }),
    ),
    carrier_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Only this courier service’s.' }),
    ),
    reason_code: Type.Optional(ReasonCode),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('all')], {
        'x-error': 'must be open or all',
        description: 'open (the default): not yet applied by a replay; all: applied ones too.',
      }),
    ),
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]\\d?|100)$',
        'x-error': 'must be 1 to 100',
        description: 'At most this many (1–100; 50).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The operator's list spans accounts: it may name one, or a connector. */
export const AdminKeptScansQuery = Type.Object(
  {
    ...ListKeptScansQuery.properties,
    account_id: Type.Optional(Type.String({ format: 'uuid', 'x-error': 'must be an account id' })),
    connector: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: 'Only this connector’s (delhivery, ekart, push, …).' }),
    ),
  },
  { additionalProperties: false },
);

const KeptScan = Type.Object({
  id: Type.String({ format: 'uuid' }),
  awb: Type.String(),
  carrier_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The courier service; null for an Ekart push for an AWB none of its services holds.',
  }),
  connector: Type.String({
    description: 'The connector it came through: delhivery, ekart, xpressbees, shadowfax, or push.',
  }),
  journey: Type.Union([Type.Literal('forward'), Type.Literal('return'), Type.Null()], {
    description: 'forward (a shipment) or return; null when no parcel has the AWB.',
  }),
  reason_code: ReasonCode,
  reason: Type.String({ description: 'Why it was not applied, in words; after a replay, what the replay found.' }),
  raw: Type.Unknown({ description: 'The scan as the courier sent it (a push courier’s: the event it posted).' }),
  first_seen_at: Type.String({ format: 'date-time' }),
  replayed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  applied_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a replay applied it; null while it is open.',
  }),
});

/** A Delhivery scan whose code no table read when it came. */
const EXAMPLE_SCAN = {
  id: '0d7c5a52-3c1e-4d2b-9a4e-6f1b2c3d4e5f',
  awb: '1490810021734',
  carrier_id: 'CARDELHSURF01',
  connector: 'delhivery',
  journey: 'forward',
  reason_code: 'unread',
  reason: "no status for StatusCode 'EOD-777', ScanType 'UD', Scan 'Pending'",
  raw: {
    ScanDateTime: '2026-11-21T18:42:10',
    ScanType: 'UD',
    Scan: 'Pending',
    StatusCode: 'EOD-777',
    ScannedLocation: 'Mumbai_Andheri_DC (Maharashtra)',
    Instructions: 'Consignee asked to deliver at another time',
  },
  first_seen_at: '2026-11-21T13:15:02.000Z',
  replayed_at: null,
  applied_at: null,
};

export const KeptScansResponse = Type.Object(
  {
    data: Type.Array(KeptScan),
    meta: Type.Object({
      next_after: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
      has_more: Type.Boolean(),
    }),
  },
  { examples: [{ data: [EXAMPLE_SCAN], meta: { next_after: EXAMPLE_SCAN.id, has_more: false } }] },
);

export const AdminKeptScansResponse = Type.Object(
  {
    data: Type.Array(
      Type.Object({ ...KeptScan.properties, account_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]) }),
    ),
    meta: Type.Object({
      next_after: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
      has_more: Type.Boolean(),
      open: Type.Array(Type.Object({ connector: Type.String(), reason_code: ReasonCode, count: Type.Integer() }), {
        description: 'Every open kept scan, counted by connector and reason.',
      }),
    }),
  },
  {
    examples: [
      {
        data: [{ ...EXAMPLE_SCAN, account_id: '3b2f6c1e-8d4a-4f5b-9c7d-1e2f3a4b5c6d' }],
        meta: {
          next_after: EXAMPLE_SCAN.id,
          has_more: false,
          open: [
            { connector: 'delhivery', reason_code: 'unread', count: 1 },
            { connector: 'push', reason_code: 'unknown_awb', count: 3 },
          ],
        },
      },
    ],
  },
);

export const ReplayQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        format: 'uuid',
        'x-error': 'must be the id of a kept scan',
        description: 'Go on after this kept scan (the last answer’s next_after).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReplayResponse = Type.Object(
  {
    read: Type.Integer({ description: 'Kept scans read again through the current tables.' }),
    applied: Type.Integer({ description: 'Of those, applied now (they leave the open list).' }),
    kept: Type.Integer({ description: 'Still kept, each with what the replay found.' }),
    by_reason: Type.Record(Type.String(), Type.Integer(), { description: 'The still-kept ones by reason_code.' }),
    next_after: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'Set when the replay stopped at its limit: send it as `after` to go on.',
    }),
  },
  { examples: [{ read: 12, applied: 9, kept: 3, by_reason: { unread: 2, not_applied: 1 }, next_after: null }] },
);
