import type { StoredEvent } from '../../events/events.repository.js';
import { TEST_EVENT_TYPE } from '../../domain/shipment/event-types.js';
import {
  indiaTimestamp,
  VELOCITY_QC_STATUS,
  type VelocityWebhookEvent,
  velocityEventOf,
  velocityStatusWord,
} from './velocity-webhooks.js';

/** The header a Velocity-format endpoint's key travels in unless the merchant names another. */
export const DEFAULT_API_KEY_HEADER = 'x-api-key';

type Json = Record<string, unknown>;
type Subject = { id: string; attributes: Json };

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The India date of an instant the listing writes in UTC (the promised day's start). */
const indiaDate = (iso: string | null) => (iso ? indiaTimestamp(new Date(iso)).slice(0, 10) : null);

/**
 * The `data` Velocity's three events share, from the subject as the event recorded it and the
 * status the event reports (the step's own, not the batch's final one).
 */
function commonData(
  name: VelocityWebhookEvent,
  event: StoredEvent,
  status: string | null,
  subStatus: string | null,
): Json {
  const kind = event.subjectType === 'return' ? 'return' : 'shipment';
  const subject = (kind === 'return' ? event.data.return : event.data.shipment) as Subject;
  const a = subject.attributes;
  const order = (a.order ?? {}) as Json;
  const carrier = a.carrier as { id: string; name: string } | null;
  const milestones = (a.shipment_milestones ?? []) as { milestone: string; milestone_at: string }[];
  return {
    shipment_id: subject.id,
    tracking_number: text(a.tracking_number),
    order_id: text(order.id),
    order_external_id: text(order.external_id) ?? text(order.display_id),
    carrier_id: carrier?.id ?? null,
    carrier_name: carrier?.name ?? null,
    status:
      status === null
        ? null
        : velocityStatusWord(kind, status, subStatus, {
            courierBooked: carrier !== null,
            rtoStarted: status.startsWith('rto_') || (status === 'others' && a.rto_awb != null),
            attemptCount: Number(event.data.attempt_count ?? a.attempt_count ?? 0),
          }),
    sub_status: subStatus,
    ndr_reason: text(event.data.ndr_reason),
    estimated_delivery_date: text(a.expected_delivery_date),
    original_edd: indiaDate(
      milestones.find((m) => m.milestone === 'original_expected_delivery_date')?.milestone_at ?? null,
    ),
    shipment_type: kind === 'shipment' ? 'forward' : name === 'qc_update' ? 'return' : 'reverse',
    tracking_url: text(a.track_url),
  };
}

/**
 * The body Velocity's guide describes, for an event `velocityEventOf` maps: `{event, event_id,
 * event_timestamp, data}`. event_id is the Dakiya event's id (the same on every retry and
 * redelivery); event_timestamp is when it happened, India time, which orders a parcel's events.
 */
/** Whether `velocityBody` can write the event: Velocity has a word for it, or it is the test event. */
export function hasVelocityForm(event: Pick<StoredEvent, 'type' | 'data'>): boolean {
  return event.type === TEST_EVENT_TYPE || velocityEventOf(event) !== undefined;
}

export function velocityBody(event: StoredEvent): Json {
  // POST /webhooks/:id/test: Velocity has no test event; the envelope, with Dakiya's message.
  if (event.type === TEST_EVENT_TYPE) {
    return {
      event: 'webhook_test',
      event_id: event.id,
      event_timestamp: indiaTimestamp(event.createdAt),
      data: { message: event.data.message },
    };
  }
  const name = velocityEventOf(event);
  if (!name) throw new Error(`${event.type} has no Velocity form`);
  const d = event.data;
  const happened = text(d.event_time) ?? text((d.tracking as Json | undefined)?.event_time);
  let data: Json;
  if (name === 'status_change') {
    data = commonData(name, event, text(d.to), text(d.sub_status));
  } else if (name === 'tracking_addition') {
    const scan = d.tracking as Json;
    data = {
      ...commonData(name, event, text(d.status), text(d.sub_status)),
      new_tracking: {
        tracking_id: scan.id,
        event_date_time: indiaTimestamp(new Date(String(scan.event_time))),
        location: text(scan.location),
        remarks: text(scan.description),
      },
    };
  } else {
    const a = (d.return as Subject).attributes;
    data = {
      ...commonData(name, event, text(a.status), text(a.sub_status)),
      qc_status: VELOCITY_QC_STATUS[String(d.qc_status)] ?? d.qc_status,
      qc_failure_reason: text(d.qc_reason),
      // Couriers report no QC photographs to Dakiya.
      qc_images: [],
    };
  }
  return {
    event: name,
    event_id: event.id,
    event_timestamp: indiaTimestamp(happened ? new Date(happened) : event.createdAt),
    data,
  };
}

/** The merchant's static key, exactly as set (Velocity's receivers compare it as is: no scheme). */
export function velocityHeaders(endpoint: {
  apiKey: string | null;
  apiKeyHeader: string | null;
}): Record<string, string> {
  return endpoint.apiKey ? { [endpoint.apiKeyHeader ?? DEFAULT_API_KEY_HEADER]: endpoint.apiKey } : {};
}

/** Velocity's rule: only a 200 counts as delivered. */
export const velocityDelivered = (status: number) => status === 200;
