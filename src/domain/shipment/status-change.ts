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
  description?: string | null;
  /** The courier's own id of the scan, when it sent one (a replay is matched on it). */
  eventId?: string | null;
  /** A multi-piece shipment's box the scan is of (1 to its count); 0 or absent otherwise. */
  boxNo?: number;
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
  const latest = (of: (event: HistoryEvent) => boolean) => {
    let cause: HistoryEvent | undefined;
    for (const event of history) {
      if (!of(event) || !after.appliedEventIds.has(event.id)) continue;
      const later =
        !cause ||
        event.eventTime > cause.eventTime ||
        (event.eventTime.getTime() === cause.eventTime.getTime() && event.receivedAt >= cause.receivedAt);
      if (later) cause = event;
    }
    return cause;
  };
  // A multi-piece shipment's roll-up may be a status no scan reported (others / box_exception):
  // then the latest applied scan put it there.
  const cause = latest((event) => event.status === after.status) ?? latest(() => true);
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

/** How a status machine recomputes a state, for `journeyEvents`. */
export interface Machine<E extends HistoryEvent, S extends StatusAfter> {
  kind: 'shipment' | 'return';
  fold(events: readonly E[]): S;
  /** Fields a status change carries from the state it reached (attempt count, reasons, QC). */
  extra(state: S): Record<string, unknown>;
  /** Further events a step raises after its status change (a return's QC result). */
  also?(previous: S, state: S, cause: E): { type: EventType; change: Record<string, unknown> }[];
  /**
   * True when the state is not simply its last applied event's (a multi-piece shipment's roll-up
   * of its boxes, box-rollup.ts): a step then moved the parcel when the state it reached did.
   */
  derived?: boolean;
  /** More of the state a scan may change without moving the status (a multi-piece shipment's boxes). */
  detail?(state: S): unknown;
}

type Raised = { type: EventType; change: Record<string, unknown> }[];

/** A recorded scan as its `*.tracking_added` event carries it, with where it left the parcel. */
const trackingAdded = (kind: 'shipment' | 'return', scan: HistoryEvent, at: StatusBefore): Raised[number] => ({
  type: kind === 'shipment' ? 'shipment.tracking_added' : 'return.tracking_added',
  change: {
    tracking: {
      id: scan.id,
      status: scan.status,
      sub_status: scan.subStatus,
      event_time: scan.eventTime.toISOString(),
      location: scan.location,
      description: scan.description ?? null,
      ...(scan.boxNo ? { box_no: scan.boxNo } : {}),
    },
    status: at.status,
    sub_status: at.subStatus,
  },
});

/**
 * The events one batch of new scans raises, in the parcel's order: one status change (and its
 * milestone event) per status or sub-status the parcel passed through, each with its own scan's
 * place and time and the counters as they stood then, and one `tracking_added` per new courier scan. A
 * batch of picked up, out for delivery and delivered is three changes, not one from pending to
 * delivered, so receivers and customers hear of every stage. When the new scans rewrite the past
 * (a late scan lands before scans already applied and changes what followed), the journey since
 * is not replayed: one change from where the parcel was to where it is now, as `statusChangeEvents`.
 */
export function journeyEvents<E extends HistoryEvent, S extends StatusAfter>(
  machine: Machine<E, S>,
  before: StatusBefore,
  history: readonly E[],
  fresh: ReadonlySet<string>,
  after: S,
  /** Courier scans are announced one by one; a merchant's own event (cancel-order) is not a scan. */
  scans = true,
): Raised {
  const byId = new Map(history.map((e) => [e.id, e]));
  const previous = machine.fold(history.filter((e) => !fresh.has(e.id)));
  const old = [...previous.appliedEventIds];
  const path = [...after.appliedEventIds];
  const appended = old.every((id, i) => path[i] === id);
  const steps = appended ? path.slice(old.length) : [];
  const place = new Map(path.map((id, i) => [id, i]));
  // The new steps and the new scans in the order the machine applied them (kept-aside scans after
  // those of their instant).
  const timeline = [...new Set([...steps, ...fresh])]
    .map((id) => byId.get(id)!)
    .sort(
      (a, b) =>
        a.eventTime.getTime() - b.eventTime.getTime() ||
        a.receivedAt.getTime() - b.receivedAt.getTime() ||
        (place.get(a.id) ?? Number.MAX_SAFE_INTEGER) - (place.get(b.id) ?? Number.MAX_SAFE_INTEGER),
    );
  const raised: Raised = appended ? [] : statusChangeEvents(machine.kind, before, after, history, machine.extra(after));
  const stepSet = new Set(steps);
  let from: StatusBefore = appended ? before : after;
  let state: S = previous;
  for (const event of timeline) {
    const scanMoved = event.status !== from.status || event.subStatus !== from.subStatus;
    // A repeat of the stage needs no state of its own unless the machine raises more from it.
    if (stepSet.has(event.id) && (scanMoved || machine.also || machine.derived)) {
      const i = place.get(event.id)!;
      const reached = i === path.length - 1 ? after : machine.fold(path.slice(0, i + 1).map((id) => byId.get(id)!));
      const moved = machine.derived
        ? reached.status !== from.status || reached.subStatus !== from.subStatus
        : scanMoved;
      if (moved) {
        const change = {
          from: from.status,
          from_sub_status: from.subStatus,
          to: reached.status,
          sub_status: reached.subStatus,
          location: event.location,
          event_time: event.eventTime.toISOString(),
          ...machine.extra(reached),
        };
        raised.push(...statusChangeTypes(machine.kind, reached.status).map((type) => ({ type, change })));
      }
      raised.push(...(machine.also?.(state, reached, event) ?? []));
      from = { status: reached.status, subStatus: reached.subStatus };
      state = reached;
    }
    if (scans && fresh.has(event.id)) raised.push(trackingAdded(machine.kind, event, from));
  }
  return raised;
}

