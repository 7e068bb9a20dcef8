/**
 * Every event type the log records, and what makes each. Pure data: the OpenAPI payload
 * schemas, the `type[]` filter and webhook subscriptions all read this one list.
 */
export const SHIPMENT_EVENT_TYPES = [
  'shipment.created',
  'shipment.booked',
  'shipment.status_changed',
  'shipment.cancelled',
  'shipment.ndr_raised',
  'shipment.reattempt_requested',
  'shipment.rto_initiated',
  'shipment.delivered',
  'shipment.tracking_added',
  'shipment.box_exception',
  'shipment.label_reissued',
  'shipment.weight_discrepancy_opened',
  'shipment.weight_discrepancy_accepted',
  'shipment.weight_discrepancy_disputed',
  'shipment.weight_discrepancy_resolved',
  'shipment.confirmation_sent',
  'shipment.confirmation_confirmed',
  'shipment.confirmation_cancelled',
  'shipment.confirmation_no_response',
  'shipment.cod_to_prepaid',
  'shipment.address_flagged',
  'shipment.address_checked',
  'shipment.address_updated',
  'shipment.ndr_action_taken',
  'shipment.ndr_action_refused',
  'shipment.ndr_buyer_message_requested',
  'shipment.buyer_message_sent',
  'shipment.buyer_message_failed',
] as const;

export const RETURN_EVENT_TYPES = [
  'return.created',
  'return.booked',
  'return.status_changed',
  'return.cancelled',
  'return.delivered',
  'return.tracking_added',
  'return.qc_updated',
] as const;

export const STORE_EVENT_TYPES = ['store.updated'] as const;

/** The COD ledger's: a remittance file applied, and each discrepancy between the money and the ledger. */
export const COD_EVENT_TYPES = ['cod.remittance_applied', 'cod.discrepancy_found'] as const;

/** Pickups and their manifests: one requested, and one whose day ended with parcels not picked up. */
export const PICKUP_EVENT_TYPES = ['pickup.created', 'pickup.missed'] as const;

/**
 * Exchanges (docs/returns.md): one booked, its replacement released by the old item's pickup or QC
 * pass, and the old item failing its QC.
 */
export const EXCHANGE_EVENT_TYPES = [
  'exchange.created',
  'exchange.replacement_released',
  'exchange.qc_failed',
] as const;

/** Returns the buyer asks for (docs/returns.md): one made, and the merchant's decision. */
export const RETURN_REQUEST_EVENT_TYPES = [
  'return_request.created',
  'return_request.approved',
  'return_request.rejected',
] as const;

/**
 * Refunds of approved return requests (docs/returns.md): one recorded, fallen due by the store's
 * release rule, and the payment system's steps.
 */
export const REFUND_EVENT_TYPES = [
  'refund.created',
  'refund.released',
  'refund.initiated',
  'refund.completed',
  'refund.failed',
  'refund.cancelled',
] as const;

/** The types an account's event log lists and webhooks subscribe to. */
export const EVENT_TYPES = [
  ...SHIPMENT_EVENT_TYPES,
  ...RETURN_EVENT_TYPES,
  ...STORE_EVENT_TYPES,
  ...COD_EVENT_TYPES,
  ...PICKUP_EVENT_TYPES,
  ...EXCHANGE_EVENT_TYPES,
  ...RETURN_REQUEST_EVENT_TYPES,
  ...REFUND_EVENT_TYPES,
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent to one endpoint by `POST /webhooks/:id/test`; never listed by `GET /events`. */
export const TEST_EVENT_TYPE = 'webhook.test';

export type SubjectType =
  | 'shipment'
  | 'return'
  | 'store'
  | 'webhook_endpoint'
  | 'cod_remittance_import'
  | 'cod_receivable'
  | 'pickup'
  | 'exchange'
  | 'return_request'
  | 'refund';

/**
 * Forward statuses that also raise an event of their own beside `shipment.status_changed`, so a
 * receiver that wants only deliveries need not subscribe to every move.
 */
export const SHIPMENT_MILESTONE_EVENTS: Readonly<Record<string, EventType>> = {
  cancelled: 'shipment.cancelled',
  ndr_raised: 'shipment.ndr_raised',
  rto_initiated: 'shipment.rto_initiated',
  delivered: 'shipment.delivered',
};

export const RETURN_MILESTONE_EVENTS: Readonly<Record<string, EventType>> = {
  return_cancelled: 'return.cancelled',
  return_delivered: 'return.delivered',
};

/** The events one status change raises: `status_changed` first, then its milestone event if any. */
export function statusChangeTypes(kind: 'shipment' | 'return', status: string): EventType[] {
  const milestone = (kind === 'shipment' ? SHIPMENT_MILESTONE_EVENTS : RETURN_MILESTONE_EVENTS)[status];
  const changed = kind === 'shipment' ? 'shipment.status_changed' : 'return.status_changed';
  return milestone ? [changed, milestone] : [changed];
}
