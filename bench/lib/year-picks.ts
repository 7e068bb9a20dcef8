// The background workers' picks of due work, as SQL timed with EXPLAIN ANALYZE on a database (the
// statements as src/ sends them): the courier poller's lease of due shipments
// (src/couriers/couriers.repository.ts leaseDue, LEASE_LIMIT 500), the webhook worker's due
// candidates (src/consumers/webhooks/webhooks.repository.ts dueCandidates, CANDIDATES 200) and the
// e-mail worker's lease (src/events/jobs.repository.ts leaseDueJobs). Each runs in a transaction
// rolled back, so the leases it takes are not kept.
import type pg from 'pg';

export interface Pick {
  name: string;
  /** The statement and its parameters at `now`. */
  statement: (now: Date) => { text: string; values: unknown[] };
  /** When to ask: now (what each round asks), or later (once the in-flight parcels are due). */
  at: (now: Date) => Date;
}

const LEASE_MS = 120_000;

export function picks(carrierIds: string[]): Pick[] {
  const poller = (name: string, later: number): Pick => ({
    name,
    at: (now) => new Date(now.getTime() + later),
    statement: (at) => ({
      text: `with due as (
        select subject_id from courier_polls
        where carrier_id in (${carrierIds.map((_, i) => `$${i + 3}`).join(', ')})
          and next_poll_at <= $1::timestamptz and (lease_until is null or lease_until <= $1::timestamptz)
        order by next_poll_at limit 500 for update skip locked)
      update courier_polls p set lease_until = $2::timestamptz where p.subject_id = any(array(select subject_id from due))
      returning p.subject_id, p.journey, p.account_id, p.carrier_id, p.awb, p.booked_at, p.next_poll_at, p.failures`,
      values: [at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString(), ...carrierIds],
    }),
  });
  return [
    poller('poller: lease due shipments (now)', 0),
    poller('poller: lease due shipments (+2 days: all in flight due)', 2 * 86_400_000),
    {
      name: 'webhooks: due candidates (now)',
      at: (now) => now,
      statement: (at) => ({
        text: `select id, account_id as "accountId", endpoint_id as "endpointId" from webhook_deliveries
          where status = 'pending' and next_attempt_at <= $1::timestamptz and (locked_until is null or locked_until <= $1::timestamptz)
            and not (account_id = any($2::uuid[])) and not (endpoint_id = any($3::uuid[]))
          order by next_attempt_at limit 200`,
        values: [at.toISOString(), [], []],
      }),
    },
    {
      name: 'e-mails: lease due notifications (now)',
      at: (now) => now,
      statement: (at) => ({
        text: `update notifications set locked_until = $2::timestamptz
          where id in (select id from notifications
            where status = 'pending' and next_attempt_at <= $1::timestamptz and (locked_until is null or locked_until <= $1::timestamptz)
            order by next_attempt_at limit 50 for update skip locked)
          returning id`,
        values: [at.toISOString(), new Date(at.getTime() + LEASE_MS).toISOString()],
      }),
    },
  ];
}

export interface PickTiming {
  name: string;
  /** Execution time of each run, ms (EXPLAIN ANALYZE's), sorted. */
  runs: number[];
  rows: number;
  plan: string[];
}

/**
 * Runs each pick `times` times on each database under EXPLAIN (ANALYZE, BUFFERS) in a rolled-back
 * transaction, the databases taking turns run by run: a burst of the machine's other work (an
 * autovacuum worker, a server's tick) then falls on both sides' runs rather than on one side's
 * seven in a row. Returns each database's timings, in the order of `clients`.
 */
export async function timePicks(clients: pg.Client[], list: Pick[], times = 11): Promise<PickTiming[][]> {
  const out: PickTiming[][] = clients.map(() => []);
  for (const pick of list) {
    const timings = clients.map(() => ({ name: pick.name, runs: [] as number[], rows: 0, plan: [] as string[] }));
    for (let i = 0; i < times; i++) {
      for (const [side, client] of clients.entries()) {
        const timing = timings[side]!;
        const { text, values } = pick.statement(pick.at(new Date()));
        await client.query('begin');
        try {
          const result = await client.query<{ 'QUERY PLAN': string }>(
            `explain (analyze, buffers, format text) ${text}`,
            values,
          );
          timing.plan = result.rows.map((r) => r['QUERY PLAN']);
          const execution = timing.plan.find((line) => line.startsWith('Execution Time'));
          timing.runs.push(Number(/([\d.]+) ms/.exec(execution ?? '')?.[1] ?? Number.NaN));
          timing.rows = Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(timing.plan[0] ?? '')?.[1] ?? 0);
        } finally {
          await client.query('rollback');
        }
      }
    }
    for (const [side, timing] of timings.entries())
      out[side]!.push({ ...timing, runs: timing.runs.sort((a, b) => a - b) });
  }
  return out;
}
