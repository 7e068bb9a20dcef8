import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { paths } from '../api/schema';
import { api, unwrap } from '../api/client';
import { formatDate, formatDateTime, formatRupees, statusLabel } from '../format';
import { useCan, useStoreLimited } from '../permissions';
import { DataTable, ExportLink, exportHref, Filters, ListingTab, type Query, useCursorPages } from './money-kit';
import { RemittanceUpload } from './money-remittance-file';

// The COD ledger's tabs: receivables (what couriers owe per delivered COD shipment), remittances
// (what they paid, per AWB and UTR, and the import of their files), the reconciliation per cycle
// and the discrepancies found on the way.

type Get<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;
type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
type Receivable = Get<'/custom/api/v1/cod/receivables'>['data'][number];
type Remittance = Get<'/custom/api/v1/cod/remittances'>['data'][number];
type Cycle = Get<'/custom/api/v1/cod/reconciliation'>['data'][number];
type Options = { value: string; label: string }[];

const RECEIVABLE_STATES: Options = [
  { value: 'pending', label: 'Pending' },
  { value: 'remitted', label: 'Remitted' },
  { value: 'reconciled', label: 'Reconciled' },
];

const receivable = createColumnHelper<Receivable>();
const RECEIVABLE_COLUMNS = [
  receivable.accessor('awb', { header: 'AWB' }),
  receivable.accessor('courier_name', { header: 'Courier' }),
  receivable.accessor('cod_amount', { header: 'COD amount', cell: (c) => formatRupees(c.getValue()) }),
  receivable.accessor('delivered_at', { header: 'Delivered', cell: (c) => formatDateTime(c.getValue()) }),
  receivable.accessor('expected_date', {
    header: 'Due',
    cell: (c) => (
      <>
        {formatDate(c.getValue())}
        {c.row.original.overdue && <span className="badge overdue">Overdue</span>}
      </>
    ),
  }),
  receivable.accessor('state', {
    header: 'State',
    cell: (c) => <span className={`status money-${c.getValue()}`}>{statusLabel(c.getValue())}</span>,
  }),
  receivable.accessor('received_amount', { header: 'Received', cell: (c) => formatRupees(c.getValue()) }),
  receivable.accessor('utr', { header: 'UTR', cell: (c) => c.getValue() ?? '—' }),
  receivable.accessor('remittance_date', { header: 'Remitted on', cell: (c) => formatDate(c.getValue()) }),
];

/** Delivered COD shipments and what their couriers owe, filtered by state, courier, UTR and dates. */
export function Receivables({ couriers }: { couriers: Options }) {
  const [query, setQuery] = useState<Query>({});
  const list = useCursorPages('receivables', query, (q) =>
    unwrap(
      api.GET('/custom/api/v1/cod/receivables', { params: { query: q as QueryOf<'/custom/api/v1/cod/receivables'> } }),
    ),
  );
  return (
    <ListingTab
      what="receivables"
      specs={[
        { name: 'state', label: 'State', options: RECEIVABLE_STATES },
        { name: 'carrier_id', label: 'Courier', options: couriers },
        { name: 'utr', label: 'UTR' },
        { name: 'delivered_from', label: 'Delivered from', type: 'date' },
        { name: 'delivered_to', label: 'Delivered to', type: 'date' },
        { name: 'expected_from', label: 'Due from', type: 'date' },
        { name: 'expected_to', label: 'Due to', type: 'date' },
      ]}
      query={query}
      onApply={setQuery}
      csvHref={exportHref('/custom/api/v1/cod/receivables/export', query)}
      caption="COD receivables, newest delivery first"
      columns={RECEIVABLE_COLUMNS}
      rowId={(r) => r.id}
      list={list}
      empty={{
        title: 'No COD receivables yet',
        text: 'A cash-on-delivery shipment appears here once it is delivered, with the day its courier should pay.',
      }}
      unmatched={{
        title: 'No receivables match',
        text: 'Nothing matches these filters: clear them or widen the dates.',
      }}
    />
  );
}

