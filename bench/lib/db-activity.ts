import pg from 'pg';
import { percentile } from './stats.js';

/** How often the sampler looks at the server's backends. */
const SAMPLE_EVERY_MS = 20;

/** What PostgreSQL was doing at one moment (the benchmark's clock, `performance.now()`). */
interface Sample {
  at: number;
  /** A statement of the pruning job running: every delete of the benchmark's database is one. */
  deleting: boolean;
  /** An autovacuum worker at work on any database (they share the cores). */
  vacuuming: boolean;
  /** The checkpointer writing or syncing rather than sleeping. */
  checkpointing: boolean;
}

const CAUSES = ['deleting', 'vacuuming', 'checkpointing'] as const;
type Cause = (typeof CAUSES)[number];

/**
 * Samples the server's activity every SAMPLE_EVERY_MS on a connection of its own, to say which
 * slow answers came while a delete, an autovacuum or a checkpoint ran: a diagnosis beside the
 * figures, not a figure. The returned stop ends the sampling and gives the samples.
 */
export async function sampleActivity(url: string): Promise<() => Promise<Sample[]>> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-activity' });
  await client.connect();
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const asked = performance.now();
      const { rows } = await client.query<Omit<Sample, 'at'>>(
        `select exists (select 1 from pg_stat_activity
                        where datname = current_database() and state = 'active' and backend_type = 'client backend'
                          and application_name <> 'bench-activity' and query ilike '%delete from%') as deleting,
                exists (select 1 from pg_stat_activity where backend_type = 'autovacuum worker') as vacuuming,
                exists (select 1 from pg_stat_activity where backend_type = 'checkpointer'
                        and wait_event is distinct from 'CheckpointerMain') as checkpointing`,
      );
      samples.push({ at: (asked + performance.now()) / 2, ...rows[0]! });
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  return async () => {
    running = false;
    await loop;
    await client.end();
    return samples;
  };
}

/**
 * Each ask marked with what ran while it waited (any sample within its span, widened by half a
 * sampling period each side), then per cause: the share of asks it overlapped and their p99, beside
 * the p99 of the asks that overlapped nothing.
 */
export function attribute(asks: readonly { at: number; ms: number }[], samples: readonly Sample[]): string {
  const half = SAMPLE_EVERY_MS / 2;
  const groups = new Map<Cause | 'nothing', number[]>();
  const busy: Record<Cause, number> = { deleting: 0, vacuuming: 0, checkpointing: 0 };
  for (const sample of samples) for (const cause of CAUSES) if (sample[cause]) busy[cause]++;
  let first = 0;
  for (const ask of asks) {
    while (first < samples.length && samples[first]!.at < ask.at - half) first++;
    const seen = new Set<Cause>();
    for (let i = first; i < samples.length && samples[i]!.at <= ask.at + ask.ms + half; i++)
      for (const cause of CAUSES) if (samples[i]![cause]) seen.add(cause);
    for (const key of seen.size === 0 ? ['nothing' as const] : [...seen]) {
      const list = groups.get(key) ?? [];
      list.push(ask.ms);
      groups.set(key, list);
    }
  }
  const parts = (['nothing', ...CAUSES] as const).map((key) => {
    const list = (groups.get(key) ?? []).sort((a, b) => a - b);
    const time =
      key === 'nothing' ? '' : ` (${((100 * busy[key]) / Math.max(1, samples.length)).toFixed(0)} % of samples)`;
    return `${key}${time}: ${list.length} asks${list.length ? `, p99 ${percentile(list, 99).toFixed(1)} ms` : ''}`;
  });
  return parts.join('; ');
}
