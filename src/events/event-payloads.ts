import { EVENT_TYPES, type EventType, TEST_EVENT_TYPE } from '../domain/shipment/event-types.js';
import { EXAMPLE_EVENT } from './events.schemas.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, with the exact body a webhook
 * delivery POSTs (and `GET /events` lists). Pure data built from the one list of types, so a new
 * type without a payload here fails to compile rather than going undocumented.
 */
type JsonSchema = Record<string, unknown>;

const nullable = (type: string, description: string): JsonSchema => ({ type: [type, 'null'], description });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const SHIPMENT = { shipment: { ...ref('Shipment'), description: 'The shipment as POST /shipments lists it, as it stood when the change committed.' } };
const RETURN = { return: { ...ref('Return'), description: 'The return as POST /returns lists it, as it stood when the change committed.' } };

const MOVE: Record<string, JsonSchema> = {
  from: { type: 'string', description: 'The status before the change.' },
  from_sub_status: nullable('string', 'The sub-status before the change.'),
  to: { type: 'string', description: 'The status after the change.' },
  sub_status: nullable('string', 'The sub-status after the change.'),
  location: nullable('string', 'Where the scan that made the change was taken.'),
  event_time: { type: 'string', format: 'date-time', description: 'When the courier says it happened.' },
};
const SHIPMENT_MOVE: Record<string, JsonSchema> = {
  ...SHIPMENT,
  ...MOVE,
  attempt_count: { type: 'integer', minimum: 0, description: 'Delivery attempts so far.' },
  ndr_reason: nullable('string', 'Why the last attempt failed, on an NDR.'),
  rto_reason: nullable('string', 'Why the parcel is going back, on an RTO.'),
};
const RETURN_MOVE: Record<string, JsonSchema> = {
  ...RETURN,
  ...MOVE,
  qc_status: nullable('string', 'The quality check at pickup: passed or failed, on QC returns.'),
  qc_reason: nullable('string', 'Why the quality check failed.'),
};
const TRACKING = (kind: string): Record<string, JsonSchema> => ({
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
    },
    description: 'The scan just recorded.',
  },
  status: { type: 'string', description: `Where this scan left the ${kind} (a late scan leaves it where it was).` },
  sub_status: nullable('string', 'The sub-status it left.'),
});
const BOOKED: Record<string, JsonSchema> = {
  awb: { type: 'string', description: 'The AWB just assigned.' },
  carrier_id: { type: 'string', description: 'The courier service booked.' },
  courier_name: { type: 'string' },
};

