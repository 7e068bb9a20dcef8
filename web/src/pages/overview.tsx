import { useQueries, useQuery } from '@tanstack/react-query';
import { api, type PostBody, unwrap } from '../api/client';
import { formatDate, formatRupees, statusLabel } from '../format';
import { Link, useTitle } from '../router';
import { ErrorSummary } from '../ui';
import { indiaDay, isLine } from './reports';
import { VIEWS } from './shipments';

const DAYS = 30;
const total = (body: PostBody<'/custom/api/v1/shipments'>) =>
  unwrap(api.POST('/custom/api/v1/shipments', { body: { ...body, per_page: 1 } })).then((page) => page.meta.total);
const summary = (from: string) =>
  unwrap(
    api.POST('/custom/api/v1/reports', {
      body: { start_date_time: `${from}T00:00:00`, end_date_time: `${indiaDay(0)}T23:59:59`, shipment_type: 'forward' },
    }),
  ).then((r) => r.payload.summary);

function StatusCounts({ title, from }: { title: string; from: string }) {
  const report = useQuery({ queryKey: ['reports', 'overview', from], queryFn: () => summary(from) });
  const lines = Object.entries(report.data ?? {}).flatMap(([status, v]) =>
    isLine(v) && v.count > 0 ? [{ status, count: v.count }] : [],
  );
  return (
    <article className="card" aria-labelledby={`counts-${from}`}>
      <h2 id={`counts-${from}`}>{title}</h2>
      <ErrorSummary error={report.error} />
      {lines.length === 0 ? (
        <p>
          No orders yet. <Link to="/create">Create a shipment</Link>.
        </p>
      ) : (
        <dl>
          {lines.map((l) => (
            <div key={l.status} className="dl-row">
              <dt>{statusLabel(l.status)}</dt>
              <dd>{l.count}</dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}

/** Today and this week at a glance, what needs action, the payment split and the last 30 days. */
export function Overview() {
  useTitle('Overview');
  const [ndr, unlabelled, stuck] = useQueries({
    queries: [
      { queryKey: ['shipments', 'count', 'ndr'], queryFn: () => total({ status: 'ndr_raised' }) },
      {
        queryKey: ['shipments', 'count', 'unlabelled'],
        queryFn: () => total({ status: VIEWS.unlabelled.status, ...VIEWS.unlabelled.body() }),
      },
      {
        queryKey: ['shipments', 'count', 'stuck'],
        queryFn: () => total({ status: VIEWS.stuck.status, ...VIEWS.stuck.body() }),
      },
    ],
  });
  const month = useQuery({ queryKey: ['reports', 'overview', 'month'], queryFn: () => summary(indiaDay(-(DAYS - 1))) });
  const split = Object.values(month.data ?? {}).reduce(
    (sum: { cod: number; prepaid: number }, v) =>
      isLine(v) ? { cod: sum.cod + v.sum_of_cod_orders, prepaid: sum.prepaid + v.sum_of_prepaid_orders } : sum,
    { cod: 0, prepaid: 0 },
  );
  const days = Array.from({ length: DAYS }, (_, i) => indiaDay(i - (DAYS - 1)));
  const booked = useQueries({
    queries: days.map((day) => ({
      queryKey: ['shipments', 'count', 'booked', day],
      queryFn: () => total({ created_at__gte: day, created_at__lte: day }),
    })),
  });
  const delivered = useQueries({
    queries: days.map((day) => ({
      queryKey: ['shipments', 'count', 'delivered', day],
      queryFn: () => total({ delivered_at__gte: day, delivered_at__lte: day }),
    })),
  });
  const series = days.map((day, i) => ({ day, booked: booked[i]?.data ?? 0, delivered: delivered[i]?.data ?? 0 }));
  return (
    <section>
      <h1>Overview</h1>
      <div className="cards">
        <StatusCounts title="Today" from={indiaDay(0)} />
        <StatusCounts title="Last 7 days" from={indiaDay(-6)} />
        <article className="card" aria-labelledby="action-h">
          <h2 id="action-h">Needs action</h2>
          <ul className="plain">
            <li>
              <Link to="/ndr">Failed deliveries (NDR): {ndr.data ?? '…'}</Link>
            </li>
            <li>
              <Link to="/shipments?view=unlabelled">
                {VIEWS.unlabelled.title}: {unlabelled.data ?? '…'}
              </Link>
            </li>
            <li>
              <Link to="/shipments?view=stuck">
                {VIEWS.stuck.title}: {stuck.data ?? '…'}
              </Link>
            </li>
          </ul>
        </article>
        <article className="card" aria-labelledby="split-h">
          <h2 id="split-h">Order value, last {DAYS} days</h2>
          <dl>
            <dt>Cash on delivery</dt>
            <dd>{formatRupees(split.cod)}</dd>
            <dt>Prepaid</dt>
            <dd>{formatRupees(split.prepaid)}</dd>
          </dl>
        </article>
      </div>
      <h2>Bookings and deliveries, last {DAYS} days</h2>
      <Chart series={series} />
    </section>
  );
}

/** Bars for bookings, a line for deliveries: a few SVG shapes, no chart library. */
function Chart({ series }: { series: { day: string; booked: number; delivered: number }[] }) {
  const width = 720;
  const height = 200;
  const pad = 24;
  const max = Math.max(1, ...series.flatMap((s) => [s.booked, s.delivered]));
  const step = (width - 2 * pad) / series.length;
  const y = (n: number) => height - pad - (n / max) * (height - 2 * pad);
  const line = series.map((s, i) => `${(pad + step * i + step / 2).toFixed(1)},${y(s.delivered).toFixed(1)}`).join(' ');
  const booked = series.reduce((n, s) => n + s.booked, 0);
  const delivered = series.reduce((n, s) => n + s.delivered, 0);
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${booked} shipments booked and ${delivered} delivered from ${formatDate(series[0]?.day)} to ${formatDate(series.at(-1)?.day)}`}
      >
        <line x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} className="axis" />
        {series.map((s, i) => (
          <rect
            key={s.day}
            x={pad + step * i + 2}
            y={y(s.booked)}
            width={Math.max(1, step - 4)}
            height={height - pad - y(s.booked)}
            className="bar"
          >
            <title>
              {formatDate(s.day)}: {s.booked} booked, {s.delivered} delivered
            </title>
          </rect>
        ))}
        <polyline points={line} className="delivered" />
        <text x={pad} y={14} className="max">
          {max}
        </text>
      </svg>
      <figcaption>
        <span className="key-bar" /> Booked ({booked}) <span className="key-line" /> Delivered ({delivered})
      </figcaption>
    </figure>
  );
}
