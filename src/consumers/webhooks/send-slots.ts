import type { SendLimits } from './webhooks.settings.js';

/** A due delivery, as much of it as choosing who sends next needs. */
export interface Candidate {
  id: string;
  accountId: string;
  endpointId: string;
}

/**
 * One worker's send slots, shared fairly. A slow receiver holds a slot for as long as it takes to
 * answer (up to the 10 s timeout), so whoever takes the free slots decides whose events wait: an
 * account takes at most `perAccount` of them and an endpoint at most `perEndpoint`, and free
 * slots go round the accounts with due deliveries, the one served longest ago first, and round
 * each account's endpoints the same way. One account's slow receivers then hold only its own share;
 * every other account's deliveries go out in the slots left.
 */
export class SendSlots {
  private readonly accounts = new Map<string, number>();
  private readonly endpoints = new Map<string, number>();
  /** When each account and endpoint last got a slot, on a counter: the round robin's memory. */
  private readonly served = new Map<string, number>();
  private turn = 0;
  private busy = 0;

  constructor(readonly limits: SendLimits) {}

  get inFlight(): number {
    return this.busy;
  }

  get free(): number {
    return Math.max(0, this.limits.total - this.busy);
  }

  /** Accounts and endpoints with no room left: the due-deliveries query leaves theirs out. */
  full(): { accounts: string[]; endpoints: string[] } {
    const over = (counts: Map<string, number>, limit: number) =>
      [...counts].filter(([, n]) => n >= limit).map(([id]) => id);
    return {
      accounts: over(this.accounts, this.limits.perAccount),
      endpoints: over(this.endpoints, this.limits.perEndpoint),
    };
  }

  /**
   * The candidates (oldest due first) to send now, within the free slots and every cap: one per
   * account per turn, each account's turn going to its endpoint served longest ago, until the
   * slots or the candidates run out. Reserves nothing: `take` what was leased.
   */
  pick(candidates: readonly Candidate[]): Candidate[] {
    const byAccount = new Map<string, Map<string, Candidate[]>>();
    for (const c of candidates) {
      const endpoints = byAccount.get(c.accountId) ?? byAccount.set(c.accountId, new Map()).get(c.accountId)!;
      (endpoints.get(c.endpointId) ?? endpoints.set(c.endpointId, []).get(c.endpointId)!).push(c);
    }
    // Never served sorts first; ties keep the order of each one's oldest due delivery (sort is stable).
    const longestAgo = (ids: Iterable<string>) =>
      [...ids].sort((a, b) => (this.served.get(a) ?? -1) - (this.served.get(b) ?? -1));
    const accountCount = new Map<string, number>();
    const endpointCount = new Map<string, number>();
    const rooms = longestAgo(byAccount.keys()).map((accountId) => {
      const queues = byAccount.get(accountId)!;
      return { accountId, queues, order: longestAgo(queues.keys()), next: 0 };
    });
    const picked: Candidate[] = [];
    let free = this.free;
    let progress = true;
    while (free > 0 && progress) {
      progress = false;
      for (const room of rooms) {
        if (free === 0) break;
        const inAccount = (this.accounts.get(room.accountId) ?? 0) + (accountCount.get(room.accountId) ?? 0);
        if (inAccount >= this.limits.perAccount) continue;
        // The account's next endpoint in turn that has a due delivery and room.
        for (let tried = 0; tried < room.order.length; tried++) {
          const endpointId = room.order[room.next]!;
          room.next = (room.next + 1) % room.order.length;
          const queue = room.queues.get(endpointId)!;
          const inEndpoint = (this.endpoints.get(endpointId) ?? 0) + (endpointCount.get(endpointId) ?? 0);
          if (queue.length === 0 || inEndpoint >= this.limits.perEndpoint) continue;
          picked.push(queue.shift()!);
          accountCount.set(room.accountId, (accountCount.get(room.accountId) ?? 0) + 1);
          endpointCount.set(endpointId, (endpointCount.get(endpointId) ?? 0) + 1);
          free--;
          progress = true;
          break;
        }
      }
    }
    return picked;
  }

  /** A send started: it holds a slot, its account's and its endpoint's. */
  take(c: Candidate): void {
    this.busy++;
    this.accounts.set(c.accountId, (this.accounts.get(c.accountId) ?? 0) + 1);
    this.endpoints.set(c.endpointId, (this.endpoints.get(c.endpointId) ?? 0) + 1);
    this.turn++;
    this.served.set(c.accountId, this.turn);
    this.served.set(c.endpointId, this.turn);
    // The memory only orders the next turns; forgetting it all now and then keeps it small.
    if (this.served.size > 100_000) this.served.clear();
  }

  /** A send ended. */
  release(c: Candidate): void {
    this.busy--;
    const drop = (counts: Map<string, number>, id: string) => {
      const n = (counts.get(id) ?? 0) - 1;
      if (n > 0) counts.set(id, n);
      else counts.delete(id);
    };
    drop(this.accounts, c.accountId);
    drop(this.endpoints, c.endpointId);
  }
}
