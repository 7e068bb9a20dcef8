import {
  applyEvent,
  compareEvents,
  initialState,
  markStage,
  type ShipmentState,
  type ShipmentStatus,
  type StoredEvent,
} from './status-machine.js';

// A multi-piece shipment's status from its boxes' (decision 179, docs/tracking.md "Multi-piece
// shipments"). Each box runs the shipment's own status machine on its own scans; the shipment
// shows their roll-up, so it is delivered only when every box is.

/** The sub_status of a shipment whose boxes went separate ways (status `others`). */
export const BOX_EXCEPTION = 'box_exception';

/** Sub-statuses Dakiya derives and no courier's scan may carry (scan-checks.ts refuses them). */
export const DERIVED_SUB_STATUSES: readonly string[] = [BOX_EXCEPTION];

/** One box's place: its number (1 carries the master AWB) and its status and sub-status. */
export interface BoxStatus {
  boxNo: number;
  status: ShipmentStatus;
  subStatus: string | null;
}

/**
 * The ways a parcel can be heading, in the order a split shipment follows them: a shipment with
 * any box still going to the buyer is on its way out; one with none, but a box returning, is an RTO.
 */
const FAMILIES = ['forward', 'rto', 'exception', 'cancelled'] as const;
type Family = (typeof FAMILIES)[number];
const FAMILY: Readonly<Record<ShipmentStatus, Family>> = {
  pending: 'forward',
  in_transit: 'forward',
  ndr_raised: 'forward',
  out_for_delivery: 'forward',
  delivered: 'forward',
  rto_initiated: 'rto',
  rto_in_transit: 'rto',
  rto_delivered: 'rto',
  others: 'exception',
  cancelled: 'cancelled',
};

/**
 * How far a box has come within its family, from the status machine's stages: picked up after
 * pending, then the delivery stage, delivered last. A failed attempt (ndr_raised) ranks below an
 * attempt under way (out_for_delivery, which the machine moves to from ndr_raised on a reattempt):
 * the failed box is the one the merchant must act on, and NDR actions are the shipment's.
 */
export const STAGE_RANK: Readonly<Record<ShipmentStatus, number>> = {
  pending: 0,
  in_transit: 1,
  ndr_raised: 2,
  out_for_delivery: 3,
  delivered: 4,
  rto_initiated: 0,
  rto_in_transit: 1,
  rto_delivered: 2,
  others: 0,
  cancelled: 0,
};

export interface RollUp {
  status: ShipmentStatus;
  subStatus: string | null;
  /** The boxes that left the way the others go (lost, returned, cancelled alone), in box order. */
  exceptions: BoxStatus[];
}

/**
 * The shipment's status and sub-status from its boxes' (in box order). While every box heads the
 * same way, the least advanced box drives it, its sub-status with it (the first such box among
 * equals): delivered only when every box is, rto_delivered only when every box is back. A box
 * that heads another way than the rest (an RTO, a loss, damage or a hold, a cancellation of one
 * box) is a box exception: the shipment is `others` / `box_exception` until the boxes agree again.
 */
export function rollUpBoxes(boxes: readonly BoxStatus[]): RollUp {
  const main = FAMILIES.find((family) => boxes.some((box) => FAMILY[box.status] === family));
  const exceptions = boxes.filter((box) => FAMILY[box.status] !== main);
  if (exceptions.length > 0) return { status: 'others', subStatus: BOX_EXCEPTION, exceptions };
  let driver = boxes[0]!;
  for (const box of boxes) if (STAGE_RANK[box.status] < STAGE_RANK[driver.status]) driver = box;
  return { status: driver.status, subStatus: driver.subStatus, exceptions: [] };
}

/** A recorded event of a multi-piece shipment: a scan of one box, or (box 0) the merchant's on the whole shipment. */
export interface BoxEvent extends StoredEvent {
  /** The box the scan is of (1: the master AWB); 0 for a cancellation or an RTO asked for the shipment, which every box takes. */
  boxNo: number;
}

/** A box's state after its events: `at` is when its latest applied event happened (null: none yet). */
export interface BoxState extends BoxStatus {
  at: Date | null;
  attemptCount: number;
}

export interface RolledState extends ShipmentState {
  boxes: BoxState[];
  exceptions: BoxStatus[];
}

/**
 * A multi-piece shipment's state from all its boxes' events, in the shipment's own order
 * (status-machine.ts compareEvents). Each box folds its own scans and the shipment's merchant
 * events as `foldEvents` folds a one-box shipment's; after each event a box takes, the boxes are
 * rolled up. Milestones and date columns mark the roll-up's first arrival in each stage (picked up
 * when the last box is, delivered when the last box is); the attempt count is the box's with most;
 * the NDR and RTO reasons the latest any box reported. An event is applied when a box took it.
 */
export function foldBoxEvents(events: readonly BoxEvent[], boxCount: number): RolledState {
  const boxes = Array.from({ length: boxCount }, () => ({
    state: initialState(),
    reached: new Set<ShipmentStatus>(),
    at: null as Date | null,
  }));
  const state: RolledState = { ...initialState(), boxes: [], exceptions: [] };
  const reached = new Set<ShipmentStatus>();
  for (const event of [...events].sort(compareEvents)) {
    const targets = event.boxNo === 0 ? boxes : boxes.slice(event.boxNo - 1, event.boxNo);
    let applied = false;
    for (const box of targets) {
      if (!applyEvent(box.state, box.reached, event)) continue;
      applied = true;
      box.at = event.eventTime;
    }
    if (!applied) continue;
    state.appliedEventIds.add(event.id);
    if (event.status === 'ndr_raised') state.ndrReason = event.ndrReason ?? event.subStatus;
    if (event.rtoReason) state.rtoReason = event.rtoReason;
    const previous = state.status;
    const rolled = rollUpBoxes(boxes.map((box, i) => ({ boxNo: i + 1, ...statusOf(box.state) })));
    state.status = rolled.status;
    state.subStatus = rolled.subStatus;
    state.exceptions = rolled.exceptions;
    // A stage is reached by moving into it, or (pending, where every shipment starts) by a scan of it.
    const arrived = rolled.status !== previous || event.status === rolled.status;
    if (arrived && !reached.has(rolled.status)) {
      reached.add(rolled.status);
      markStage(state, rolled.status, event.eventTime);
    }
  }
  state.boxes = boxes.map((box, i) => ({
    boxNo: i + 1,
    ...statusOf(box.state),
    at: box.at,
    attemptCount: box.state.attemptCount,
  }));
  state.attemptCount = Math.max(0, ...state.boxes.map((box) => box.attemptCount));
  return state;
}

const statusOf = (state: ShipmentState) => ({ status: state.status, subStatus: state.subStatus });

/** Two lists of exception boxes say the same (the `shipment.box_exception` event is raised when they do not). */
export const sameExceptions = (a: readonly BoxStatus[], b: readonly BoxStatus[]) =>
  a.length === b.length &&
  a.every((box, i) => box.boxNo === b[i]!.boxNo && box.status === b[i]!.status && box.subStatus === b[i]!.subStatus);
