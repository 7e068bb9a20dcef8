import { type Static, Type } from 'typebox';
import { REFUND_RELEASES, REFUND_STATUSES } from '../../domain/return-requests/refund-rules.js';
import { EXAMPLE } from '../../http/examples.js';
import { Text, Uuid } from '../../http/schemas.js';
import { REFUND_METHODS } from '../../domain/return-requests/refund-payee.js';
import { PayeeSchema } from '../../shipment-records/refund-payee.schemas.js';

const Rupees = (description: string) => Type.Number({ description: `${description} Rupees, exact to the paisa.` });
const When = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const RefundElement = Type.Object({
  id: Type.String({ format: 'uuid' }),
  return_request_id: Type.String({ format: 'uuid', description: 'The approved return request it refunds.' }),
  return_id: Type.String({ format: 'uuid', description: "The request's return (GET /returns lists it)." }),
  store_id: Type.String({ format: 'uuid' }),
  status: Type.String({
    enum: [...REFUND_STATUSES],
    description:
      'pending until the payment system takes it (initiated), then completed (with its UTR) or failed (initiate it again); cancelled, with nothing owed, when its return is cancelled before the refund falls due.',
  }),
  amount: Rupees('What the buyer is owed: items_amount less deduction less return_shipping_fee.'),
  items_amount: Rupees('The items sent back, at the price paid (each unit less its discount).'),
  deduction: Rupees("The store's deduction (its policy's refund_deduction_percent of items_amount, rounded half up)."),
  return_shipping_fee: Rupees("The return's shipping fee of the store's policy, never more than what is left."),
  currency: Type.Literal('INR'),
  method: Type.String({
    enum: [...REFUND_METHODS, 'to_be_agreed'],
    description:
      "original: a prepaid order's own payment method; upi, bank_transfer or store_credit: as the buyer chose (payee); to_be_agreed: a cash-on-delivery order's when the request named none, which the store and the buyer settle.",
  }),
  payee: Type.Union([PayeeSchema(true), Type.Null()], {
    description:
      'Whom it is paid to, masked: the UPI id or bank account the buyer gave (GET /refunds/{id}/payee answers it in full). Null when to be agreed.',
  }),
  release_on: Type.String({
    enum: [...REFUND_RELEASES],
    description: "When it falls due, by the store's policy at the approval: the pickup, the warehouse, or the QC pass.",
  }),
  released_at: When("When it fell due (the courier's scan that met release_on); null until then. Pay it from then."),
  utr: Type.Union([Type.String(), Type.Null()], { description: "The payment's reference once completed." }),
  failure_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why the last payment failed.' }),
  initiated_at: When('When the payment system last took it.'),
  completed_at: When('When it was paid.'),
  failed_at: When('When the last payment failed.'),
  cancelled_at: When('When its return was cancelled, and the refund with it.'),
  created_at: Type.String({ format: 'date-time', description: 'When the request was approved.' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const RefundIdParams = Type.Object({
  id: { ...Uuid, description: "The refund's id.", examples: [EXAMPLE.refundId] },
});

export const ListRefundsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.String({
        enum: [...REFUND_STATUSES],
        'x-error': `must be one of ${REFUND_STATUSES.join(', ')}`,
        description: 'Only refunds in this state.',
      }),
    ),
    due: Type.Optional(
      Type.String({
        enum: ['true', 'false'],
        'x-error': 'must be true or false',
        description: 'true: only those fallen due (released_at set); false: only those still waiting on the return.',
      }),
    ),
    store_id: Type.Optional({ ...Uuid, description: "Only this store's refunds." }),
    after: Type.Optional({
      ...Uuid,
      'x-error': 'must be the id of a refund',
      description: 'The refunds after this one (the last id you have); from the oldest when absent.',
    }),
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
export type ListRefundsInput = Static<typeof ListRefundsQuery>;

export const CompleteRefundBody = Type.Object(
  {
    utr: Type.String({
      minLength: 6,
      maxLength: 40,
      pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$',
      'x-error': 'must be 6 to 40 letters, digits or hyphens',
      description: "The payment's reference: a UTR for a bank transfer or UPI, or the payment system's refund id.",
    }),
  },
  { additionalProperties: false },
);

export const FailRefundBody = Type.Object(
  { reason: Text(500, 'Why the payment failed (a closed account, a wrong UPI id, …).') },
  { additionalProperties: false },
);

export const RefundPayeeElement = Type.Object(
  {
    refund_id: Type.String({ format: 'uuid' }),
    ...PayeeSchema(false).properties,
    method: Type.String({ enum: [...REFUND_METHODS, 'to_be_agreed'] }),
  },
  { additionalProperties: false },
);
