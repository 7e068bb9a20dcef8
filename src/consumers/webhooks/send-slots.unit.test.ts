import { describe, expect, it } from 'vitest';
import { type Candidate, SendSlots } from './send-slots.js';

const LIMITS = { total: 16, perAccount: 4, perEndpoint: 2 };

/** `count` due deliveries of each endpoint, oldest first in the order given. */
function due(...queues: [account: string, endpoint: string, count: number][]): Candidate[] {
  return queues.flatMap(([accountId, endpointId, count]) =>
    Array.from({ length: count }, (_, i) => ({ id: `${endpointId}#${i + 1}`, accountId, endpointId })),
  );
}

const ids = (picked: Candidate[]) => picked.map((c) => c.id);

describe('SendSlots', () => {
  it("gives an account with 30 endpoints of backlog its 4 slots, one endpoint each, and another account's delivery a slot", () => {
    const slots = new SendSlots(LIMITS);
    const backlog = due(...Array.from({ length: 30 }, (_, i) => ['A', `a${i + 1}`, 5] as [string, string, number]), [
      'B',
      'b1',
      1,
    ]);
    expect(ids(slots.pick(backlog))).toEqual(['a1#1', 'b1#1', 'a2#1', 'a3#1', 'a4#1']);
  });

  it('sends at most perEndpoint of one endpoint, and at most perAccount of one account', () => {
    expect(ids(new SendSlots(LIMITS).pick(due(['A', 'a1', 10])))).toEqual(['a1#1', 'a1#2']);
    expect(ids(new SendSlots(LIMITS).pick(due(['A', 'a1', 10], ['A', 'a2', 10], ['A', 'a3', 10])))).toEqual([
      'a1#1',
      'a2#1',
      'a3#1',
      'a1#2',
    ]);
  });

  it('shares the free slots round the accounts, one each per turn, until the slots run out', () => {
    const slots = new SendSlots({ total: 5, perAccount: 4, perEndpoint: 2 });
    const picked = slots.pick(due(['A', 'a1', 9], ['A', 'a2', 9], ['B', 'b1', 9], ['B', 'b2', 9], ['C', 'c1', 9]));
    expect(ids(picked)).toEqual(['a1#1', 'b1#1', 'c1#1', 'a2#1', 'b2#1']);
  });

  it('counts the sends in flight: a full account or endpoint is named by full() and gets nothing more', () => {
    const slots = new SendSlots(LIMITS);
    const backlog = due(['A', 'a1', 3], ['A', 'a2', 3], ['B', 'b1', 3]);
    const first = slots.pick(backlog);
    for (const c of first) slots.take(c);
    expect(ids(first)).toEqual(['a1#1', 'b1#1', 'a2#1', 'b1#2', 'a1#2', 'a2#2']);
    expect(slots.inFlight).toBe(6);
    expect(slots.free).toBe(10);
    expect(slots.full()).toEqual({ accounts: ['A'], endpoints: ['a1', 'b1', 'a2'] });
    const rest = backlog.filter((c) => !first.includes(c));
    expect(slots.pick(rest)).toEqual([]);
    // A send of a2 ends: the account has room again, and a2 is its only endpoint with room.
    slots.release(first[5]!);
    expect(slots.full()).toEqual({ accounts: [], endpoints: ['a1', 'b1'] });
    expect(slots.inFlight).toBe(5);
    expect(ids(slots.pick(rest))).toEqual(['a2#3']);
  });

  it('gives a slot that frees to the account served longest ago, then to its endpoint served longest ago', () => {
    const limits = { total: 3, perAccount: 2, perEndpoint: 1 };
    const slots = new SendSlots(limits);
    const backlog = due(['A', 'a1', 5], ['A', 'a2', 5], ['B', 'b1', 5], ['B', 'b2', 5]);
    const first = slots.pick(backlog);
    for (const c of first) slots.take(c);
    expect(ids(first)).toEqual(['a1#1', 'b1#1', 'a2#1']);
    const rest = backlog.filter((c) => !first.includes(c));
    // A's send on a1 ends, yet B was served before A's last send: B goes next, on b2 (never served).
    slots.release(first[0]!);
    expect(ids(slots.pick(rest))).toEqual(['b2#1']);
    // With nothing of B's due, the slot is A's again, on a1 (served before a2).
    expect(ids(slots.pick(rest.filter((c) => c.accountId === 'A')))).toEqual(['a1#2']);
  });

  it('picks nothing with no free slot, and nothing from no candidates', () => {
    const slots = new SendSlots({ total: 1, perAccount: 1, perEndpoint: 1 });
    expect(slots.pick([])).toEqual([]);
    const [only] = slots.pick(due(['A', 'a1', 2]));
    slots.take(only!);
    expect(slots.pick(due(['B', 'b1', 1]))).toEqual([]);
  });
});