const remittance = createColumnHelper<Remittance>();
const REMITTANCE_COLUMNS = [
  remittance.accessor('remittance_date', { header: 'Remitted on', cell: (c) => formatDate(c.getValue()) }),
  remittance.accessor('utr', { header: 'UTR' }),
  remittance.accessor('awb', { header: 'AWB' }),
  remittance.accessor('courier_name', { header: 'Courier' }),
  remittance.accessor('amount', { header: 'Amount', cell: (c) => formatRupees(c.getValue()) }),
  remittance.accessor('imported_at', { header: 'Imported', cell: (c) => formatDateTime(c.getValue()) }),
];

/** What couriers paid, line by line, and the import of a courier's remittance file. */
export function Remittances({ couriers }: { couriers: Options }) {
  const can = useCan();
  const limited = useStoreLimited();
  const [query, setQuery] = useState<Query>({});
  const list = useCursorPages('remittances', query, (q) =>
    unwrap(
      api.GET('/custom/api/v1/cod/remittances', { params: { query: q as QueryOf<'/custom/api/v1/cod/remittances'> } }),
    ),
  );
  return (
    <>
      {/* A file's lines may be of any store: a member limited to some is refused its import. */}
      {can('money:write') && !limited && <RemittanceUpload />}
      <h2>Remittance lines</h2>
      <ListingTab
        what="remittances"
        specs={[
          { name: 'carrier_id', label: 'Courier', options: couriers },
          { name: 'utr', label: 'UTR' },
          { name: 'awb', label: 'AWB' },
          { name: 'from', label: 'Remitted from', type: 'date' },
          { name: 'to', label: 'Remitted to', type: 'date' },
        ]}
        query={query}
        onApply={setQuery}
        csvHref={exportHref('/custom/api/v1/cod/remittances/export', query)}
        caption="Remittance lines, newest first"
        columns={REMITTANCE_COLUMNS}
        rowId={(r) => r.id}
        list={list}
        empty={{
          title: 'No remittances yet',
          text: "Import a courier's remittance file above: each line pays one AWB.",
        }}
        unmatched={{ title: 'No remittance lines match' }}
      />
    </>
  );
}

const CYCLE_COUNTS = [
  ['receivables', 'Receivables'],
  ['pending', 'Pending'],
  ['remitted', 'Remitted'],
  ['reconciled', 'Reconciled'],
  ['discrepancies', 'With discrepancies'],
] as const;

/** Per remittance cycle (a courier's payout day): what was due, what came, the difference, the counts. */
export function Reconciliation({ couriers }: { couriers: Options }) {
  const [query, setQuery] = useState<Query>({});
  const summary = useQuery({
    queryKey: ['money', 'reconciliation', query],
    queryFn: () =>
      unwrap(
        api.GET('/custom/api/v1/cod/reconciliation', {
          params: { query: query as QueryOf<'/custom/api/v1/cod/reconciliation'> },
        }),
      ),
  });
  const rows = summary.data?.data ?? [];
  const totals = summary.data?.totals;
  return (
    <>
      <Filters
        label="Filter cycles"
        onApply={setQuery}
        error={summary.error}
        specs={[
          { name: 'carrier_id', label: 'Courier', options: couriers },
          { name: 'from', label: 'Payout from', type: 'date' },
          { name: 'to', label: 'Payout to', type: 'date' },
        ]}
      />
      <div className="actions">
        <ExportLink href={exportHref('/custom/api/v1/cod/reconciliation/export', query)}>
          Export reconciliation (CSV)
        </ExportLink>
      </div>
      <DataTable
        caption="Reconciliation by remittance cycle, latest payout first"
        rows={rows}
        rowId={(c: Cycle) => `${c.carrier_id}/${c.expected_date}`}
        loading={summary.isPending}
        error={summary.error}
        empty={{
          title: 'No remittance cycles',
          text: 'A cycle is a courier’s payout day: it appears once a COD shipment delivered by that courier is due on it.',
        }}
        columns={CYCLE_COLUMNS}
        footer={
          totals && (
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Total
                </th>
                <td data-label="Expected">{formatRupees(totals.expected_amount)}</td>
                <td data-label="Received">{formatRupees(totals.received_amount)}</td>
                <td data-label="Difference">{formatRupees(totals.difference)}</td>
                {CYCLE_COUNTS.map(([key, label]) => (
                  <td key={key} data-label={label}>
                    {totals[key]}
                  </td>
                ))}
              </tr>
            </tfoot>
          )
        }
      />
    </>
  );
}

