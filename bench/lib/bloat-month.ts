// The month bench/bloat.ts writes (issue 52): its bookings, paced; the waits until every parcel has
// finished its sandbox scenario and the workers have drained; and the server settings that make the
// retention and anonymisation jobs do a month's work on a database that holds a year.
import { benchOrder } from './order-body.js';
import { api, type Merchant } from './year-setup.js';
import { withClient } from './year-setup.js';

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retention periods and their lowest allowed values (src/consumers/retention/retention.settings.ts).
 * A year's database pruned to the defaults, then served with each period a month shorter, has its
 * next month of rows pruned at the server's start: the deletes a live install's hourly job makes
 * over a month in its second year (the fill writes deliveries and e-mails for their periods only,
 * so their month is the one just inside them).
 */
const PERIODS: [name: string, days: number, min: number][] = [
  ['WEBHOOK_DELIVERIES_RETENTION_DAYS', 30, 1],
  ['CHANNEL_WEBHOOK_RECEIPTS_RETENTION_DAYS', 30, 3],
  ['EMAILS_RETENTION_DAYS', 90, 1],
  ['BUYER_MESSAGES_RETENTION_DAYS', 90, 1],
  ['KEPT_SCANS_RETENTION_DAYS', 180, 7],
  ['AUDIT_LOG_RETENTION_DAYS', 365, 180],
  ['TRACKING_HISTORY_RETENTION_DAYS', 365, 30],
  ['EVENTS_RETENTION_DAYS', 90, 7],
  ['CHANNEL_WRITEBACKS_RETENTION_DAYS', 30, 1],
];

export function monthPeriods(days: number): Record<string, string> {
  return Object.fromEntries(PERIODS.map(([name, period, min]) => [name, String(Math.max(min, period - days))]));
}

/**
 * `count` bookings through the API from `connections` clients at once, booking i sent no sooner
 * than i / rate seconds after the first: the poller got through some 30 pulls a second on a loaded
 * 2-CPU machine, so a burst of thousands in flight would be asked about less often than every scan,
 * several scans to a pull, and write fewer updates than a live month's parcels, asked between scans.
 */
export async function bookMonth(
  server: { url: string },
  merchant: Merchant,
  opts: { count: number; rate: number; connections: number; prefix: string },
): Promise<{ booked: number; failed: number; ms: number }> {
  const started = performance.now();
  let next = 0;
  let booked = 0;
  let failed = 0;
  let firstFailure = '';
  const progress = setInterval(() => log(`  booked ${booked} of ${opts.count}, ${failed} failed`), 15_000);
  const client = async () => {
    for (let i = next++; i < opts.count; i = next++) {
      const due = started + (i * 1000) / opts.rate;
      if (due > performance.now()) await sleep(due - performance.now());
      // Order ids end in 1, 2, … 0 in turn: the sandbox's scenario is picked by the last digit.
      const orderId = `${opts.prefix}-${i + 1}`;
      try {
        await api(server, merchant.apiKey, 'POST', '/forward-order-orchestration', {
          ...benchOrder(merchant.warehouseId, orderId),
          store_name: merchant.storeName,
        });
        booked += 1;
      } catch (error) {
        failed += 1;
        firstFailure ||= String(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.connections }, client));
  } finally {
    clearInterval(progress);
  }
  if (failed > 0) log(`  !! ${failed} bookings failed, the first: ${firstFailure}`);
  return { booked, failed, ms: performance.now() - started };
}

/** The sandbox's ends: delivered, returned to origin, cancelled, and lost (status others, which the poller keeps asking). */
const FINISHED = `(status in ('delivered', 'rto_delivered', 'cancelled') or (status = 'others' and sub_status = 'lost'))`;

export interface Waited {
  ok: boolean;
  statuses: Record<string, number>;
}

/**
 * Polls until `done` says so or `timeoutMs` passes, printing `state` every 15 s; answers whether it
 * finished and the last state.
 */
