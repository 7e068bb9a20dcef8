import { granularReturnStatus, granularStatus } from '../../domain/shipment/granular-statuses.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';

/**
 * Velocity's webhook format, as far as it is pure vocabulary: its three event names, which of
 * Dakiya's events each one is made from, and the status word it reports. The body itself is
 * built beside it (velocity-format.ts).
 */
export const VELOCITY_WEBHOOK_EVENTS = ['status_change', 'tracking_addition', 'qc_update'] as const;
export type VelocityWebhookEvent = (typeof VELOCITY_WEBHOOK_EVENTS)[number];

export const WEBHOOK_FORMATS = ['standard', 'velocity'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** What a status step says beyond its status, when the event knows it (see velocityStatusWord). */
export interface StepFacts {
  courierBooked?: boolean;
  rtoStarted?: boolean;
  attemptCount?: number;
}

/**
 * The one place that chooses Velocity's granular status word for a webhook: the same mapping as
 * tracking and the listing (domain/shipment/granular-statuses.ts), for the step's own status. What the step does
 * not say is read from the status itself: any status past `pending`, or with a sub-status, has a
 * courier, an `rto_*` status has begun its RTO, and no reattempt is pending at a status change (a
 * reattempt is a merchant's action, not a scan). A word the tables do not know (an event written
 * by an older version) is passed on as it is.
 */
export function velocityStatusWord(
  kind: 'shipment' | 'return',
  status: string,
  subStatus: string | null,
  facts: StepFacts = {},
): string {
  try {
    if (kind === 'return') {
      return granularReturnStatus({
        status: status as ReturnStatus,
        subStatus,
        qcStatus: subStatus === 'qc_failed' ? 'failed' : null,
      });
    }
    return granularStatus({
      status: status as ShipmentStatus,
      subStatus,
      courierBooked: facts.courierBooked ?? (status !== 'pending' || subStatus !== null),
      rtoStarted: facts.rtoStarted ?? status.startsWith('rto_'),
      attemptCount: facts.attemptCount ?? 0,
      reattemptRequested: false,
    });
  } catch {
    return status;
  }
}

/** Whether a courier is booked, from the shipment as the event recorded it, when it carries one. */
function stepFacts(data: Record<string, unknown>): StepFacts {
  const attributes = (data.shipment as { attributes?: Record<string, unknown> } | undefined)?.attributes;
  return attributes && 'carrier' in attributes ? { courierBooked: attributes.carrier != null } : {};
}

/**
 * The Velocity event a Dakiya event is delivered as, if any. A status change counts only when
 * Velocity's word moves (a hub scan inside in_transit is a tracking_addition, not a
 * status_change); the milestone events repeat a status change and are not sent again.
 */
export function velocityEventOf(event: {
  type: string;
  data: Record<string, unknown>;
}): VelocityWebhookEvent | undefined {
  switch (event.type) {
    case 'shipment.status_changed':
    case 'return.status_changed': {
      const kind = event.type === 'shipment.status_changed' ? 'shipment' : 'return';
      const { from, from_sub_status: fromSub, to, sub_status: sub } = event.data as Record<string, string | null>;
      const facts = stepFacts(event.data);
      return velocityStatusWord(kind, String(from), fromSub ?? null, facts) ===
        velocityStatusWord(kind, String(to), sub ?? null, facts)
        ? undefined
        : 'status_change';
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