/** What one event of a courier's batch did: moved the parcel, or changed nothing, and why. */
/**
 * What one scan did: changed the parcel, or not, and why: a `duplicate` of a recorded scan, one the
 * status machine does not apply where the parcel is (`not_applied`: kept for the operator), or one
 * it applied with no change to show (`no_change`: the parcel was already there, or later scans
 * decide).
 */
export type ScanOutcome =
  | { changed: true }
  /** `applied`: whether the machine applies the recorded scan this one repeats. */
  | { changed: false; kind: 'duplicate'; applied: boolean; reason: string }
  | { changed: false; kind: 'not_applied' | 'no_change'; reason: string };

/**
 * What each scan does to a finished parcel whose history was pruned (consumers/retention: all but
 * its last scan gone): nothing. Its status was read off the whole history, which a fold of what is
 * left cannot repeat (a late scan folded with the last alone would read a delivered parcel back to
 * pending), so it stands; the scans are kept as not applied, with this reason, not dropped.
 */
export function prunedHistoryOutcomes(count: number, status: string): ScanOutcome[] {
  const reason = `the parcel finished ${status} and its scans but the last were pruned: its status stands`;
  return Array.from({ length: count }, () => ({ changed: false, kind: 'not_applied', reason }));
}

const stage = (state: StatusAfter) => (state.subStatus ? `${state.status} (${state.subStatus})` : state.status);

/**
 * Per event sent, in the order sent (`inserted`: its new row's id, or null for a replay of a
 * recorded one): whether it changed the parcel (its status, sub-status or the counters the machine
 * reports) and, when it did not, why. Each new event is judged on the history with the batch's
 * earlier events and without its later ones, so in a batch of picked up, picked up again and out
 * for delivery only the repeat changed nothing.
 */
export function scanOutcomes<E extends HistoryEvent, S extends StatusAfter>(
  machine: Machine<E, S>,
  history: readonly E[],
  sent: readonly { status: string; eventTime: Date; eventId?: string | null; boxNo?: number }[],
  inserted: readonly (string | null)[],
): ScanOutcome[] {
  const pending = new Set(inserted.filter((id): id is string => id !== null));
  const summary = (state: S) =>
    JSON.stringify([state.status, state.subStatus, machine.extra(state), machine.detail?.(state)]);
  let state = machine.fold(history.filter((e) => !pending.has(e.id)));
  return sent.map((event, k): ScanOutcome => {
    const id = inserted[k];
    if (!id) {
      // A multi-piece shipment's boxes each have their own scans: the one repeated is the same box's.
      const original = history.find(
        (e) =>
          (e.boxNo ?? 0) === (event.boxNo ?? 0) &&
          ((event.eventId != null && e.eventId === event.eventId) ||
            (e.status === event.status && e.eventTime.getTime() === event.eventTime.getTime())),
      );
      const of = original
        ? `the ${original.status} scan at ${original.eventTime.toISOString()} (received ${original.receivedAt.toISOString()})`
        : 'a scan already recorded';
      const applied = original !== undefined && machine.fold(history).appliedEventIds.has(original.id);
      return { changed: false, kind: 'duplicate', applied, reason: `duplicate of ${of}: nothing changed` };
    }
    pending.delete(id);
    const previous = state;
    state = machine.fold(history.filter((e) => !pending.has(e.id)));
    if (summary(state) !== summary(previous)) return { changed: true };
    const scan = history.find((e) => e.id === id)!;
    if (!state.appliedEventIds.has(id)) {
      const reason = `the status machine does not apply ${event.status} at its event_time (the ${machine.kind} is ${stage(state)}): recorded in its history, status unchanged`;
      return { changed: false, kind: 'not_applied', reason };
    }
    const reason =
      scan.status === state.status && scan.subStatus === state.subStatus
        ? `the ${machine.kind} was already ${stage(state)}: recorded in its history, status unchanged`
        : `recorded in its history before later scans, which leave the ${machine.kind} ${stage(state)}: status unchanged`;
    return { changed: false, kind: 'no_change', reason };
  });
}

/**
 * Recorded scans that scans read again (a replay after a courier's table was fixed) replace: a
 * scan of the same event id that the machine never applied and that reads differently now. Its row
 * goes and the new reading is recorded in its place; a scan the machine applied is history and
 * stays, whatever the table says now.
 */
export function replacedByReread<E extends HistoryEvent, S extends StatusAfter>(
  machine: Machine<E, S>,
  history: readonly E[],
  reread: readonly { status: string; subStatus?: string | null; eventTime: Date; eventId?: string | null }[],
): string[] {
  const applied = machine.fold(history).appliedEventIds;
  const replaced: string[] = [];
  for (const scan of reread) {
    const old = history.find((e) => scan.eventId != null && e.eventId === scan.eventId);
    if (!old || applied.has(old.id)) continue;
    const same =
      old.status === scan.status &&
      old.subStatus === (scan.subStatus ?? null) &&
      old.eventTime.getTime() === scan.eventTime.getTime();
    if (!same) replaced.push(old.id);
  }
  return replaced;
}
