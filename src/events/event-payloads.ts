import { EVENT_TYPES, type EventType, TEST_EVENT_TYPE } from '../domain/shipment/event-types.js';
import { EXAMPLE_EVENT } from './events.schemas.js';
import {
  BOOKED,
  BOX_EXCEPTION,
  BUYER_MESSAGE,
  CONFIRMATION,
  DISCREPANCY,
  type JsonSchema,
  nullable,
  RECHECK,
  RETURN,
  RETURN_MOVE,
  ref,
  RULE_RUN,
  SHIPMENT,
  SHIPMENT_MOVE,
  TRACKING,
} from './event-payload-parts.js';

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, with the exact body a webhook
 * delivery POSTs (and `GET /events` lists). Pure data built from the one list of types, so a new
 * type without a payload here fails to compile rather than going undocumented.
 */
/** An exchange as its events carry it: the pair and its terms (the legs' own events carry each leg). */
const EXCHANGE_DATA: JsonSchema = {
  type: 'object',
  description:
    "The exchange: id, display_id (the caller's order_id), unique_id, status, forward_shipment_id, forward_awb, return_id, return_awb, release_on, replacement_held, qc_failed_at.",
};

/** A buyer's return request as its events carry it: the same fields GET /return-requests/{id} answers. */
const RETURN_REQUEST_DATA: JsonSchema = {
  type: 'object',
  description:
    'The request: id, shipment_id, order_id, store_id, status, items (sku, name, quantity), reason, comment, resolution, exchange_for, pickup_address, language, decision_note, return_id, created_at, updated_at, decided_at.',
};
const REFUND_DATA: JsonSchema = {
  type: 'object',
  description: 'The refund as GET /refunds/:id answers it.',
};

