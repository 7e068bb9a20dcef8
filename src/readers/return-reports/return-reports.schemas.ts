import { type Static, Type } from 'typebox';
import { CALENDAR_DAY_PATTERN } from '../../domain/date-patterns.js';
import { Uuid } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

const Day = (description: string) =>
  Type.Optional(
    Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      'x-error': 'must be a date, YYYY-MM-DD',
      description,
      ...statedRule({ pattern: CALENDAR_DAY_PATTERN }),
    }),
  );
const Rupees = (description: string) => Type.Number({ description: `${description} Rupees, exact to the paisa.` });
const Rate = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description: `${description} A fraction, 4 decimals; null with nothing delivered.`,
  });

export const GROUPS = ['sku', 'reason', 'pincode'] as const;

export const ReturnReportQuery = Type.Object(
  {
    group_by: Type.Optional(
      Type.String({
        enum: [...GROUPS],
        'x-error': `must be one of ${GROUPS.join(', ')}`,
        description:
          'sku (the default): units per SKU; reason: requests per reason; pincode: shipments per delivery pincode.',
      }),
    ),
    from: Day('Shipments delivered on or after this day (India); when absent, the range is the 30 days ending `to`.'),
    to: Day('… on or before this day (India); today when absent.'),
    store_id: Type.Optional({
      ...Uuid,
      'x-error': 'must be the id of a store',
      description: "Only this store's shipments.",
    }),
  },
  { additionalProperties: false },
);
export type ReturnReportInput = Static<typeof ReturnReportQuery>;

export const ReturnReportRow = Type.Object({
  key: Type.String({ description: 'The SKU, the reason code, or the delivery pincode.' }),
  delivered: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Units (sku) or shipments (pincode) delivered in the range; null by reason.',
  }),
  requested: Type.Integer({
    description: 'Units (sku) or requests (reason, pincode) asked back, whatever became of them.',
  }),
  approved: Type.Integer(),
  rejected: Type.Integer(),
  pending: Type.Integer(),
  request_rate: Rate('requested / delivered (by reason: the share of all requests).'),
  return_rate: Rate('approved / delivered (by reason: the share of all approved).'),
});

export const ReturnReport = Type.Object({
  data: Type.Array(ReturnReportRow),
  meta: Type.Object({
    group_by: Type.String({ enum: [...GROUPS] }),
    from: Type.String({ description: 'YYYY-MM-DD, India.' }),
    to: Type.String({ description: 'YYYY-MM-DD, India.' }),
  }),
});

const Bucket = (description: string) =>
  Type.Object({ count: Type.Integer(), amount: Rupees('Their total.') }, { description });

export const RefundsOutstandingQuery = Type.Object(
  {
    store_id: Type.Optional({
      ...Uuid,
      'x-error': 'must be the id of a store',
      description: "Only this store's refunds.",
    }),
  },
  { additionalProperties: false },
);

export const RefundsOutstanding = Type.Object({
  data: Type.Object({
    waiting_on_return: Bucket('Pending, not yet due: their returns have not met the release rule.'),
    due: Bucket('Pending and due: to pay now.'),
    initiated: Bucket('Taken by the payment system, not yet completed.'),
    failed: Bucket('Failed: to initiate again.'),
    total: Bucket('Everything not completed.'),
  }),
});