async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T>,
  done: (state: T) => boolean,
  state: (value: T) => string,
): Promise<{ ok: boolean; value: T }> {
  const started = performance.now();
  let printed = started;
  for (;;) {
    const value = await probe();
    if (done(value)) {
      log(`${what}: done in ${((performance.now() - started) / 1000).toFixed(0)} s (${state(value)})`);
      return { ok: true, value };
    }
    if (performance.now() - started > timeoutMs) {
      log(`!! ${what}: not done after ${(timeoutMs / 60_000).toFixed(0)} min: ${state(value)}`);
      return { ok: false, value };
    }
    if (performance.now() - printed >= 15_000) {
      printed = performance.now();
      log(`  ${what}: ${state(value)}`);
    }
    await sleep(2_000);
  }
}

/** Until every shipment the account booked since `since` reached the end of its scenario. */
export async function waitFinished(url: string, accountId: string, since: Date, timeoutMs: number): Promise<Waited> {
  const { ok, value } = await until(
    'month parcels finished',
    timeoutMs,
    () =>
      withClient(
        url,
        async (c) =>
          (
            await c.query<{ status: string; finished: boolean; n: number }>(
              `select status || case when status = 'others' then '/' || coalesce(sub_status, '') else '' end as status,
                    ${FINISHED} as finished, count(*)::int as n
               from shipments where account_id = $1 and created_at >= $2 group by 1, 2 order by 3 desc`,
              [accountId, since],
            )
          ).rows,
      ),
    (rows) => rows.every((r) => r.finished),
    (rows) => rows.map((r) => `${r.status} ${r.n}`).join(', '),
  );
  return { ok, statuses: Object.fromEntries(value.map((r) => [r.status, r.n])) };
}

/**
 * The month's scans against the pulls that brought them (one intake stamps its scans with one
 * received_at): a live month's parcels are asked between two scans, one new scan a pull, and each
 * pull with news updates the shipment once, whatever the scans it brings.
 */
export async function scansPerPull(
  url: string,
  accountId: string,
  since: Date,
): Promise<{ scans: number; pulls: number }> {
  return withClient(
    url,
    async (c) =>
      (
        await c.query<{ scans: number; pulls: number }>(
          `select count(*)::int as scans, count(distinct (t.shipment_id, t.received_at))::int as pulls
             from tracking_events t join shipments s on s.id = t.shipment_id
            where s.account_id = $1 and s.created_at >= $2`,
          [accountId, since],
        )
      ).rows[0]!,
  );
}

/** Buyers the anonymisation job scrubbed since `since` (their shipments stamped). */
export async function anonymisedSince(url: string, accountId: string, since: Date): Promise<number> {
  return withClient(
    url,
    async (c) =>
      (
        await c.query<{ n: number }>(
          'select count(*)::int as n from shipments where account_id = $1 and buyer_anonymised_at >= $2',
          [accountId, since],
        )
      ).rows[0]!.n,
  );
}

/**
 * Until the anonymisation job has taken every buyer due when the month's server started (its own
 * predicate, on this account: no returns are written; buyers the clock makes due since wait for
 * its next hourly run, as on a live install), the e-mail and webhook queues hold nothing pending and every
 * event log consumer has read the last event.
 */
export async function waitDrained(
  url: string,
  accountId: string,
  anonymise: { days: number; at: Date } | undefined,
  timeoutMs: number,
): Promise<boolean> {
  const { ok } = await until(
    'workers drained',
    timeoutMs,
    () =>
      withClient(url, async (c) => {
        const [row] = (
          await c.query<{ deliveries: number; emails: number; lagging: string; anonymise: number }>(
            `select (select count(*)::int from webhook_deliveries where status = 'pending') as deliveries,
                    (select count(*)::int from notifications where status = 'pending') as emails,
                    (select coalesce(string_agg(name, ', '), '') from event_consumers
                      where after_position < (select coalesce(max(position), 0) from events)) as lagging,
                    (select count(*)::int from shipments where account_id = $1 and $2::int is not null
                        and buyer_anonymised_at is null and status in ('delivered', 'rto_delivered', 'cancelled')
                        and updated_at < $3::timestamptz - make_interval(days => $2::int)) as anonymise`,
            [accountId, anonymise?.days ?? null, anonymise?.at ?? null],
          )
        ).rows;
        return row!;
      }),
    (r) => r.deliveries === 0 && r.emails === 0 && r.lagging === '' && r.anonymise === 0,
    (r) =>
      `${r.deliveries} webhook deliveries and ${r.emails} e-mails pending, ${r.anonymise} buyers due for anonymisation, consumers behind: ${r.lagging || 'none'}`,
  );
  return ok;
}
