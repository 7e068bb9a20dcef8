import { type Static, Type } from 'typebox';
import { SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';
import { ORDER_DATE_PATTERN } from '../../domain/date-patterns.js';
import { statedRule } from '../../http/stated-rules.js';

/** The statuses Velocity's return summary lists (VELOCITY.md), in its order. */
export const RETURN_REPORT_STATUSES = [
  'return_pickup_scheduled',
  'return_in_transit',
  'return_delivered',
  'cancelled',
  'return_lost',
] as const;

const DateTime = (description: string, example: string) =>
  Type.String({
    minLength: 1,
    maxLength: 40,
    'x-error': 'must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z',
    // The service reads it (with the range's other rules) as an order date is read.
    ...statedRule({ pattern: ORDER_DATE_PATTERN }),
    description,
    examples: [example],
  });

export const ReportBody = Type.Object(
  {
    start_date_time: DateTime(
      'Orders created at or after this instant. ISO 8601; without an offset, India time.',
      '2026-11-01T00:00:00Z',
    ),
    end_date_time: DateTime('Orders created at or before this instant (inclusive).', '2026-11-30T18:29:59Z'),
    shipment_type: Type.Enum(['forward', 'return'], {
      'x-error': 'must be "forward" or "return"',
      description: 'Which shipments to summarise.',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        start_date_time: '2026-11-01T00:00:00+05:30',
        end_date_time: '2026-11-30T23:59:59+05:30',
        shipment_type: 'forward',
      },
    ],
  },
);
export type ReportInput = Static<typeof ReportBody>;

const Entry = Type.Object({
  count: Type.Integer({ description: 'Shipments in this status whose order was created in the range.' }),
  sum_of_prepaid_orders: Type.Number({ description: 'Order value (sub_total) of the prepaid ones, in rupees.' }),
  sum_of_cod_orders: Type.Number({ description: 'Order value (sub_total) of the cash-on-delivery ones, in rupees.' }),
});
export type ReportEntry = Static<typeof Entry>;

const summaryOf = (statuses: readonly string[], description: string) =>
  Type.Object(
    {
      ...Object.fromEntries(statuses.map((status) => [status, Entry])),
      total_shipments: Type.Integer({ description: 'All shipments whose order was created in the range.' }),
    },
    { description },
  );

// Two shapes rather than one with optional keys: the serialiser writes required keys first, and
// Velocity's answer lists the statuses before total_shipments.
const Summary = Type.Union([
  summaryOf(SHIPMENT_STATUSES, 'forward: the ten forward statuses, zeros included, then total_shipments.'),
  summaryOf(RETURN_REPORT_STATUSES, 'return: the five return statuses, zeros included, then total_shipments.'),
]);

const zero = { count: 0, sum_of_prepaid_orders: 0, sum_of_cod_orders: 0 };

export const ReportResponse = Type.Object(
  {
    status: Type.Literal('SUCCESS'),
    payload: Type.Object({
      date_range: Type.Object(
        { start_date_time: Type.String(), end_date_time: Type.String() },
        { description: 'As sent.' },
      ),
      shipment_type: Type.Enum(['forward', 'return']),
      summary: Summary,
    }),
  },
  {
    examples: [
      {
        status: 'SUCCESS',
        payload: {
          date_range: { start_date_time: '2026-11-01T00:00:00Z', end_date_time: '2026-11-30T18:29:59Z' },
          shipment_type: 'forward',
          summary: {
            pending: { count: 12, sum_of_prepaid_orders: 8988, sum_of_cod_orders: 4491 },
            in_transit: { count: 30, sum_of_prepaid_orders: 20958, sum_of_cod_orders: 12974.5 },
            out_for_delivery: { count: 4, sum_of_prepaid_orders: 1996, sum_of_cod_orders: 998 },
            delivered: { count: 151, sum_of_prepaid_orders: 99800, sum_of_cod_orders: 50898 },
            ndr_raised: { count: 3, sum_of_prepaid_orders: 0, sum_of_cod_orders: 2994 },
            rto_initiated: { count: 1, sum_of_prepaid_orders: 0, sum_of_cod_orders: 998 },
            rto_in_transit: zero,
            rto_delivered: { count: 2, sum_of_prepaid_orders: 0, sum_of_cod_orders: 1996 },
            cancelled: { count: 5, sum_of_prepaid_orders: 2495, sum_of_cod_orders: 998 },
            others: zero,
            total_shipments: 208,
          },
        },
      },
    ],
  },
);
export type ReportView = Static<typeof ReportResponse>;
