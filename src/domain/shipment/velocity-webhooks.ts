/**
 * Velocity's webhook format, as far as it is pure vocabulary: its three event names, which of
 * Dakiya's events each one is made from, and the status word it reports. The body itself is
 * built by the webhook consumer (consumers/webhooks/velocity-format.ts).
 */
export const VELOCITY_WEBHOOK_EVENTS = ['status_change', 'tracking_addition', 'qc_update'] as const;
export type VelocityWebhookEvent = (typeof VELOCITY_WEBHOOK_EVENTS)[number];

export const WEBHOOK_FORMATS = ['standard', 'velocity'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * The one place that chooses Velocity's granular status word for a Dakiya status and sub-status.
 * Until the mapping to Velocity's thirty statuses lands (branch `statuses`), this keeps Dakiya's
 * own words where Velocity has the same one and names the few it spells differently; swap the body
 * for that mapping and every Velocity webhook follows.
 */
export function velocityStatusWord(kind: 'shipment' | 'return', status: string, subStatus: string | null): string {
  if (kind === 'shipment') {
    if (status === 'pending' && subStatus === 'pickup_scheduled') return 'pickup_scheduled';
    if (status === 'pending' && subStatus === 'pickup_failed') return 'not_picked';
    if (status === 'others') return subStatus === 'lost' || subStatus === 'destroyed' ? 'lost' : 'need_attention';
    return status;
  }
  if (status === 'return_pickup_scheduled' && subStatus === 'return_pickup_failed') return 'return_not_picked';
  // Velocity has no picked-up word for returns: a collected return is in transit.
  if (status === 'return_picked_up') return 'return_in_transit';
  if (status === 'return_cancelled' && subStatus === 'qc_failed') return 'return_qc_failed';
  return status;
}

/**
 * The Velocity event a Dakiya event is delivered as, if any. A status change counts only when
 * Velocity's word moves (a hub scan inside in_transit is a tracking_addition, not a
 * status_change); the milestone events repeat a status change and are not sent again.
 */
export function velocityEventOf(event: { type: string; data: Record<string, unknown> }): VelocityWebhookEvent | undefined {
  switch (event.type) {
    case 'shipment.status_changed':
    case 'return.status_changed': {
      const kind = event.type === 'shipment.status_changed' ? 'shipment' : 'return';
      const { from, from_sub_status: fromSub, to, sub_status: sub } = event.data as Record<string, string | null>;
      return velocityStatusWord(kind, String(from), fromSub ?? null) === velocityStatusWord(kind, String(to), sub ?? null) ? undefined : 'status_change';
    }
    case 'shipment.tracking_added':
    case 'return.tracking_added':
      return 'tracking_addition';
    case 'return.qc_updated':
      return 'qc_update';
    default:
      return undefined;
  }
}

/** Velocity's names for Dakiya's QC results. */
export const VELOCITY_QC_STATUS: Readonly<Record<string, string>> = { passed: 'Passed', failed: 'Failed' };

const IST_OFFSET_MS = 330 * 60_000;

/** An instant as Velocity writes event_timestamp: India time with its offset, to the second. */
export function indiaTimestamp(instant: Date): string {
  return `${new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 19)}+05:30`;
}