const cycle = createColumnHelper<Cycle>();
const CYCLE_COLUMNS = [
  cycle.accessor('expected_date', { header: 'Payout day', cell: (c) => formatDate(c.getValue()) }),
  cycle.accessor('courier_name', { header: 'Courier' }),
  cycle.accessor('expected_amount', { header: 'Expected', cell: (c) => formatRupees(c.getValue()) }),
  cycle.accessor('received_amount', { header: 'Received', cell: (c) => formatRupees(c.getValue()) }),
  cycle.accessor('difference', { header: 'Difference', cell: (c) => formatRupees(c.getValue()) }),
  ...CYCLE_COUNTS.map(([key, label]) => cycle.accessor(key, { header: label })),
];

type Discrepancy = Get<'/custom/api/v1/cod/discrepancies'>['data'][number];

/** The API's kinds in the words a merchant's accountant uses. */
const DISCREPANCY_KINDS: Options = [
  { value: 'short_paid', label: 'Short-paid' },
  { value: 'over_paid', label: 'Over-paid' },
  { value: 'paid_not_delivered', label: 'RTO paid as delivered' },
  { value: 'missing_from_remittance', label: 'Missing past due' },
];
const kindLabel = (kind: string) => DISCREPANCY_KINDS.find((k) => k.value === kind)?.label ?? kind;

const discrepancy = createColumnHelper<Discrepancy>();
/** Discrepancies carry the courier's id only: its name comes from the catalogue the filters use. */
const discrepancyColumns = (couriers: Options) => [
  discrepancy.accessor('detected_at', { header: 'Found', cell: (c) => formatDateTime(c.getValue()) }),
  discrepancy.accessor('kind', {
    header: 'Kind',
    cell: (c) => <span className={`status money-${c.getValue()}`}>{kindLabel(c.getValue())}</span>,
  }),
  discrepancy.accessor('awb', { header: 'AWB' }),
  discrepancy.accessor('carrier_id', {
    header: 'Courier',
    cell: (c) => couriers.find((o) => o.value === c.getValue())?.label ?? c.getValue(),
  }),
  discrepancy.accessor('expected_amount', { header: 'Expected', cell: (c) => formatRupees(c.getValue()) }),
  discrepancy.accessor('received_amount', { header: 'Received', cell: (c) => formatRupees(c.getValue()) }),
  discrepancy.accessor('difference', { header: 'Difference', cell: (c) => formatRupees(c.getValue()) }),
  discrepancy.accessor('expected_date', { header: 'Was due', cell: (c) => formatDate(c.getValue()) }),
];

/**
 * What did not add up, as found: short and over payments, RTOs paid as delivered, cash missing
 * past its day. Kept as found (never edited), so the tab only lists and exports them.
 */
export function Discrepancies({ couriers }: { couriers: Options }) {
  const [query, setQuery] = useState<Query>({});
  const list = useCursorPages('discrepancies', query, (q) =>
    unwrap(
      api.GET('/custom/api/v1/cod/discrepancies', {
        params: { query: q as QueryOf<'/custom/api/v1/cod/discrepancies'> },
      }),
    ),
  );
  const columns = useMemo(() => discrepancyColumns(couriers), [couriers]);
  return (
    <ListingTab
      what="discrepancies"
      specs={[
        { name: 'kind', label: 'Kind', options: DISCREPANCY_KINDS },
        { name: 'carrier_id', label: 'Courier', options: couriers },
        { name: 'from', label: 'Found from', type: 'date' },
        { name: 'to', label: 'Found to', type: 'date' },
      ]}
      query={query}
      onApply={setQuery}
      csvHref={exportHref('/custom/api/v1/cod/discrepancies/export', query)}
      caption="COD discrepancies, newest first"
      columns={columns}
      rowId={(d) => d.id}
      list={list}
      empty={{
        title: 'No discrepancies',
        text: 'Every remittance so far matched what was owed. Import each courier’s remittance file on the Remittances tab: a line paying too little or too much, or paying an RTO, shows here, and so does cash still unpaid a day after it was due.',
      }}
      unmatched={{
        title: 'No discrepancies match',
        text: 'Nothing matches these filters: clear them or widen the dates.',
      }}
    />
  );
}
