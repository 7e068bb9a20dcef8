import { type EventType, statusChangeTypes } from './event-types.js';

export interface StatusBefore {
  status: string;
  subStatus: string | null;
}

/** A recorded courier or merchant event, as the status machines load them. */
export interface HistoryEvent {
  id: string;
  status: string;
  subStatus: string | null;
  eventTime: Date;
  receivedAt: Date;
  location: string | null;
}

export interface StatusAfter {
  status: string;
  subStatus: string | null;
  appliedEventIds: ReadonlySet<string>;
}

/**
 * The events a recomputed state raises, or none when neither status nor sub_status moved (a
 * replay, or a scan the machine kept in the history without moving the parcel). Location and
 * time come from the event that put the parcel in its new stage: the latest applied one of that
 * status, which need not be the one that just arrived (a late scan lands in its place in time).
 */
export function statusChangeEvents(
  kind: 'shipment' | 'return',
  before: StatusBefore,
  after: StatusAfter,
  history: readonly HistoryEvent[],
  extra: Record<string, unknown> = {},
): { type: EventType; change: Record<string, unknown> }[] {
  if (before.status === after.status && before.subStatus === after.subStatus) return [];
  let cause: HistoryEvent | undefined;
  for (const event of history) {
    if (event.status !== after.status || !after.appliedEventIds.has(event.id)) continue;
    const later =
      !cause || event.eventTime > cause.eventTime || (event.eventTime.getTime() === cause.eventTime.getTime() && event.receivedAt >= cause.receivedAt);
    if (later) cause = event;
  }
  const change = {
    from: before.status,
    from_sub_status: before.subStatus,
    to: after.status,
    sub_status: after.subStatus,
    location: cause?.location ?? null,
    event_time: cause?.eventTime.toISOString() ?? null,
    ...extra,
  };
  return statusChangeTypes(kind, after.status).map((type) => ({ type, change }));
}
