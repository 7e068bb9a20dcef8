import { describe, expect, it } from 'vitest';
import {
  CARRIER_RETURN_STATUSES,
  foldReturnEvents,
  qcProblem,
  RETURN_STATUSES,
  RETURN_SUB_STATUSES,
  RETURN_TERMINAL_STATUSES,
  RETURN_TRANSITIONS,
  type ReturnStatus,
  type StoredReturnEvent,
} from './return-status-machine.js';

/**
 * The documented return machine (docs/tracking.md, "Returns"), written out independently of
 * RETURN_TRANSITIONS. y: may follow; .: refused (kept, no change); r: the stage repeating; x: terminal.
 */
const TABLE = `
from \\ to               return_requested return_pickup_scheduled return_picked_up return_in_transit return_delivered return_cancelled return_lost
return_requested        r                y                       .                .                 .                y                .
return_pickup_scheduled .                r                       y                y                 .                y                .
return_picked_up        .                .                       r                y                 y                .                y
return_in_transit       .                .                       .                r                 y                .                y
return_delivered        x                x                       x                x                 x                x                x
return_cancelled        x                x                       x                x                 x                x                x
return_lost             x                x                       x                x                 x                x                x
`;

const rows = TABLE.trim().split('\n');
const columns = rows[0]!.split(/\s+/).slice(3) as ReturnStatus[];
const cells = rows.slice(1).flatMap((line) => {
  const [from, ...marks] = line.split(/\s+/);
  return marks.map((mark, i) => ({ from: from as ReturnStatus, to: columns[i]!, mark: mark as 'y' | '.' | 'r' | 'x' }));
});

/** From return_requested, a path reaching each status through allowed moves. */
const PATH_TO: Record<ReturnStatus, ReturnStatus[]> = {
  return_requested: [],
  return_pickup_scheduled: ['return_pickup_scheduled'],
  return_picked_up: ['return_pickup_scheduled', 'return_picked_up'],
  return_in_transit: ['return_pickup_scheduled', 'return_picked_up', 'return_in_transit'],
  return_delivered: ['return_pickup_scheduled', 'return_picked_up', 'return_in_transit', 'return_delivered'],
  return_cancelled: ['return_pickup_scheduled', 'return_cancelled'],
  return_lost: ['return_pickup_scheduled', 'return_picked_up', 'return_lost'],
};

const T0 = Date.parse('2026-11-20T06:00:00.000Z');
const RECEIVED = new Date('2026-11-20T07:00:00.000Z');
const minutes = (m: number) => new Date(T0 + m * 60_000);

let nextId = 0;
function ev(status: ReturnStatus, minute: number, extra: Partial<StoredReturnEvent> = {}): StoredReturnEvent {
  return {
    id: `e${++nextId}`,
    status,
    subStatus: RETURN_SUB_STATUSES[status][0] ?? null,
    eventTime: minutes(minute),
    qcStatus: null,
    qcReason: null,
    receivedAt: RECEIVED,
    ...extra,
  };
}
const pathEvents = (statuses: ReturnStatus[]) => statuses.map((status, i) => ev(status, i * 10));
const fromRequested = (events: StoredReturnEvent[]) => foldReturnEvents(events, 'return_requested');

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('the return transition table', () => {
  it('covers every pair of the seven return statuses', () => {
    expect(columns).toEqual([...RETURN_STATUSES]);
    expect(cells).toHaveLength(49);
  });

  it('is what RETURN_TRANSITIONS says; delivered, cancelled and lost are terminal', () => {
    for (const from of RETURN_STATUSES) {
      const allowed = cells.filter((c) => c.from === from && c.mark === 'y').map((c) => c.to);
      expect({ from, to: [...RETURN_TRANSITIONS[from]].sort() }).toEqual({ from, to: allowed.sort() });
    }
    expect([...RETURN_TERMINAL_STATUSES].sort()).toEqual(['return_cancelled', 'return_delivered', 'return_lost']);
  });

  it('reaches every status along its test path', () => {
    for (const status of RETURN_STATUSES) expect(fromRequested(pathEvents(PATH_TO[status])).status).toBe(status);
  });

  it.each(cells)('$from → $to: $mark', ({ from, to, mark }) => {
    const before = pathEvents(PATH_TO[from]);
    const start = fromRequested(before);
    const next = ev(to, 500, { subStatus: RETURN_SUB_STATUSES[to].at(-1) ?? null });
    const state = fromRequested([...before, next]);
    if (mark === 'y' || mark === 'r') {
      expect(state.status).toBe(to);
      expect(state.subStatus).toBe(RETURN_SUB_STATUSES[to].at(-1) ?? null);
      expect(state.appliedEventIds.has(next.id)).toBe(true);
    } else {
      expect(state.appliedEventIds.has(next.id)).toBe(false);
      expect({ ...state, appliedEventIds: [...state.appliedEventIds] }).toEqual({
        ...start,
        appliedEventIds: [...start.appliedEventIds],
      });
    }
  });

  it('lets couriers report every status but return_requested', () => {
    expect(CARRIER_RETURN_STATUSES).toEqual(RETURN_STATUSES.filter((s) => s !== 'return_requested'));
  });
});