const PAYLOADS: Record<EventType | typeof TEST_EVENT_TYPE, { when: string; data: Record<string, JsonSchema> }> = {
  'shipment.created': { when: 'An order and its shipment were created (forward-order, forward-order-orchestration).', data: SHIPMENT },
  'shipment.booked': { when: 'A courier and AWB were assigned (forward-order-shipment, orchestration).', data: { ...SHIPMENT, ...BOOKED } },
  'shipment.status_changed': { when: "The shipment's status or sub-status moved (courier scans, cancel-order, initiate-rto).", data: SHIPMENT_MOVE },
  'shipment.cancelled': { when: 'The shipment moved to cancelled (after its shipment.status_changed).', data: SHIPMENT_MOVE },
  'shipment.ndr_raised': { when: 'A delivery attempt failed: the shipment moved to ndr_raised.', data: SHIPMENT_MOVE },
  'shipment.reattempt_requested': {
    when: 'A reattempt was asked for (POST /reattempt, or the customer on the tracking page).',
    data: { ...SHIPMENT, action: { type: 'object', description: 'The NDR action, as order-tracking shows it.' } },
  },
  'shipment.rto_initiated': { when: 'The shipment started back to its warehouse (rto_initiated).', data: SHIPMENT_MOVE },
  'shipment.delivered': { when: 'The shipment was delivered.', data: SHIPMENT_MOVE },
  'shipment.tracking_added': {
    when: "A scan was added to the shipment's tracking history (one per scan, whether or not it moved the status).",
    data: { ...SHIPMENT, ...TRACKING('shipment') },
  },
  'return.created': { when: 'A return was created (reverse-order, reverse-order-orchestration).', data: RETURN },
  'return.booked': {
    when: 'A courier and AWB were assigned to a return.',
    data: { ...RETURN, ...BOOKED, qc_enabled: { type: 'boolean', description: 'Whether the courier checks the items at pickup.' } },
  },
  'return.status_changed': { when: "The return's status or sub-status moved.", data: RETURN_MOVE },
  'return.cancelled': { when: 'The return moved to return_cancelled.', data: RETURN_MOVE },
  'return.delivered': { when: 'The return reached the warehouse (return_delivered).', data: RETURN_MOVE },
  'return.tracking_added': { when: "A scan was added to the return's tracking history.", data: { ...RETURN, ...TRACKING('return') } },
  'return.qc_updated': {
    when: "The courier's quality check at pickup has a result (after the return.status_changed it came with).",
    data: {
      ...RETURN,
      qc_status: { type: 'string', description: 'passed or failed.' },
      qc_reason: nullable('string', 'Why the quality check failed.'),
      event_time: { type: 'string', format: 'date-time', description: 'When the courier says it happened.' },
    },
  },
  'store.updated': {
    when: 'A store was changed or disconnected (PUT or DELETE /client-stores/:id).',
    data: {
      store: { ...ref('Store'), description: 'The store as the stores routes answer it.' },
      changed: { type: 'array', items: { type: 'string' }, description: 'The fields the request changed, or ["status"].' },
    },
  },
  'cod.remittance_applied': {
    when: 'A COD remittance file was taken in (POST /cod/remittance-files, or the CLI) and some of its lines applied.',
    data: {
      import: {
        type: 'object',
        description: 'The import as POST /cod/remittance-files answers it, without its problems: id, format, counts, applied_amount (rupees), utrs.',
      },
    },
  },
  'cod.discrepancy_found': {
    when: 'The COD money and the ledger disagree: short_paid, over_paid, paid_not_delivered (by a remittance file), missing_from_remittance (the daily check).',
    data: { discrepancy: { type: 'object', description: 'The discrepancy as GET /cod/discrepancies lists it.' } },
  },
  [TEST_EVENT_TYPE]: {
    when: 'POST /webhooks/:id/test: sent to that one endpoint, never listed by GET /events.',
    data: {
      webhook: { type: 'object', description: 'The endpoint, as GET /webhooks/:id answers it (without its secret).' },
      message: { type: 'string' },
    },
  },
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event id: the same on every retry, so a receiver can drop repeats.' },
  { name: 'webhook-timestamp', description: 'Unix seconds when this attempt was signed.' },
  {
    name: 'webhook-signature',
    description: '`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint secret (Standard Webhooks; docs/webhooks.md).',
  },
].map((header) => ({ in: 'header', required: true, schema: { type: 'string' }, ...header }));

export function eventWebhooks(): Record<string, unknown> {
  const types = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;
  return Object.fromEntries(
    types.map((type) => {
      const { when, data } = PAYLOADS[type];
      const body = {
        type: 'object',
        required: ['id', 'type', 'created_at', 'sequence', 'data'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          type: { const: type },
          created_at: { type: 'string', format: 'date-time' },
          sequence: { type: 'integer', minimum: 1, description: "1, 2, 3… per subject, in the order its changes committed." },
          data: { type: 'object', required: Object.keys(data), properties: data },
        },
      };
      const operation = {
        summary: type,
        description: `${when} Answer 2xx within 10 s; anything else is retried (WEBHOOK_RETRY_DELAYS).`,
        tags: ['Events and webhooks'],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: body, ...(type === EXAMPLE_EVENT.type && { example: EXAMPLE_EVENT }) } },
        },
        responses: { '2XX': { description: 'Received.' } },
      };
      return [type, { post: operation }];
    }),
  );
}
