/** SPEC section 3's shipment statuses. */
export const SHIPMENT_STATUSES = [
  'pending',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'ndr_raised',
  'rto_initiated',
  'rto_in_transit',
  'rto_delivered',
  'cancelled',
  'others',
] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<ShipmentStatus> = new Set(['delivered', 'rto_delivered', 'cancelled']);

/**
 * The sub-statuses of `others` that say the parcel will not arrive: the courier lost, damaged or
 * destroyed it. Not terminal (a lost parcel found goes on), but nothing more is expected of it.
 */
export const LOST_SUB_STATUSES: ReadonlySet<string> = new Set(['lost', 'damaged', 'destroyed']);

/**
 * A shipment that is over for its buyer: delivered, returned to origin, cancelled, or lost (damaged,
 * destroyed). Once it has stayed so for their periods, its scans are pruned and its buyer anonymised
 * (the SQL twin is base/db/schema's `shipmentFinished`).
 */
export function isFinished(status: ShipmentStatus, subStatus: string | null): boolean {
  return (
    TERMINAL_STATUSES.has(status) || (status === 'others' && subStatus !== null && LOST_SUB_STATUSES.has(subStatus))
  );
}

/**
 * Which status may follow which. A status may also repeat (another scan in the same stage), which
 * updates the granular sub_status but is not a transition. Anything else is kept in the history
 * without changing the shipment, so a late or duplicate scan never moves it backwards.
 */
export const TRANSITIONS: Readonly<Record<ShipmentStatus, readonly ShipmentStatus[]>> = {
  pending: ['in_transit', 'cancelled', 'others'],
  in_transit: ['out_for_delivery', 'ndr_raised', 'rto_initiated', 'delivered', 'others'],
  out_for_delivery: ['delivered', 'ndr_raised', 'in_transit', 'others'],
  ndr_raised: ['out_for_delivery', 'in_transit', 'rto_initiated', 'delivered', 'others'],
  rto_initiated: ['rto_in_transit', 'rto_delivered', 'others'],
  rto_in_transit: ['rto_delivered', 'others'],
  others: [
    'in_transit',
    'out_for_delivery',
    'ndr_raised',
    'rto_initiated',
    'rto_in_transit',
    'delivered',
    'rto_delivered',
  ],
  delivered: [],
  rto_delivered: [],
  cancelled: [],
};

/** Granular statuses (`sub_status`, the listing's `granular_status[]`) each status allows. */
export const SUB_STATUSES: Readonly<Record<ShipmentStatus, readonly string[]>> = {
  pending: ['pickup_scheduled', 'pickup_failed'],
  in_transit: [
    'picked_up',
    'in_transit',
    'reached_origin_hub',
    'departed_origin_hub',
    'reached_destination_hub',
    'misrouted',
  ],
  out_for_delivery: ['out_for_delivery'],
  delivered: ['delivered'],
  ndr_raised: [
    'customer_unavailable',
    'address_incomplete',
    'refused',
    'cod_not_ready',
    'premises_closed',
    'future_delivery_requested',
    'contact_unreachable',
    'other',
  ],
  rto_initiated: ['rto_initiated'],
  rto_in_transit: ['rto_in_transit', 'rto_reached_origin_hub', 'rto_out_for_delivery'],
  rto_delivered: ['rto_delivered'],
  cancelled: ['cancelled_by_merchant', 'cancelled_by_courier'],
  // box_exception is no scan's: a multi-piece shipment whose boxes split (box-rollup.ts).
  others: ['lost', 'damaged', 'destroyed', 'on_hold', 'box_exception'],
};

export const NDR_REASONS = [
  'customer_unavailable',
  'address_incomplete',
  'refused',
  'cod_not_ready',
  'premises_closed',
  'future_delivery_requested',
  'contact_unreachable',
  // A failed attempt whose courier code names no reason of the others (an out-of-area address, a
  // self-collect, an attempt not made): an NDR all the same.
  'other',
] as const;

export const RTO_REASONS = [
  'customer_refused',
  'customer_unreachable',
  'address_not_found',
  'max_attempts_exceeded',
  'cod_not_ready',
  'merchant_requested',
  'damaged_in_transit',
] as const;

/** The first arrival in these stages sets the listing's date columns. */
const STAGE_TIMESTAMPS = {
  in_transit: 'pickedUpAt',
  delivered: 'deliveredAt',
  cancelled: 'cancelledAt',
  rto_initiated: 'rtoInitiatedAt',
  rto_delivered: 'rtoDeliveredAt',
} as const satisfies Partial<Record<ShipmentStatus, string>>;

