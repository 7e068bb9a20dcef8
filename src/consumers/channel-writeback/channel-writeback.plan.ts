import type { Tx } from '../../base/db/client.js';
import type { TrackingUpdate } from '../../channels/channel-adapter.js';
import { LOST_SUB_STATUSES } from '../../domain/shipment/status-machine.js';
import type { StoredEvent } from '../../events/events.repository.js';
import type { OutboxConsumer } from '../../events/outbox.js';
import * as repo from './channel-writeback.repository.js';

// Which shipment events a store hears of, and what it is told: the planning half of the
// write-back, run by the outbox consumer in its cursor's transaction (no store is called here).

/** What a fulfil or update job sends; the store order's id is read from the ledger when it is sent. */
export interface FulfilmentPayload {
  awb: string;
  courierName: string;
  trackingUrl: string;
  notifyCustomer: boolean;
  /** ISO time. */
  shippedAt: string;
}

/** What a track job sends (TrackingUpdate with its time as ISO text). */
export type TrackPayload = Omit<TrackingUpdate, 'happenedAt'> & { happenedAt: string };

interface Snapshot {
  attributes?: {
    tracking_number?: string | null;
    track_url?: string | null;
    carrier?: { name?: string } | null;
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The parcel a booking or a re-issued label names, from the event's snapshot of the shipment. */
function fulfilmentOf(event: StoredEvent, notifyCustomer: boolean): FulfilmentPayload | null {
  const shipment = (event.data.shipment ?? {}) as Snapshot;
  const awb = text(event.data.awb) ?? text(shipment.attributes?.tracking_number);
  const courierName = text(event.data.courier_name) ?? text(shipment.attributes?.carrier?.name);
  const trackingUrl = text(shipment.attributes?.track_url);
  if (!awb || !courierName || !trackingUrl) return null;
  return { awb, courierName, trackingUrl, notifyCustomer, shippedAt: event.createdAt.toISOString() };
}

/**
 * The store's word for a status the shipment moved to (Shopify's fulfilment event statuses), or
 * null for a move the store keeps no word for: pickup scans, the legs of the RTO after it began, a
 * hold. An NDR is an attempted delivery; an RTO, a lost, damaged or destroyed parcel a failure.
 */
export function trackingStatusOf(to: string, subStatus: string | null): TrackingUpdate['status'] | null {
  switch (to) {
    case 'in_transit':
      return 'in_transit';
    case 'out_for_delivery':
      return 'out_for_delivery';
    case 'ndr_raised':
      return 'attempted_delivery';
    case 'delivered':
      return 'delivered';
    case 'rto_initiated':
      return 'failure';
    case 'others':
      return subStatus !== null && LOST_SUB_STATUSES.has(subStatus) ? 'failure' : null;
    default:
      return null;
  }
}

const words = (value: string) => value.replaceAll('_', ' ');

/** What the buyer reads beside the status in the store (the status change carries no courier words). */
function messageOf(status: TrackingUpdate['status'], data: Record<string, unknown>): string {
  const sub = text(data.sub_status);
  switch (status) {
    case 'in_transit':
      return 'In transit';
    case 'out_for_delivery':
      return 'Out for delivery';
    case 'attempted_delivery': {
      const reason = text(data.ndr_reason) ?? sub;
      return reason ? `Delivery attempted: ${words(reason)}` : 'Delivery attempted';
    }
    case 'delivered':
      return 'Delivered';
    case 'failure': {
      if (data.to === 'rto_initiated') {
        const reason = text(data.rto_reason);
        return reason ? `Returning to the sender: ${words(reason)}` : 'Returning to the sender';
      }
      return sub ? `Delivery failed: ${words(sub)}` : 'Delivery failed';
    }
  }
}

/**
 * A scan's status change as the store is told it, or null: only a move to another status is told
 * (a sub-status moving within a stage, another hub, is not), and only to one the store has a word for.
 */
export function trackPayloadOf(event: StoredEvent): TrackPayload | null {
  const { from, to } = event.data;
  if (typeof to !== 'string' || to === from) return null;
  const status = trackingStatusOf(to, text(event.data.sub_status));
  if (!status) return null;
  return {
    status,
    message: messageOf(status, event.data),
    happenedAt: text(event.data.event_time) ?? event.createdAt.toISOString(),
    city: text(event.data.location),
  };
}

const READS = ['shipment.booked', 'shipment.status_changed', 'shipment.cancelled', 'shipment.label_reissued'];

/**
 * Per event of the batch, in the log's order, the job its shipment's store is owed, for shipments
 * that came from a store order of a connected channel: a booking fulfils (or updates, when the
 * store was told of another AWB and not of a cancellation since), a re-issued label with a new AWB
 * updates, a status move is told, a cancellation cancels.
 */
export async function planWritebacks(tx: Tx, events: StoredEvent[], now: Date): Promise<void> {
  const byAccount = new Map<string, StoredEvent[]>();
  for (const event of events) {
    if (event.subjectType !== 'shipment' || !READS.includes(event.type) || event.dataSkipped) continue;
    byAccount.set(event.accountId, [...(byAccount.get(event.accountId) ?? []), event]);
  }
  for (const [accountId, list] of byAccount) {
    const links = await repo.linksOf(tx, accountId, [...new Set(list.map((e) => e.subjectId))]);
    const rows: repo.NewWriteback[] = [];
    for (const event of list) {
      const link = links.get(event.subjectId);
      if (!link?.connected) continue;
      const job = (kind: repo.WritebackKind, payload: FulfilmentPayload | TrackPayload | Record<string, never>) =>
        rows.push({
          salesChannelId: link.salesChannelId,
          channelOrderRowId: link.channelOrderRowId,
          shipmentId: event.subjectId,
          eventId: event.id,
          kind,
          payload: payload as unknown as Record<string, unknown>,
          status: 'pending',
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        });
      if (event.type === 'shipment.booked' || event.type === 'shipment.label_reissued') {
        const fulfilment = fulfilmentOf(event, link.notifyCustomer);
        if (!fulfilment || fulfilment.awb === link.plannedAwb) continue;
        // A label re-issued under the AWB the store has tells it nothing; one under a new AWB does.
        if (event.type === 'shipment.label_reissued' && link.plannedAwb === null) continue;
        job(link.plannedAwb === null ? 'fulfil' : 'update', fulfilment);
        link.plannedAwb = fulfilment.awb;
      } else if (event.type === 'shipment.status_changed') {
        const update = trackPayloadOf(event);
        if (update) job('track', update);
      } else {
        job('cancel', {});
        link.plannedAwb = null;
      }
    }
    await repo.insertWritebacks(tx, accountId, rows);
  }
}

/**
 * The write-back's outbox consumer: shipment events of store orders become jobs, in the cursor's
 * transaction, due at once by `now` (the app's clock, which the sends read too).
 */
export const channelWritebackConsumer = (now: () => Date): OutboxConsumer => ({
  name: 'channel-writeback',
  reads: READS,
  // An account without a connected store has nothing to write back: its snapshots are not read.
  readsWhen: repo.HAS_CONNECTED_CHANNEL,
  handle: (tx, events) => planWritebacks(tx, events, now()),
});
