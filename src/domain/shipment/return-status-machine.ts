/** A return's statuses, in lifecycle order (ties between scans of one instant follow it). */
export const RETURN_STATUSES = [
  'return_requested',
  'return_pickup_scheduled',
  'return_picked_up',
  'return_in_transit',
  'return_delivered',
  'return_cancelled',
  'return_lost',
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_TERMINAL_STATUSES: ReadonlySet<ReturnStatus> = new Set([
  'return_delivered',
  'return_cancelled',
  'return_lost',
]);

/**
 * Which status may follow which; a non-terminal status may also repeat (another scan of the same
 * stage). Anything else is kept in the history without effect, as for forward shipments, so a late
 * or duplicate scan never moves a return backwards. Pickup may be skipped by a courier whose first
 * scan is at a hub, and a picked-up parcel may be delivered without a transit scan.
 */
export const RETURN_TRANSITIONS: Readonly<Record<ReturnStatus, readonly ReturnStatus[]>> = {
  return_requested: ['return_pickup_scheduled', 'return_cancelled'],
  return_pickup_scheduled: ['return_picked_up', 'return_in_transit', 'return_cancelled'],
  return_picked_up: ['return_in_transit', 'return_delivered', 'return_lost'],
  return_in_transit: ['return_delivered', 'return_lost'],
  return_delivered: [],
  return_cancelled: [],
  return_lost: [],
};

/** Granular statuses of return events; none is shared between two statuses. */
export const RETURN_SUB_STATUSES: Readonly<Record<ReturnStatus, readonly string[]>> = {
  return_requested: [],
  return_pickup_scheduled: ['return_pickup_rescheduled', 'return_pickup_failed'],
  return_picked_up: ['return_picked_up'],
  return_in_transit: ['return_in_transit', 'return_reached_hub', 'return_out_for_delivery'],
  return_delivered: ['return_delivered'],
  return_cancelled: ['return_cancelled_by_merchant', 'return_cancelled_by_courier', 'qc_failed', 'customer_refused'],
  return_lost: ['return_lost', 'return_damaged'],
};

/** What a courier may report: `return_requested` is the merchant's, before any courier is booked. */
export const CARRIER_RETURN_STATUSES: readonly ReturnStatus[] = RETURN_STATUSES.filter((s) => s !== 'return_requested');

export const QC_STATUSES = ['passed', 'failed'] as const;
export type QcStatus = (typeof QC_STATUSES)[number];

/**
 * The QC result is the courier's, at the customer's door: a pass comes with the pickup scan, a
 * fail with the cancellation (the agent leaves the parcel with the customer). A failure names why.
 * Returns a message for the courier, or null when the pair is sound.
 */
export function qcProblem(
  status: ReturnStatus,
  qcStatus: string | undefined,
  qcReason: string | undefined,
): string | null {
  if (qcStatus === undefined)
    return qcReason === undefined ? null : 'qc_reason belongs to events with qc_status failed';
  if (!(QC_STATUSES as readonly string[]).includes(qcStatus))
    return `qc_status must be one of ${QC_STATUSES.join(', ')}`;
  if (qcStatus === 'passed') {
    if (status !== 'return_picked_up') return 'qc_status passed belongs to return_picked_up events';
    if (qcReason !== undefined) return 'qc_reason belongs to events with qc_status failed';
  } else {
    if (status !== 'return_cancelled')
      return 'qc_status failed belongs to return_cancelled events (the parcel stays with the customer)';
    if (qcReason === undefined) return 'qc_reason is required when qc_status is failed';
  }
  return null;
}

export interface StoredReturnEvent {
  id: string;
  status: ReturnStatus;
  subStatus: string | null;
  eventTime: Date;
  qcStatus: QcStatus | null;
  qcReason: string | null;
  receivedAt: Date;
}

export interface ReturnState {
  status: ReturnStatus;
  subStatus: string | null;
  qcStatus: QcStatus | null;
  qcReason: string | null;
  pickedUpAt: Date | null;
  deliveredAt: Date | null;
  cancelledAt: Date | null;
  lostAt: Date | null;
  /** Ids of the events that moved the return or repeated its current stage. */
  appliedEventIds: Set<string>;
}

/** The first arrival in these stages dates the return (the listing's date_field values). */
const STAGE_TIMESTAMPS = {
  return_picked_up: 'pickedUpAt',
  return_delivered: 'deliveredAt',
  return_cancelled: 'cancelledAt',
  return_lost: 'lostAt',
} as const satisfies Partial<Record<ReturnStatus, string>>;

/**
 * A booked return's state from all of its events, applied in event_time order (ties in the order
 * received, then lifecycle order) from `start` — `return_pickup_scheduled` once a courier is
 * booked, since couriers only know returns by their AWB. Recomputed from the whole history, so a
 * late scan lands in its place in time. A transit or delivery scan with no pickup scan before it
 * still dates the pickup: the parcel cannot have moved without being collected. A parcel still with
 * the customer cannot be lost, so `return_lost` follows only a pickup.
 */
export function foldReturnEvents(
  events: readonly StoredReturnEvent[],
  start: ReturnStatus = 'return_pickup_scheduled',
): ReturnState {
  const ordered = [...events].sort(
    (a, b) =>
      a.eventTime.getTime() - b.eventTime.getTime() ||
      a.receivedAt.getTime() - b.receivedAt.getTime() ||
      RETURN_STATUSES.indexOf(a.status) - RETURN_STATUSES.indexOf(b.status),
  );
  const state: ReturnState = {
    status: start,
    subStatus: null,
    qcStatus: null,
    qcReason: null,
    pickedUpAt: null,
    deliveredAt: null,
    cancelledAt: null,
    lostAt: null,
    appliedEventIds: new Set(),
  };
  for (const event of ordered) {
    const repeat = event.status === state.status && !RETURN_TERMINAL_STATUSES.has(state.status);
    if (!repeat && !RETURN_TRANSITIONS[state.status].includes(event.status)) continue;
    state.appliedEventIds.add(event.id);
    state.status = event.status;
    state.subStatus = event.subStatus;
    if (event.qcStatus !== null) {
      state.qcStatus = event.qcStatus;
      state.qcReason = event.qcReason;
    }
    const column = STAGE_TIMESTAMPS[event.status as keyof typeof STAGE_TIMESTAMPS];
    if (column && state[column] === null) state[column] = event.eventTime;
    if ((event.status === 'return_in_transit' || event.status === 'return_delivered') && state.pickedUpAt === null) {
      state.pickedUpAt = event.eventTime;
    }
  }
  return state;
}
