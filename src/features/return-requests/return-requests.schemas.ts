import { type Static, Type } from 'typebox';
import { LANGUAGES } from '../../domain/buyer-copy/page-words.js';
import { RETURN_REASONS } from '../../domain/return-requests/return-reasons.js';
import { Nullable, Text, Uuid } from '../../http/schemas.js';
import { REFUND_METHODS } from '../../domain/return-requests/refund-payee.js';
import { PayeeSchema } from '../../shipment-records/refund-payee.schemas.js';

export const RESOLUTIONS = ['refund', 'exchange'] as const;
export const MAX_REQUEST_ITEMS = 100;

const Reason = Type.String({
  enum: [...RETURN_REASONS],
  'x-error': `must be one of ${RETURN_REASONS.join(', ')}`,
  description: "The buyer's reason, one the store's policy offers.",
});
const Resolution = Type.String({
  enum: [...RESOLUTIONS],
  'x-error': 'must be refund or exchange',
  description: 'What the buyer wants: their money back, or another variant of the item.',
});

export const CreateReturnRequestBody = Type.Object(
  {
    shipment_id: { ...Uuid, description: 'The delivered forward shipment the items came in.' },
    items: Type.Array(
      Type.Object({
        sku: Text(100, "The item's SKU, as the order lists it."),
        quantity: Type.Integer({
          minimum: 1,
          maximum: 10_000,
          'x-error': 'must be a whole number from 1',
          description: 'Units to send back: at most those delivered and not already asked for.',
        }),
      }),
      {
        minItems: 1,
        maxItems: MAX_REQUEST_ITEMS,
        'x-error': `must list 1 to ${MAX_REQUEST_ITEMS} items`,
        description: 'The items to send back, each SKU once.',
      },
    ),
    reason: Reason,
    comment: Type.Optional(Text(1000, "The buyer's own words.")),
    resolution: Resolution,
    exchange_for: Type.Optional(
      Text(200, 'For an exchange: the size, colour or SKU the buyer wants instead, when known.'),
    ),
    refund_to: Type.Optional(
      Type.Object(
        {
          method: Type.String({
            enum: [...REFUND_METHODS],
            'x-error': `must be one of ${REFUND_METHODS.join(', ')}`,
            description:
              "A prepaid order: original (the default) or store_credit. A COD order: upi, bank_transfer or store_credit; absent, it is agreed with the buyer. store_credit only where the store's policy offers it.",
          }),
          upi_id: Type.Optional(Text(300, 'upi: the UPI id, e.g. name@okaxis.')),
          account_holder: Type.Optional(Text(100, "bank_transfer: the account holder's name.")),
          account_number: Type.Optional(Text(30, 'bank_transfer: 9 to 18 digits (spaces and hyphens are dropped).')),
          ifsc: Type.Optional(Text(20, "bank_transfer: the branch's IFSC, checked against RBI's list.")),
        },
        {
          additionalProperties: false,
          description:
            'For a refund: how the buyer is paid. Bank details are kept sealed and answered masked; GET /refunds/{id}/payee gives them in full to pay. Ignored for an exchange.',
        },
      ),
    ),
    language: Type.Optional(
      Type.String({
        enum: [...LANGUAGES],
        'x-error': `must be one of ${LANGUAGES.join(', ')}`,
        description: "The buyer's language: refusals are worded in it, and the buyer is written to in it. Default en.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateReturnRequestInput = Static<typeof CreateReturnRequestBody>;

const Address = Type.Object({
  name: Type.String(),
  last_name: Nullable(Type.String()),
  address: Type.String(),
  address_2: Nullable(Type.String()),
  city: Type.String(),
  state: Type.String(),
  country: Type.String(),
  pincode: Type.String(),
  email: Nullable(Type.String()),
  phone: Type.String(),
});

export const ReturnRequestElement = Type.Object({
  id: Type.String({ format: 'uuid' }),
  shipment_id: Type.String({ format: 'uuid' }),
  order_id: Type.String({ format: 'uuid' }),
  store_id: Type.String({ format: 'uuid' }),
  status: Type.String({
    enum: ['pending', 'approved', 'rejected', 'withdrawn'],
    description: 'pending until the merchant decides, then approved or rejected; withdrawn by the buyer.',
  }),
  items: Type.Array(Type.Object({ sku: Type.String(), name: Type.String(), quantity: Type.Integer() })),
  reason: Reason,
  comment: Nullable(Type.String()),
  resolution: Resolution,
  exchange_for: Nullable(Type.String()),
  refund_to: Nullable({
    ...PayeeSchema(true),
    description:
      "A refund's payee, masked: the method, and the UPI id or bank account the buyer gave. Null for an exchange, or a COD refund whose method is still to be agreed.",
  }),
  pickup_address: {
    ...Address,
    description: 'Where the courier will collect the items: the delivery address unless the buyer gave another.',
  },
  photos: Type.Array(
    Type.Object({
      url: Type.String({ description: 'GET it with your credential: the photo, as a JPEG.' }),
      content_type: Type.String({ examples: ['image/jpeg'] }),
      width: Type.Integer(),
      height: Type.Integer(),
      size: Type.Integer({ description: 'Bytes.' }),
    }),
    {
      description:
        "The buyer's photos (at most 5), as stored: re-encoded as JPEG within 1600 px a side, without the camera's metadata (its location among them).",
    },
  ),
  language: Type.String({ enum: [...LANGUAGES] }),
  decision_note: Nullable(Type.String({ description: "A rejection's reason, as the buyer is told it." })),
  decided_by: Nullable(
    Type.String({
      enum: ['merchant', 'rule'],
      description: "Who decided: the merchant (the approve and reject routes), or one of the store's auto rules.",
    }),
  ),
  decision_rule: Nullable(
    Type.Integer({
      description: "The store's auto rule that decided it: its place in the policy's auto_rules, from 0.",
    }),
  ),
  return_id: Nullable(
    Type.String({ format: 'uuid', description: 'The return an approval booked (GET /returns lists it).' }),
  ),
  exchange_id: Nullable(
    Type.String({
      format: 'uuid',
      description:
        "An exchange request's approval: the exchange it booked, the replacement with the return (POST /exchange-orders lists it).",
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  decided_at: Nullable(Type.String({ format: 'date-time' })),
});

const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** A request as the merchant's queue reads it: with the buyer's record beside it (GET /return-requests, GET /return-requests/{id}). */
export const QueuedReturnRequest = Type.Object({
  ...ReturnRequestElement.properties,
  buyer_history: Type.Object(
    {
      delivered: Count('Orders delivered to this phone.'),
      rto: Count('Orders to this phone that went back to origin (RTO).'),
      refused: Count('Delivery attempts the courier reported the buyer refused.'),
      other_return_requests: Count("The buyer's other return requests with you."),
      other_returns_approved: Count('… of which approved.'),
    },
    {
      description:
        "The buyer's record with your account, by the phone the order was delivered to, as the store's auto rules read it (buyer_returns_*: other_returns_approved; buyer_rto_*: rto). Deliveries, RTOs and refusals are the counts RTO risk is scored on.",
    },
  ),
});

export const RejectReturnRequestBody = Type.Object(
  { message: Text(500, "Why, in the words the buyer is told (on the tracking page, in the store's language).") },
  { additionalProperties: false },
);

export const REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;

export const ListReturnRequestsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.String({
        enum: [...REQUEST_STATUSES],
        'x-error': `must be one of ${REQUEST_STATUSES.join(', ')}`,
        description: 'Only requests in this state: pending is the queue of those waiting for a decision.',
      }),
    ),
    store_id: Type.Optional({ ...Uuid, description: "Only this store's requests." }),
    shipment_id: Type.Optional({ ...Uuid, description: "Only this shipment's requests." }),
    after: Type.Optional({
      ...Uuid,
      'x-error': 'must be the id of a return request',
      description: 'The requests after this one (the last id you have); from the oldest when absent.',
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
export type ListReturnRequestsInput = Static<typeof ListReturnRequestsQuery>;

const QcText = (description: string) => Type.Optional(Text(100, description));

export const ApproveReturnRequestBody = Type.Object(
  {
    qc: Type.Optional(
      Type.Object(
        {
          items: Type.Array(
            Type.Object(
              {
                sku: Text(100, 'An item of the request to check at pickup.'),
                image_url: Type.String({
                  maxLength: 2000,
                  pattern: '^https?://\\S+$',
                  'x-error': 'must be an http(s) URL',
                  description: "The product's picture the courier checks the item against.",
                }),
                brand: QcText('The brand on the item, for the courier to check.'),
                size: QcText('The size on the label.'),
                color: QcText('The colour.'),
              },
              { additionalProperties: false },
            ),
            // Velocity's couriers check at most 2 SKUs at one pickup (features/returns' MAX_QC_SKUS).
            {
              minItems: 1,
              maxItems: 2,
              'x-error': 'must list 1 or 2 items: a courier checks at most 2 SKUs at a pickup',
            },
          ),
        },
        { additionalProperties: false },
      ),
    ),
    resolution: Type.Optional({
      ...Resolution,
      description:
        'What the buyer gets, when not what they asked for: refund (the exchange asked for is refunded instead; a COD payee is then to be agreed) or exchange (the refund asked for becomes an exchange of the same items). Default: as asked.',
    }),
    replacements: Type.Optional(
      Type.Array(
        Type.Object(
          {
            sku: Text(100, 'An item of the request.'),
            replacement_sku: Text(100, 'The SKU sent instead: the size or colour the buyer asked for.'),
            replacement_name: Type.Optional(
              Text(300, "The replacement's name on its label. Default: the item's, with what the buyer asked for."),
            ),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: MAX_REQUEST_ITEMS,
          'x-error': `must list 1 to ${MAX_REQUEST_ITEMS} replacements`,
          description:
            "An exchange request's replacement of each item; an item not named is sent again as its own SKU.",
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Optional: with `qc`, the courier checks these items at the doorstep against their pictures (a courier that does QC pickups: Delhivery or Shadowfax), and the pickup is refused if they do not match; with `replacements` (an exchange request), the SKUs sent instead.',
  },
);
export type ApproveReturnRequestInput = Static<typeof ApproveReturnRequestBody>;