/**
 * Milestones written at booking, not by courier stages, in lifecycle order: recomputing the stages
 * from events leaves them alone. The promised delivery date is one (Velocity integrations read it).
 */
export const BOOKING_MILESTONES = [
  'order_created',
  'courier_assigned',
  'expected_delivery_date',
  'original_expected_delivery_date',
] as const;

/** The first arrival in each stage is a milestone, named here (SPEC leaves the names open). */
export const MILESTONE_NAMES: Readonly<Record<ShipmentStatus, string>> = {
  pending: 'pending',
  in_transit: 'picked_up',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  ndr_raised: 'ndr_raised',
  rto_initiated: 'rto_initiated',
  rto_in_transit: 'rto_in_transit',
  rto_delivered: 'rto_delivered',
  cancelled: 'cancelled',
  others: 'exception',
};

export interface StoredEvent {
  id: string;
  status: ShipmentStatus;
  subStatus: string | null;
  eventTime: Date;
  ndrReason: string | null;
  rtoReason: string | null;
  receivedAt: Date;
}

export interface ShipmentState {
  status: ShipmentStatus;
  subStatus: string | null;
  attemptCount: number;
  ndrReason: string | null;
  rtoReason: string | null;
  pickedUpAt: Date | null;
  deliveredAt: Date | null;
  cancelledAt: Date | null;
  rtoInitiatedAt: Date | null;
  rtoDeliveredAt: Date | null;
  milestones: { milestone: string; at: Date }[];
  /** Ids of the events that moved the shipment or repeated its current stage. */
  appliedEventIds: Set<string>;
}

/** The order a shipment's events are applied in: event_time, ties in the order they arrived, then in lifecycle order. */
export const compareEvents = (a: StoredEvent, b: StoredEvent) =>
  a.eventTime.getTime() - b.eventTime.getTime() ||
  a.receivedAt.getTime() - b.receivedAt.getTime() ||
  // Scans stamped with the same second: the lifecycle's own order, not the database's.
  SHIPMENT_STATUSES.indexOf(a.status) - SHIPMENT_STATUSES.indexOf(b.status);

/** A parcel's state before any event: pending, nothing reached. */
export function initialState(): ShipmentState {
  return {
    status: 'pending',
    subStatus: null,
    attemptCount: 0,
    ndrReason: null,
    rtoReason: null,
    pickedUpAt: null,
    deliveredAt: null,
    cancelledAt: null,
    rtoInitiatedAt: null,
    rtoDeliveredAt: null,
    milestones: [],
    appliedEventIds: new Set(),
  };
}

/**
 * One step of `foldEvents`: applies the event to the state when the machine takes it (`reached`:
 * the stages the state has been in, for its milestones). False when the event is kept in the
 * history without changing the parcel. A multi-piece shipment folds each box with it (box-rollup.ts).
 */
export function applyEvent(state: ShipmentState, reached: Set<ShipmentStatus>, event: StoredEvent): boolean {
  const repeat = event.status === state.status && !TERMINAL_STATUSES.has(state.status);
  if (!repeat && !TRANSITIONS[state.status].includes(event.status)) return false;
  state.appliedEventIds.add(event.id);
  state.status = event.status;
  state.subStatus = event.subStatus;
  if (event.status === 'ndr_raised') {
    state.ndrReason = event.ndrReason ?? event.subStatus;
    if (!repeat) state.attemptCount += 1;
  }
  if (event.status === 'delivered') state.attemptCount += 1;
  if (event.rtoReason) state.rtoReason = event.rtoReason;
  if (!reached.has(event.status)) {
    reached.add(event.status);
    markStage(state, event.status, event.eventTime);
  }
  return true;
}

/** The first arrival in a stage: its milestone, and its date column where it has one. */
export function markStage(state: ShipmentState, status: ShipmentStatus, at: Date) {
  state.milestones.push({ milestone: MILESTONE_NAMES[status], at });
  const column = STAGE_TIMESTAMPS[status as keyof typeof STAGE_TIMESTAMPS];
  if (column) state[column] = at;
}

/**
 * The shipment's state from all of its events, applied in event_time order (ties in the order they
 * arrived, then in lifecycle order) from `pending`, whatever order the courier sent them in. Recomputing from the full
 * history, rather than nudging the stored state, is what makes out-of-order delivery safe: an
 * event that arrives late lands in its place in time.
 */
export function foldEvents(events: readonly StoredEvent[]): ShipmentState {
  const state = initialState();
  const reached = new Set<ShipmentStatus>();
  for (const event of [...events].sort(compareEvents)) applyEvent(state, reached, event);
  return state;
}
