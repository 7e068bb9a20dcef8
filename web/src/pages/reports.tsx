import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import { formatRupees, statusLabel } from '../format';
import { useTitle } from '../router';
import { ErrorSummary, Field, Loading } from '../ui';

/** A calendar day in India, `days` from today. */
export function indiaDay(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

interface Line {
  status: string;
  count: number;
  prepaid: number;
  cod: number;
}

/** A status's entry of the summary (total_shipments beside them is a bare number). */
export function isLine(
  value: unknown,
): value is { count: number; sum_of_prepaid_orders: number; sum_of_cod_orders: number } {
  return typeof value === 'object' && value !== null && 'count' in value;
}

function csvOf(lines: Line[], from: string, to: string): string {
  const rows = [
    ['status', 'count', 'prepaid_order_value_inr', 'cod_order_value_inr'],
    ...lines.map((l) => [l.status, l.count, l.prepaid.toFixed(2), l.cod.toFixed(2)]),
  ];
  return `# Dakiya summary report, orders created ${from} to ${to} (India time)\n${rows.map((r) => r.join(',')).join('\n')}\n`;
}

/** The summary report by status and payment method for a date range, and its CSV. */
export function Reports() {
  useTitle('Reports');
  const [range, setRange] = useState({ from: indiaDay(-29), to: indiaDay(0) });
  const report = useQuery({
    queryKey: ['reports', range],
    queryFn: () =>
      unwrap(
        api.POST('/custom/api/v1/reports', {
          body: {
            start_date_time: `${range.from}T00:00:00`,
            end_date_time: `${range.to}T23:59:59`,
            shipment_type: 'forward',
          },
        }),
      ),
  });
  const lines = useMemo<Line[]>(() => {
    const summary = report.data?.payload.summary ?? {};
    return Object.entries(summary).flatMap(([status, value]) =>
      isLine(value)
        ? [{ status, count: value.count, prepaid: value.sum_of_prepaid_orders, cod: value.sum_of_cod_orders }]
        : [],
    );
  }, [report.data]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setRange({ from: String(form.get('from')), to: String(form.get('to')) });
  };
  const errors = report.error instanceof ApiError ? report.error.fieldErrors() : {};
  const total = lines.reduce(
    (sum, l) => ({ count: sum.count + l.count, prepaid: sum.prepaid + l.prepaid, cod: sum.cod + l.cod }),
    { count: 0, prepaid: 0, cod: 0 },
  );
  const csv = useMemo(
    () => URL.createObjectURL(new Blob([csvOf(lines, range.from, range.to)], { type: 'text/csv' })),
    [lines, range],
  );
  return (
    <section>
      <h1>Reports</h1>
      <form className="filters" onSubmit={submit} aria-label="Date range">
        <Field label="Orders from" name="from" type="date" defaultValue={range.from} error={errors.start_date_time} />
        <Field label="Orders to" name="to" type="date" defaultValue={range.to} error={errors.end_date_time} />
        <div className="filter-actions">
          <button type="submit">Show report</button>
        </div>
      </form>
      <ErrorSummary error={report.error} />
      {report.isPending ? (
        <Loading what="the report" />
      ) : (
        lines.length > 0 && (
          <>
            <table className="data">
              <caption>
                Shipments by status, orders created {range.from} to {range.to}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Shipments</th>
                  <th scope="col">Prepaid value</th>
                  <th scope="col">COD value</th>
                </tr>
              </thead>
              <tbody>
                {lines.map((l) => (
                  <tr key={l.status}>
                    <th scope="row" data-label="Status">
                      {statusLabel(l.status)}
                    </th>
                    <td data-label="Shipments">{l.count}</td>
                    <td data-label="Prepaid value">{formatRupees(l.prepaid)}</td>
                    <td data-label="COD value">{formatRupees(l.cod)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td>{total.count}</td>
                  <td>{formatRupees(total.prepaid)}</td>
                  <td>{formatRupees(total.cod)}</td>
                </tr>
              </tfoot>
            </table>
            {total.count === 0 && (
              <p>No orders were created in this range: pick a wider one, or book a shipment first.</p>
            )}
            <div className="actions">
              <a className="button secondary" href={csv} download={`dakiya-report-${range.from}-to-${range.to}.csv`}>
                Download CSV
              </a>
            </div>
          </>
        )
      )}
    </section>
  );
}
