import * as Tabs from '@radix-ui/react-tabs';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  type RowSelectionState,
  useReactTable,
  type VisibilityState,
} from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { toCsv } from '../../../src/domain/csv';
import { api, type PostBody, type Shipment, unwrap } from '../api/client';
import { channelName, formatDateTime, formatRupees, shipmentStatusLabel, statusLabel } from '../format';
import { Link, navigate, useLocation, useTitle } from '../router';
import { LabelsDownload } from '../labels';
import { useCan } from '../permissions';
import { EmptyState, ErrorSummary, Field, Loading, ScrollHints, SelectField } from '../ui';
import { useReferenceData } from './reference';
import { NO_RISK_FILTERS, RiskFilterFields, type RiskFilters, riskBody, riskColumns } from './risk';

type ListingBody = PostBody<'/custom/api/v1/shipments'>;
type Status = NonNullable<ListingBody['status']>;

/**
 * The status tabs: all, and every status a shipment can have (the ten of the spec; "others" holds
 * lost, damaged and held parcels, named so). Wide screens show every tab, on as many lines as they
 * need; a phone scrolls them, and shows that it does.
 */
const TABS: { status: Status | 'all'; label: string }[] = [
  { status: 'all', label: 'All' },
  { status: 'pending', label: 'Pending' },
  { status: 'in_transit', label: 'In transit' },
  { status: 'out_for_delivery', label: 'Out for delivery' },
  { status: 'delivered', label: 'Delivered' },
  { status: 'ndr_raised', label: 'NDR raised' },
  { status: 'rto_initiated', label: 'RTO initiated' },
  { status: 'rto_in_transit', label: 'RTO in transit' },
  { status: 'rto_delivered', label: 'RTO delivered' },
  { status: 'others', label: statusLabel('others') },
  { status: 'cancelled', label: 'Cancelled' },
];
const PER_PAGE = 25;

interface Filters {
  search: string;
  payment: '' | 'cod' | 'prepaid';
  carrier: string;
  warehouse: string;
  store: string;
  from: string;
  to: string;
  risk: RiskFilters;
}
const NO_FILTERS: Filters = {
  search: '',
  payment: '',
  carrier: '',
  warehouse: '',
  store: '',
  from: '',
  to: '',
  risk: NO_RISK_FILTERS,
};

/** The listing's body for the filters (without the status tab, paging or cursor). */
function filterBody(f: Filters): ListingBody {
  return {
    ...(f.search.trim() && { search: f.search.trim() }),
    ...(f.payment && { is_cod: f.payment === 'cod' }),
    ...(f.carrier && { carrier_id: f.carrier }),
    ...(f.warehouse && { warehouse_id: f.warehouse }),
    ...(f.store && { store_name: f.store }),
    ...(f.from && { created_at__gte: f.from }),
    ...(f.to && { created_at__lte: f.to }),
    ...riskBody(f.risk),
  };
}

/**
 * What the overview's "Needs action" links open (/shipments?view=…): each exactly the shipments it
 * counts, with the listing's own filters, so the count and the list cannot disagree. The overview
 * counts with these bodies too.
 */
export const VIEWS = {
  unlabelled: { title: 'Not yet labelled', status: 'pending', body: (): ListingBody => ({ label_generated: false }) },
  stuck: {
    title: 'In transit with no scan for 3 days',
    status: 'in_transit',
    body: (): ListingBody => ({ updated_at__lte: new Date(Date.now() - 3 * 86_400_000).toISOString() }),
  },
} satisfies Record<string, { title: string; status: Status; body: () => ListingBody }>;
export type View = keyof typeof VIEWS;
const viewOf = (name: string | null) => (name && Object.hasOwn(VIEWS, name) ? VIEWS[name as View] : undefined);

const listing = (body: ListingBody) => unwrap(api.POST('/custom/api/v1/shipments', { body }));