describe('foldReturnEvents', () => {
  it('starts a booked return at return_pickup_scheduled with nothing set', () => {
    expect(foldReturnEvents([])).toEqual({
      status: 'return_pickup_scheduled',
      subStatus: null,
      qcStatus: null,
      qcReason: null,
      pickedUpAt: null,
      deliveredAt: null,
      cancelledAt: null,
      lostAt: null,
      appliedEventIds: new Set(),
    });
  });

  it('gives the same state whatever order the events arrive in', () => {
    const events = [
      ev('return_picked_up', 0, { qcStatus: 'passed' }),
      ev('return_in_transit', 60),
      ev('return_in_transit', 90, { subStatus: 'return_out_for_delivery' }),
      ev('return_delivered', 120),
    ];
    const inOrder = foldReturnEvents(events);
    expect(inOrder).toMatchObject({
      status: 'return_delivered',
      qcStatus: 'passed',
      pickedUpAt: minutes(0),
      deliveredAt: minutes(120),
    });
    for (const arrival of permutations(events)) {
      const received = arrival.map((e, i) => ({ ...e, receivedAt: new Date(RECEIVED.getTime() + i * 1000) }));
      expect(foldReturnEvents(received)).toEqual(inOrder);
    }
  });

  it('applies scans of one instant received together in lifecycle order', () => {
    const picked = ev('return_picked_up', 0);
    const delivered = ev('return_delivered', 0);
    expect(foldReturnEvents([delivered, picked]).appliedEventIds).toEqual(new Set([picked.id, delivered.id]));
  });

  it('lets a pickup dated before a cancellation win: the parcel had left', () => {
    const cancel = ev('return_cancelled', 60, { subStatus: 'return_cancelled_by_merchant' });
    const latePickup = ev('return_picked_up', 30, { receivedAt: new Date(RECEIVED.getTime() + 60_000) });
    const state = foldReturnEvents([cancel, latePickup]);
    expect(state).toMatchObject({ status: 'return_picked_up', cancelledAt: null, pickedUpAt: minutes(30) });
    expect(state.appliedEventIds.has(cancel.id)).toBe(false);
  });

  it('records a failed QC with its reason on the cancellation', () => {
    const state = foldReturnEvents([
      ev('return_cancelled', 10, { subStatus: 'qc_failed', qcStatus: 'failed', qcReason: 'Item used' }),
    ]);
    expect(state).toMatchObject({
      status: 'return_cancelled',
      qcStatus: 'failed',
      qcReason: 'Item used',
      cancelledAt: minutes(10),
    });
  });

  it('dates the pickup by the first transit scan when the pickup scan never came', () => {
    expect(foldReturnEvents([ev('return_in_transit', 40)]).pickedUpAt).toEqual(minutes(40));
  });

  it.each([...RETURN_TERMINAL_STATUSES])('%s is terminal: nothing after it applies, not even a repeat', (terminal) => {
    const path = pathEvents(PATH_TO[terminal].slice(1));
    const final = foldReturnEvents(path);
    const later = RETURN_STATUSES.map((status, i) => ev(status, 1000 + i, { qcStatus: 'passed' }));
    const state = foldReturnEvents([...path, ...later]);
    expect({ ...state, appliedEventIds: [...state.appliedEventIds] }).toEqual({
      ...final,
      appliedEventIds: [...final.appliedEventIds],
    });
  });
});

describe('qcProblem', () => {
  it.each([
    { status: 'return_picked_up', qc: undefined, reason: undefined, problem: null },
    { status: 'return_picked_up', qc: 'passed', reason: undefined, problem: null },
    { status: 'return_cancelled', qc: 'failed', reason: 'Seal broken', problem: null },
    { status: 'return_picked_up', qc: 'ok', reason: undefined, problem: 'qc_status must be one of passed, failed' },
    {
      status: 'return_in_transit',
      qc: 'passed',
      reason: undefined,
      problem: 'qc_status passed belongs to return_picked_up events',
    },
    {
      status: 'return_picked_up',
      qc: 'passed',
      reason: 'fine',
      problem: 'qc_reason belongs to events with qc_status failed',
    },
    {
      status: 'return_picked_up',
      qc: undefined,
      reason: 'fine',
      problem: 'qc_reason belongs to events with qc_status failed',
    },
    {
      status: 'return_picked_up',
      qc: 'failed',
      reason: 'Torn',
      problem: 'qc_status failed belongs to return_cancelled events (the parcel stays with the customer)',
    },
    {
      status: 'return_cancelled',
      qc: 'failed',
      reason: undefined,
      problem: 'qc_reason is required when qc_status is failed',
    },
  ] as const)('$status qc_status=$qc qc_reason=$reason → $problem', ({ status, qc, reason, problem }) => {
    expect(qcProblem(status, qc, reason)).toBe(problem);
  });
});
