/**
 * The pieces event bodies are made of, for the OpenAPI `webhooks` section (event-payloads.ts): a
 * shipment or return as the listings show it, a status move, a scan, a booking, an address verdict,
 * an NDR rule's run, a buyer message.
 */
export type JsonSchema = Record<string, unknown>;

export const nullable = (type: string, description: string): JsonSchema => ({ type: [type, 'null'], description });
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const SHIPMENT = {
  shipment: {
    ...ref('Shipment'),
    description: 'The shipment as POST /shipments lists it, as it stood when the change committed.',
  },
};
export const RETURN = {
  return: {
    ...ref('Return'),
    description: 'The return as POST /returns lists it, as it stood when the change committed.',
  },
};

const MOVE: Record<string, JsonSchema> = {
  from: { type: 'string', description: 'The status before the change.' },
  from_sub_status: nullable('string', 'The sub-status before the change.'),
  to: { type: 'string', description: 'The status after the change.' },
  sub_status: nullable('string', 'The sub-status after the change.'),
  location: nullable('string', 'Where the scan that made the change was taken.'),
  event_time: { type: 'string', format: 'date-time', description: 'When the courier says it happened.' },
};
/** An address re-check: the verdict before, and now. */
const VERDICT: Record<string, JsonSchema> = {
  address_validity: nullable('string', 'valid, incomplete or suspicious (null with RTO_CHECKS off).'),
  address_reasons: { type: ['array', 'null'], items: { type: 'string' } },
  rto_risk: nullable('string', 'low, medium or high.'),
  rto_risk_score: { type: ['integer', 'null'] },
};
export const RECHECK: Record<string, JsonSchema> = {
  previous: { type: 'object', description: 'The verdict before the change.', properties: VERDICT },
  ...VERDICT,
  rto_risk_reasons: {
    type: ['array', 'null'],
    items: { type: 'object' },
    description: 'Each reason with its points (docs/rto.md: RTO risk).',
  },
};
export const SHIPMENT_MOVE: Record<string, JsonSchema> = {
  ...SHIPMENT,
  ...MOVE,
  attempt_count: { type: 'integer', minimum: 0, description: 'Delivery attempts so far.' },
  ndr_reason: nullable('string', 'Why the last attempt failed, on an NDR.'),
  rto_reason: nullable('string', 'Why the parcel is going back, on an RTO.'),
};
export const RETURN_MOVE: Record<string, JsonSchema> = {
  ...RETURN,
  ...MOVE,
  qc_status: nullable('string', 'The quality check at pickup: passed or failed, on QC returns.'),
  qc_reason: nullable('string', 'Why the quality check failed.'),
};
export const TRACKING = (kind: string): Record<string, JsonSchema> => ({
  tracking: {
    type: 'object',
    required: ['id', 'status', 'sub_status', 'event_time', 'location', 'description'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      status: { type: 'string', description: 'The status the scan reports.' },
      sub_status: nullable('string', 'The sub-status the scan reports.'),
      event_time: { type: 'string', format: 'date-time', description: 'When the courier says it happened.' },
      location: nullable('string', 'Where the scan was taken.'),
      description: nullable('string', "The courier's words."),
      box_no: {
        type: 'integer',
        minimum: 1,
        description:
          "A multi-piece shipment's box the scan is of (1: the master AWB); absent for a shipment in one box.",
      },
    },
    description: 'The scan just recorded.',
  },
  status: { type: 'string', description: `Where this scan left the ${kind} (a late scan leaves it where it was).` },
  sub_status: nullable('string', 'The sub-status it left.'),
});
export const BOOKED: Record<string, JsonSchema> = {
  awb: { type: 'string', description: 'The AWB just assigned.' },
  carrier_id: { type: 'string', description: 'The courier service booked.' },
  courier_name: { type: 'string' },
};

export const DISCREPANCY: Record<string, JsonSchema> = {
  ...SHIPMENT,
  weight_discrepancy: {
    ...ref('WeightDiscrepancy'),
    description: 'The discrepancy as GET /weight-disputes/{id} answers it, after the step.',
  },
};

export const CONFIRMATION: Record<string, JsonSchema> = {
  ...SHIPMENT,
  confirmation: {
    ...ref('OrderConfirmation'),
    description: "The shipment's order confirmation after the change (docs/rto.md).",
  },
};

export const RULE_RUN: Record<string, JsonSchema> = {
  rule: {
    type: 'object',
    required: ['name', 'index'],
    properties: {
      name: { type: 'string' },
      index: { type: 'integer', minimum: 0, description: "The rule's place in the account's list." },
    },
    description: 'The rule that acted.',
  },
  action: {
    type: 'string',
    enum: ['reattempt', 'rto', 'message_buyer', 'rto_fallback'],
    description: 'What the rule did.',
  },
  outcome: {
    type: 'string',
    enum: ['done', 'refused'],
    description: 'refused: the NDR path said no (limits, or the shipment moved on); reason says why.',
  },
  reason: nullable('string', 'Why it was refused.'),
  attempt: { type: 'integer', minimum: 1, description: 'The failed attempt the rule acted on.' },
  action_id: nullable('string', 'The NDR instruction made (as order-tracking lists it), when one was.'),
};

/** A buyer message as GET /shipments/{id}/confirmation lists it: the recipient masked, never in clear. */
export const BUYER_MESSAGE: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'channel',
    'purpose',
    'template',
    'language',
    'recipient',
    'status',
    'attempts',
    'provider_message_id',
    'last_error',
    'sent_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    channel: { type: 'string', enum: ['whatsapp', 'sms', 'email'] },
    purpose: { type: 'string', enum: ['order_confirmation', 'ndr', 'address_update'] },
    template: { type: 'string', description: 'The WhatsApp template name, the DLT template id, or email.' },
    language: { type: 'string' },
    recipient: {
      type: 'string',
      description: "Masked: the phone's last four digits, or the address's first letter and domain.",
    },
    status: { type: 'string', enum: ['sent', 'failed'] },
    attempts: { type: 'integer', minimum: 1 },
    provider_message_id: nullable('string', "The provider's id (WhatsApp wamid, MSG91 request id); null on a failure."),
    last_error: nullable('string', "The provider's refusal of the latest failed attempt."),
    sent_at: { type: ['string', 'null'], format: 'date-time', description: 'When the provider accepted it.' },
  },
  description: 'The message and what became of it.',
};

/** One box of a multi-piece shipment, as `shipment.box_exception` carries it. */
const BOX: JsonSchema = {
  type: 'object',
  required: ['box_no', 'awb', 'status', 'sub_status'],
  properties: {
    box_no: { type: 'integer', minimum: 1, description: 'Box 1 carries the master AWB.' },
    awb: nullable('string', "The box's own AWB."),
    status: { type: 'string', description: "The box's status, from its own scans." },
    sub_status: nullable('string', "The box's sub-status."),
  },
};
export const BOX_EXCEPTION: Record<string, JsonSchema> = {
  ...SHIPMENT,
  status: { type: 'string', description: "The shipment's rolled-up status (others)." },
  sub_status: nullable('string', 'box_exception.'),
  exceptions: { type: 'array', items: BOX, description: 'The boxes that went their own way, in box order.' },
  boxes: { type: 'array', items: BOX, description: 'Every box, box 1 (the master AWB) first.' },
  event_time: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'When the scan that raised it happened, as the courier says.',
  },
};