const column = createColumnHelper<Shipment>();
const COLUMNS = [
  column.display({
    id: 'select',
    header: ({ table }) => (
      <input
        type="checkbox"
        aria-label="Select every shipment on this page"
        checked={table.getIsAllRowsSelected()}
        onChange={table.getToggleAllRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={`Select ${row.original.attributes.order.display_id}`}
        checked={row.getIsSelected()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  }),
  column.accessor((s) => s.attributes.order.display_id, {
    id: 'order',
    header: 'Order',
    cell: (c) => (
      <>
        <Link to={shipmentPath(c.row.original)} className="row-link">
          {c.getValue()}
        </Link>
        <StoreOrder order={c.row.original.attributes.order} />
      </>
    ),
  }),
  column.accessor((s) => s.attributes.tracking_number ?? '—', { id: 'awb', header: 'AWB' }),
  column.accessor((s) => s.attributes.shipping_address.name, { id: 'customer', header: 'Customer' }),
  column.accessor((s) => `${s.attributes.shipping_address.city} ${s.attributes.shipping_address.zip}`, {
    id: 'destination',
    header: 'Destination',
  }),
  column.accessor((s) => shipmentStatusLabel(s.attributes.status, s.attributes.sub_status), {
    id: 'status',
    header: 'Status',
    cell: (c) => <span className={`status status-${c.row.original.attributes.status}`}>{c.getValue()}</span>,
  }),
  column.accessor((s) => s.attributes.carrier?.name ?? '—', { id: 'courier', header: 'Courier' }),
  column.accessor((s) => `${s.attributes.is_cod ? 'COD' : 'Prepaid'} ${formatRupees(s.attributes.total_price)}`, {
    id: 'payment',
    header: 'Payment',
    cell: (c) => <span className="nowrap">{c.getValue()}</span>,
  }),
  column.accessor((s) => s.attributes.created_at, {
    id: 'created',
    header: 'Created',
    cell: (c) => <span className="nowrap">{formatDateTime(c.getValue())}</span>,
  }),
  ...riskColumns(column),
];

/**
 * The columns a 1366 px screen shows without crowding; the risk view's (RTO risk, address,
 * confirmation, COD to prepaid) join them under Columns, or on their own when a risk filter is applied.
 */
const RISK_COLUMNS = ['risk', 'address', 'confirmation', 'prepaid'];
const DEFAULT_VISIBILITY: VisibilityState = Object.fromEntries(RISK_COLUMNS.map((id) => [id, false]));

/** Beside the order id, the store's own name of an order a sales channel imported ("Shopify #1001"). */
function StoreOrder({ order }: { order: Shipment['attributes']['order'] }) {
  if (order.channel === 'manual_order' || !order.channel_order_name) return null;
  return <span className="store-order">{`${channelName(order.channel)} ${order.channel_order_name}`}</span>;
}

export function shipmentPath(s: Shipment): string {
  return `/shipments/${encodeURIComponent(s.id)}?order=${encodeURIComponent(s.attributes.order.display_id)}`;
}

export function Shipments() {
  useTitle('Shipments');
  const view = viewOf(useLocation().query.get('view'));
  // Its moment is fixed when the page opens: a body that moved with every render would refetch forever.
  const [viewBody] = useState(() => view?.body() ?? {});
  const [tab, setTab] = useState<Status | 'all'>(view?.status ?? 'all');
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // Cursors of the pages before this one, and this one's: Next pushes, Previous pops.
  const [cursors, setCursors] = useState<ListingBody['search_after'][]>([undefined]);
  const [visibility, setVisibility] = useState<VisibilityState>(DEFAULT_VISIBILITY);
  const reference = useReferenceData();

  const base = { ...filterBody(filters), ...viewBody };
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({
    queryKey: ['shipments', base, tab, cursor],
    queryFn: () =>
      listing({
        ...base,
        ...(tab !== 'all' && { status: tab }),
        per_page: PER_PAGE,
        ...(cursor && { search_after: cursor }),
      }),
    placeholderData: keepPreviousData,
  });
  // Each tab's count is the listing's exact total under the same filters.
  const counts = useQueries({
    queries: TABS.map((t) => ({
      queryKey: ['shipments', 'count', base, t.status],
      queryFn: async () =>
        (await listing({ ...base, ...(t.status !== 'all' && { status: t.status }), per_page: 1 })).meta.total,
    })),
  });

  const rows = useMemo(() => page.data?.data ?? [], [page.data]);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const table = useReactTable({
    data: rows,
    columns: COLUMNS,
    getRowId: (s) => s.id,
    getCoreRowModel: getCoreRowModel(),
    state: { columnVisibility: visibility, rowSelection: selection },
    onColumnVisibilityChange: setVisibility,
    onRowSelectionChange: setSelection,
  });
  const selected = rows.filter((s) => selection[s.id]);
  const restart = () => {
    setCursors([undefined]);
    setSelection({});
  };
  const apply = (next: Filters) => {
    setFilters(next);
    restart();
    // Filtering by risk shows the risk: those columns join the table.
    if (Object.values(next.risk).some(Boolean))
      setVisibility({ ...visibility, ...Object.fromEntries(RISK_COLUMNS.map((id) => [id, true])) });
  };
  const filtered =
    [...Object.values({ ...filters, risk: '' }), ...Object.values(filters.risk)].some(Boolean) ||
    tab !== 'all' ||
    view !== undefined;

  return (
    <section>
      <div className="page-head">
        <h1>Shipments</h1>
        <Link to="/create" className="button">
          Create shipment
        </Link>
      </div>
      <form
        className="filters"
        aria-label="Filters"
        onSubmit={(event) => {
          event.preventDefault();
          apply(draft);
        }}
      >
        <Field
          label="Search"
          type="search"
          placeholder="AWB, order id, phone or name"
          value={draft.search}
          onChange={(e) => setDraft({ ...draft, search: e.target.value })}
        />
        <SelectField
          label="Payment"
          value={draft.payment}
          onChange={(e) => setDraft({ ...draft, payment: e.target.value as Filters['payment'] })}
          options={[
            { value: '', label: 'Any' },
            { value: 'cod', label: 'COD' },
            { value: 'prepaid', label: 'Prepaid' },
          ]}
        />
        <SelectField
          label="Courier"
          value={draft.carrier}
          onChange={(e) => setDraft({ ...draft, carrier: e.target.value })}
          options={[
            { value: '', label: 'Any' },
            ...reference.carriers.map((c) => ({ value: c.carrier_id, label: c.carrier_name })),
          ]}
        />
        <SelectField
          label="Warehouse"
          value={draft.warehouse}
          onChange={(e) => setDraft({ ...draft, warehouse: e.target.value })}
          options={[{ value: '', label: 'Any' }, ...reference.warehouses.map((w) => ({ value: w.id, label: w.name }))]}
        />
        <SelectField
          label="Store"
          value={draft.store}
          onChange={(e) => setDraft({ ...draft, store: e.target.value })}
          options={[
            { value: '', label: 'Any' },
            ...reference.stores.map((s) => ({ value: s.store_name, label: s.brand_name ?? s.store_name })),
          ]}
        />
        <Field
          label="Created from"
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
        <Field
          label="Created to"
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.target.value })}
        />
        <RiskFilterFields value={draft.risk} onChange={(risk) => setDraft({ ...draft, risk })} />
        <div className="filter-actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setDraft(NO_FILTERS);
              apply(NO_FILTERS);
              if (view) navigate('/shipments');
            }}
          >
            Clear
          </button>
        </div>
      </form>
      {view && (
        <p className="notice">
          Showing only: {view.title}. <Link to="/shipments">Show every shipment</Link>
        </p>
      )}

      <Tabs.Root
        value={tab}
        onValueChange={(value) => {
          setTab(value as Status | 'all');
          restart();
        }}
      >
        <ScrollHints className="tab-scroller">
          <Tabs.List className="tabs" aria-label="Status">
            {TABS.map((t, i) => (
              <Tabs.Trigger key={t.status} value={t.status} className="tab">
                {t.label} <span className="count">{counts[i]?.data ?? '…'}</span>
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </ScrollHints>
        {TABS.map((t) => (
          <Tabs.Content key={t.status} value={t.status} className="tab-panel">
            {t.status === tab && (
              <>
                <ErrorSummary error={page.error} />
                {page.isPending ? (
                  <Loading what="shipments" />
                ) : rows.length === 0 ? (
                  filtered ? (
                    <EmptyState title="No shipments match">
                      <p>Nothing matches these filters. Clear them, or pick another status tab.</p>
                    </EmptyState>
                  ) : (
                    <EmptyState title="No shipments yet">
                      <p>
                        Book your first parcel with <Link to="/create">Create shipment</Link>: it appears here with its
                        AWB, status and label.
                      </p>
                    </EmptyState>
                  )
                ) : (
                  <>
                    <details className="columns">
                      <summary>Columns</summary>
                      <fieldset>
                        <legend>Show columns</legend>
                        {table
                          .getAllLeafColumns()
                          .filter((c) => c.id !== 'select')
                          .map((c) => (
                            <label key={c.id}>
                              <input
                                type="checkbox"
                                checked={c.getIsVisible()}
                                onChange={c.getToggleVisibilityHandler()}
                                disabled={c.id === 'order'}
                              />{' '}
                              {String(c.columnDef.header)}
                            </label>
                          ))}
                      </fieldset>
                    </details>
                    {selected.length > 0 && <BulkActions shipments={selected} />}
                    <div className="table-scroll">
                      <table className="data responsive">
                        <caption className="visually-hidden">Shipments, newest first</caption>
                        <thead>
                          {table.getHeaderGroups().map((group) => (
                            <tr key={group.id}>
                              {group.headers.map((h) => (
                                <th key={h.id} scope="col">
                                  {flexRender(h.column.columnDef.header, h.getContext())}
                                </th>
                              ))}
                            </tr>
                          ))}
                        </thead>
                        <tbody>
                          {table.getRowModel().rows.map((row) => (
                            <tr
                              key={row.id}
                              onClick={(e) =>
                                (e.target as HTMLElement).closest('a, input') || navigate(shipmentPath(row.original))
                              }
                            >
                              {row.getVisibleCells().map((cell) => (
                                <td
                                  key={cell.id}
                                  data-label={
                                    cell.column.id === 'select' ? 'Select' : String(cell.column.columnDef.header)
                                  }
                                >
                                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                                </td>
                              ))}
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                    <nav className="pager" aria-label="Pages">
                      <button
                        type="button"
                        className="secondary"
                        disabled={cursors.length === 1}
                        onClick={() => {
                          setCursors(cursors.slice(0, -1));
                          setSelection({});
                        }}
                      >
                        Previous
                      </button>
                      <span>
                        Page {cursors.length} · {page.data?.meta.total ?? 0} shipments
                      </span>
                      <button
                        type="button"
                        className="secondary"
                        disabled={!page.data?.meta.next_search_after}
                        onClick={() => {
                          setCursors([
                            ...cursors,
                            (page.data?.meta.next_search_after ?? undefined) as ListingBody['search_after'],
                          ]);
                          setSelection({});
                        }}
                      >
                        Next
                      </button>
                    </nav>
                  </>
                )}
              </>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}

/**
 * The selected rows as CSV, as the table shows them (money in rupees, times in India). The cells go
 * through the server's own CSV writer (src/domain/csv.ts), so a name or city written like a formula
 * (=, +, -, @) reaches a spreadsheet as text, as in every export the server makes.
 */
function csvOf(shipments: Shipment[]): string {
  const header = [
    'order_id',
    'awb',
    'status',
    'customer',
    'phone',
    'city',
    'pincode',
    'courier',
    'payment',
    'amount_inr',
    'created_at',
  ];
  return toCsv(
    header,
    shipments.map((s) => {
      const a = s.attributes;
      return [
        a.order.display_id,
        a.tracking_number ?? '',
        a.status,
        a.shipping_address.name,
        a.shipping_address.phone,
        a.shipping_address.city,
        a.shipping_address.zip,
        a.carrier?.name ?? '',
        a.is_cod ? 'cod' : 'prepaid',
        a.total_price.toFixed(2),
        formatDateTime(a.created_at),
      ];
    }),
  );
}

/** What to do with the selected rows: export them, print their labels as one PDF, or cancel those not yet picked up. */
function BulkActions({ shipments }: { shipments: Shipment[] }) {
  const queryClient = useQueryClient();
  const can = useCan();
  const csv = useMemo(() => URL.createObjectURL(new Blob([csvOf(shipments)], { type: 'text/csv' })), [shipments]);
  const awbs = shipments.flatMap((s) => (s.attributes.tracking_number ? [s.attributes.tracking_number] : []));
  // A cancelled shipment's label is void: the API would refuse the whole run for it.
  const printable = shipments.flatMap((s) =>
    s.attributes.tracking_number && s.attributes.status !== 'cancelled' ? [s.attributes.tracking_number] : [],
  );
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/custom/api/v1/cancel-order', { body: { awbs } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['shipments'] }),
  });
  return (
    <section className="bulk" aria-label="Selected shipments">
      <span>{shipments.length} selected</span>
      <a className="button secondary" href={csv} download="dakiya-shipments.csv">
        Export CSV
      </a>
      {/* A label prints the buyer's details whole: only for those who may see them. */}
      {can('buyers:read') && <LabelsDownload awbs={printable}>Download labels</LabelsDownload>}
      <button
        type="button"
        className="danger"
        disabled={awbs.length === 0 || cancel.isPending}
        onClick={() => cancel.mutate()}
      >
        Cancel selected
      </button>
      <ErrorSummary error={cancel.error} />
      {cancel.data && <p role="status">{cancel.data.message}</p>}
    </section>
  );
}
