import type { Executor } from '../../base/db/client.js';
import * as history from './retention-history.repository.js';

/** How long a process's runs start after the last one's place before one walks the log from its start again. */
export const FULL_WALK_EVERY_MS = 24 * 60 * 60_000;

/**
 * The event log's pruning, with what this process's runs learnt: window after window in commit
 * order until a window reaches past the cutoff or the consumers' place. The events a run keeps are
 * mostly each subject's last, and a year holds one for every shipment: walking them all at every
 * run (1.8 million rows at 730,000 shipments, each hour) was most of the job's work. So a run starts
 * where the last one's unbroken run of such events ended (`passable`), and the events before it
 * that may now go (a newer event of their subject was written since) are found from the newer
 * events, which are few. Once a day, and at a process's first run, the walk starts from the log's
 * start again, so that nothing rests on this reasoning for long.
 */
export function eventLogPruning(now: () => number) {
  let memory: { behind: history.LogPlace | null; seenUpTo: history.LogPlace | null; fullWalkAt: number } | undefined;

  return async function* batches(
    db: Executor,
    { cutoff }: { cutoff: Date },
    limit: number,
  ): AsyncGenerator<{ events: number }> {
    const full = memory === undefined || now() - memory.fullWalkAt >= FULL_WALK_EVERY_MS;
    const startedAt = now();
    // Where the newer events the next run looks at begin: the log's settled end as this run starts.
    const settledEnd = await history.settledLogEnd(db);
    let behind = full ? null : memory!.behind;
    if (!full) {
      let after = memory!.seenUpTo;
      for (;;) {
        if (behind === null) break;
        const revived = await history.pruneRevivedEvents(db, { cutoff, behind, after, window: limit });
        yield { events: revived.events };
        if (!revived.end || revived.scanned < limit) break;
        after = revived.end;
      }
    }
    let after = behind;
    let blocked = false;
    for (;;) {
      const window = await history.pruneEventWindow(db, { cutoff, after, window: limit });
      if (!blocked && window.passable) behind = window.passable;
      blocked ||= window.blocked || window.passable === null;
      yield { events: window.events };
      if (!window.end || window.scanned < limit || window.end.createdAt >= cutoff) break;
      after = window.end;
    }
    memory = { behind, seenUpTo: settledEnd, fullWalkAt: full ? startedAt : memory!.fullWalkAt };
  };
}