const PAYLOADS: Record<EventType | typeof TEST_EVENT_TYPE, { when: string; data: Record<string, JsonSchema> }> = {
  'shipment.created': {
    when: 'An order and its shipment were created (forward-order, forward-order-orchestration).',
    data: SHIPMENT,
  },
  'shipment.booked': {
    when: 'A courier and AWB were assigned (forward-order-shipment, orchestration).',
    data: { ...SHIPMENT, ...BOOKED },
  },
  'shipment.status_changed': {
    when: "The shipment's status or sub-status moved (courier scans, cancel-order, initiate-rto).",
    data: SHIPMENT_MOVE,
  },
  'shipment.cancelled': {
    when: 'The shipment moved to cancelled (after its shipment.status_changed).',
    data: SHIPMENT_MOVE,
  },
  'shipment.ndr_raised': { when: 'A delivery attempt failed: the shipment moved to ndr_raised.', data: SHIPMENT_MOVE },
  'shipment.reattempt_requested': {
    when: 'A reattempt was asked for (POST /reattempt, or the customer on the tracking page).',
    data: { ...SHIPMENT, action: { type: 'object', description: 'The NDR action, as order-tracking shows it.' } },
  },
  'shipment.rto_initiated': {
    when: 'The shipment started back to its warehouse (rto_initiated).',
    data: SHIPMENT_MOVE,
  },
  'shipment.delivered': { when: 'The shipment was delivered.', data: SHIPMENT_MOVE },
  'shipment.tracking_added': {
    when: "A scan was added to the shipment's tracking history (one per scan, whether or not it moved the status).",
    data: { ...SHIPMENT, ...TRACKING('shipment') },
  },
  'shipment.box_exception': {
    when: "A multi-piece shipment's boxes went separate ways, or one that had changed its state: a box lost, damaged, held, cancelled or returned while the others go on (the shipment is others / box_exception; docs/tracking.md).",
    data: BOX_EXCEPTION,
  },
  'shipment.label_reissued': {
    when: "A new version of the shipment's label was issued (POST /shipments/{id}/label/reissue); links to the earlier one answer 410.",
    data: {
      ...SHIPMENT,
      label_version: {
        type: 'integer',
        minimum: 2,
        description: "The new label's version (the label made at booking is 1).",
      },
      previous_version: { type: 'integer', minimum: 1, description: 'The version it replaces.' },
      reason: nullable('string', 'Why, as the merchant gave it.'),
    },
  },
  'shipment.weight_discrepancy_opened': {
    when: "A courier's weight report charged more than the applied weight: the extra charge awaits the merchant (POST /weight-reports).",
    data: DISCREPANCY,
  },
  'shipment.weight_discrepancy_accepted': {
    when: 'The extra charge was accepted: by the merchant (settled_by merchant) or when the dispute window ran out (settled_by window).',
    data: DISCREPANCY,
  },
  'shipment.weight_discrepancy_disputed': {
    when: 'The merchant disputed the extra charge with evidence and a comment.',
    data: DISCREPANCY,
  },
  'shipment.weight_discrepancy_resolved': {
    when: 'The operator settled a dispute: state won (no extra charge) or lost (charged).',
    data: DISCREPANCY,
  },
  'shipment.confirmation_sent': {
    when: 'The buyer was asked to confirm a COD order (WhatsApp, SMS or e-mail accepted the message).',
    data: CONFIRMATION,
  },
  'shipment.confirmation_confirmed': {
    when: 'The buyer confirmed the order (a WhatsApp button or the link).',
    data: CONFIRMATION,
  },
  'shipment.confirmation_cancelled': {
    when: "The buyer cancelled the order; the shipment is cancelled through cancel-order's path.",
    data: CONFIRMATION,
  },
  'shipment.confirmation_no_response': {
    when: "The buyer did not answer within the account's window; the hold policy applies.",
    data: CONFIRMATION,
  },
  'shipment.cod_to_prepaid': {
    when: 'The buyer paid a COD order online: it is now prepaid, with nothing to collect.',
    data: {
      ...CONFIRMATION,
      label_url: nullable('string', 'A fresh link to the label, which prints PREPAID; null before an AWB.'),
      label_reissued: {
        type: 'boolean',
        description: 'Whether a label printed with the COD amount was re-issued (after its shipment.label_reissued).',
      },
    },
  },
  'shipment.address_flagged': {
    when: 'The address checks at booking found the shipping address incomplete or suspicious (docs/rto.md).',
    data: {
      ...SHIPMENT,
      address_validity: { type: 'string', enum: ['incomplete', 'suspicious'] },
      address_reasons: {
        type: 'array',
        items: { type: 'string' },
        description: "Why, in the checks' order (docs/rto.md: Address checks).",
      },
    },
  },
  'shipment.address_checked': {
    when: "The merchant's order update (PUT /order) changed the address, phone or payment before pickup: the address checks and RTO risk ran again (docs/rto.md).",
    data: {
      ...SHIPMENT,
      ...RECHECK,
      changed: {
        type: 'array',
        items: { type: 'string' },
        description: 'What changed: address, address_2, city, state, pincode, phone, payment_method, cod_collectible.',
      },
      checked_by: { type: 'string', enum: ['merchant'] },
    },
  },
  'shipment.address_updated': {
    when: "The buyer corrected the address on the tracking page's form before pickup (docs/rto.md: Update your address): checks and risk ran again.",
    data: {
      ...SHIPMENT,
      ...RECHECK,
      updated_by: { type: 'string', enum: ['buyer'] },
      changed: {
        type: 'array',
        items: { type: 'string' },
        description: 'What the buyer changed: address, landmark, pincode, city, state, alternate_phone.',
      },
      courier: {
        type: 'object',
        description:
          'Whether the courier was told: `told` (its address-edit call accepted), `refused` (with its words), or `not_supported` (the connector has no such call: the change is noted on the shipment for the merchant).',
        properties: {
          outcome: { type: 'string', enum: ['told', 'refused', 'not_supported'] },
          message: nullable('string', "The courier's words, if any."),
        },
      },
    },
  },
  'shipment.ndr_action_taken': {
    when: "One of the account's NDR rules acted on a failed delivery (docs/rto.md: NDR rules), or was refused by the NDR path's limits.",
    data: { ...SHIPMENT, ...RULE_RUN },
  },
  'shipment.ndr_action_refused': {
    when: 'The courier refused an NDR instruction (a reattempt or an RTO), at once or when it confirmed one it had queued: it is not sent again (docs/rto.md).',
    data: {
      ...SHIPMENT,
      action_id: {
        type: 'string',
        format: 'uuid',
        description: "The instruction's id, as in the shipment's ndr_actions.",
      },
      courier: { type: 'string', description: 'The courier service that refused it.' },
      refusal: { type: 'string', description: "The courier's words." },
    },
  },
  'shipment.ndr_buyer_message_requested': {
    when: 'An NDR rule asks for the buyer to be messaged (reattempt with a new date, address correction or cancel); a messaging channel sends it.',
    data: {
      ...SHIPMENT,
      ...RULE_RUN,
      rto_after: nullable(
        'string',
        'When the rule initiates an RTO if the buyer has not answered (no reattempt asked); null: never.',
      ),
    },
  },
  'shipment.buyer_message_sent': {
    when: "The provider accepted a message to the buyer, whatever it was for: a COD order's confirmation, an NDR's choices or an address to complete (docs/rto.md).",
    data: { ...SHIPMENT, message: BUYER_MESSAGE },
  },
  'shipment.buyer_message_failed': {
    when: 'A message to the buyer failed for good: the provider refused it, or its last retry failed (docs/rto.md).',
    data: { ...SHIPMENT, message: BUYER_MESSAGE },
  },
  'return.created': { when: 'A return was created (reverse-order, reverse-order-orchestration).', data: RETURN },
  'return.booked': {
    when: 'A courier and AWB were assigned to a return.',
    data: {
      ...RETURN,
      ...BOOKED,
      qc_enabled: { type: 'boolean', description: 'Whether the courier checks the items at pickup.' },
    },
  },
  'return.status_changed': { when: "The return's status or sub-status moved.", data: RETURN_MOVE },
  'return.cancelled': { when: 'The return moved to return_cancelled.', data: RETURN_MOVE },
  'return.delivered': { when: 'The return reached the warehouse (return_delivered).', data: RETURN_MOVE },
  'return.tracking_added': {
    when: "A scan was added to the return's tracking history.",
    data: { ...RETURN, ...TRACKING('return') },
  },
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
      changed: {
        type: 'array',
        items: { type: 'string' },
        description: 'The fields the request changed, or ["status"].',
      },
    },
  },
  'cod.remittance_applied': {
    when: 'A COD remittance file was taken in (POST /cod/remittance-files, or the CLI) and some of its lines applied.',
    data: {
      import: {
        type: 'object',
        description:
          'The import as POST /cod/remittance-files answers it, without its problems: id, format, counts, applied_amount (rupees), utrs.',
      },
    },
  },
  'cod.discrepancy_found': {
    when: 'The COD money and the ledger disagree: short_paid, over_paid, paid_not_delivered (by a remittance file), missing_from_remittance (the daily check).',
    data: { discrepancy: { type: 'object', description: 'The discrepancy as GET /cod/discrepancies lists it.' } },
  },
  'pickup.created': {
    when: 'A pickup was requested for a warehouse, courier and day (POST /pickups): its shipments are manifested.',
    data: { pickup: { type: 'object', description: 'The pickup as GET /pickups/:id answers it, with its shipments.' } },
  },
  'pickup.missed': {
    when: "A pickup's day ended (India time) with some of its parcels not picked up by the courier (the hourly check).",
    data: {
      pickup: {
        type: 'object',
        description: 'The pickup as GET /pickups/:id answers it: `missed_awbs` names the parcels still waiting.',
      },
    },
  },
  'exchange.created': {
    when: 'An exchange was booked (POST /exchange-order-orchestration): its replacement and the pickup of the old item.',
    data: { exchange: EXCHANGE_DATA },
  },
  'exchange.replacement_released': {
    when: "A replacement the account's terms held was released by the courier's scan of the old item's pickup (or its QC pass).",
    data: { exchange: EXCHANGE_DATA },
  },
  'return_request.created': {
    when: "A buyer's return request was made (POST /return-requests): pending the merchant's decision.",
    data: { return_request: RETURN_REQUEST_DATA },
  },
  'return_request.approved': {
    when: "The merchant approved a return request: its return is booked (return_id), the courier's pickup to follow.",
    data: { return_request: RETURN_REQUEST_DATA },
  },
  'return_request.rejected': {
    when: 'The merchant rejected a return request, with the words the buyer is told (decision_note).',
    data: { return_request: RETURN_REQUEST_DATA },
  },
  'refund.created': {
    when: "A refund was recorded for an approved return request the buyer wants their money back for: pending, due when the store's release rule says (released_at).",
    data: { refund: REFUND_DATA },
  },
  'refund.released': {
    when: "A refund fell due by the store's release rule: the return picked up, delivered to the warehouse, or through QC. Pay it now.",
    data: { refund: REFUND_DATA },
  },
  'refund.initiated': {
    when: 'The payment system took the refund (POST /refunds/:id/initiate).',
    data: { refund: REFUND_DATA },
  },
  'refund.completed': {
    when: 'The refund was paid, with its UTR (POST /refunds/:id/complete).',
    data: { refund: REFUND_DATA },
  },
  'refund.failed': {
    when: 'The payment failed (POST /refunds/:id/fail), with the reason: initiate it again once put right.',
    data: { refund: REFUND_DATA },
  },
  'refund.cancelled': {
    when: "The refund's return was cancelled before the refund fell due (the pickup called off by you or the courier): nothing is owed.",
    data: { refund: REFUND_DATA },
  },
  'exchange.qc_failed': {
    when: "The old item failed the courier's quality check at pickup: the merchant decides what becomes of the exchange.",
    data: { exchange: EXCHANGE_DATA },
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
    description:
      '`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the endpoint secret (Standard Webhooks; docs/webhooks.md).',
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
          sequence: {
            type: 'integer',
            minimum: 1,
            description: '1, 2, 3… per subject, in the order its changes committed.',
          },
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
          content: {
            'application/json': { schema: body, ...(type === EXAMPLE_EVENT.type && { example: EXAMPLE_EVENT }) },
          },
        },
        responses: { '2XX': { description: 'Received.' } },
      };
      return [type, { post: operation }];
    }),
  );
}
