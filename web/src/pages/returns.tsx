import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type PostBody, unwrap } from '../api/client';
import { formatDateTime, formatRupees, statusLabel } from '../format';
import { Link, useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';

type ReturnsBody = PostBody<'/custom/api/v1/returns'>;

/** The returns listing: reverse pickups with their status and quality-check outcome. */
export function Returns() {
  useTitle('Returns');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<ReturnsBody['search_after'][]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({
    queryKey: ['returns', search, cursor],
    queryFn: () =>
      unwrap(
        api.POST('/custom/api/v1/returns', {
          body: { per_page: 25, ...(search && { search }), ...(cursor && { search_after: cursor }) },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSearch(String(new FormData(event.currentTarget).get('search') ?? '').trim());
    setCursors([undefined]);
  };
  const rows = page.data?.data ?? [];
  return (
    <section>
      <h1>Returns</h1>
      <p>
        A return starts from a delivered shipment: open it in <Link to="/shipments">Shipments</Link> (the Delivered tab)
        and choose "Create a return". The quality check, when asked for, is the courier's at pickup: passed, or failed
        with its reason. What buyers ask for on their tracking page waits in{' '}
        <Link to="/returns/requests">Return requests</Link>.
      </p>
      <form className="filters" onSubmit={submit} aria-label="Find returns">
        <Field label="Search returns" name="search" type="search" placeholder="AWB, order id, phone or name" />
        <div className="filter-actions">
          <button type="submit">Search</button>
        </div>
      </form>
      <ErrorSummary error={page.error} />
      {page.isPending ? (
        <Loading what="returns" />
      ) : rows.length === 0 ? (
        <EmptyState title={search ? 'No returns match' : 'No returns yet'}>
          <p>
            {search
              ? 'Nothing matches this search: try the AWB or the order id.'
              : 'A return is a reverse pickup from your customer back to a warehouse: open a delivered shipment and choose "Create a return".'}
          </p>
        </EmptyState>
      ) : (
        <>
          <table className="data responsive">
            <caption>Returns, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">AWB</th>
                <th scope="col">Customer</th>
                <th scope="col">Status</th>
                <th scope="col">Quality check</th>
                <th scope="col">Courier</th>
                <th scope="col">Value</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const a = r.attributes;
                return (
                  <tr key={r.id}>
                    <td data-label="Order">{a.order.display_id}</td>
                    <td data-label="AWB">{a.tracking_number ?? '—'}</td>
                    <td data-label="Customer">
                      {a.pickup_address.name}, {a.pickup_address.city}
                    </td>
                    <td data-label="Status">
                      <span className={`status status-${a.status}`}>{statusLabel(a.status)}</span>
                    </td>
                    <td data-label="Quality check">
                      {a.qc_enabled
                        ? `${a.qc_status ? statusLabel(a.qc_status) : 'Awaiting'}${a.qc_reason ? `: ${a.qc_reason}` : ''}`
                        : 'No QC'}
                    </td>
                    <td data-label="Courier">{a.carrier?.name ?? '—'}</td>
                    <td data-label="Value">{formatRupees(a.total_price)}</td>
                    <td data-label="Created">{formatDateTime(a.created_at)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              className="secondary"
              disabled={cursors.length === 1}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous
            </button>
            <span>
              Page {cursors.length} · {page.data?.meta.total ?? 0} returns
            </span>
            <button
              type="button"
              className="secondary"
              disabled={!page.data?.meta.next_search_after}
              onClick={() =>
                setCursors([
                  ...cursors,
                  (page.data?.meta.next_search_after ?? undefined) as ReturnsBody['search_after'],
                ])
              }
            >
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
