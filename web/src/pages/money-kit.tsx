import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ColumnDef, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ApiError } from '../api/client';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';

// What the Money screen's tabs share: a filter form whose values are the API's query, cursor
// paging over next_cursor, a table, and the link to the API's own CSV export of the same filters.

export type Query = Record<string, string>;

export interface FilterSpec {
  name: string;
  label: string;
  type?: 'text' | 'date' | 'search';
  options?: { value: string; label: string }[];
}

/** The filters as a query: blank ones left out, text trimmed. */
function queryOf(form: HTMLFormElement): Query {
  const query: Query = {};
  for (const [name, value] of new FormData(form))
    if (typeof value === 'string' && value.trim()) query[name] = value.trim();
  return query;
}

/**
 * A tab's filters: applied together on submit; the API's field errors (a bad date, a bad UTR)
 * show beside their fields.
 */
export function Filters({
  label,
  specs,
  onApply,
  error,
}: {
  label: string;
  specs: FilterSpec[];
  onApply: (query: Query) => void;
  error: unknown;
}) {
  const errors = error instanceof ApiError ? error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(queryOf(event.currentTarget));
  };
  return (
    <form className="filters" aria-label={label} onSubmit={submit} onReset={() => onApply({})}>
      {specs.map((s) =>
        s.options ? (
          <SelectField
            key={s.name}
            label={s.label}
            name={s.name}
            options={[{ value: '', label: 'Any' }, ...s.options]}
            error={errors[s.name]}
          />
        ) : (
          <Field key={s.name} label={s.label} name={s.name} type={s.type ?? 'text'} error={errors[s.name]} />
        ),
      )}
      <div className="filter-actions">
        <button type="submit">Apply filters</button>
        <button type="reset" className="secondary">
          Clear
        </button>
      </div>
    </form>
  );
}

/** The API's CSV of the rows these filters select (the session cookie goes with the download). */
export function exportHref(path: string, query: Query): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

export function ExportLink({ href, children }: { href: string; children: string }) {
  return (
    <a className="button secondary" href={href} download>
      {children}
    </a>
  );
}

/** Rows a page: the API's limit, the same on every tab. */
const PAGE_SIZE = '25';

/** A listing paged by the API's next_cursor: Next pushes a cursor, Previous pops it; new filters start again. */
export function useCursorPages<T>(
  key: string,
  query: Query,
  fetchPage: (query: Query) => Promise<{ data: T[]; next_cursor: string | null }>,
) {
  const [cursors, setCursors] = useState<string[]>([]);
  const [seen, setSeen] = useState(query);
  if (seen !== query) {
    setSeen(query);
    setCursors([]);
  }
  const cursor = cursors.at(-1);
  const page = useQuery({
    queryKey: ['money', key, query, cursor],
    queryFn: () => fetchPage({ ...query, limit: PAGE_SIZE, ...(cursor && { cursor }) }),
    placeholderData: keepPreviousData,
  });
  const next = page.data?.next_cursor;
  return {
    page,
    rows: page.data?.data ?? [],
    number: cursors.length + 1,
    previous: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
    next: next ? () => setCursors([...cursors, next]) : undefined,
  };
}

export function Pager({
  number,
  previous,
  next,
  what,
}: {
  number: number;
  previous: (() => void) | undefined;
  next: (() => void) | undefined;
  what: string;
}) {
  return (
    <nav className="pager" aria-label={`Pages of ${what}`}>
      <button type="button" className="secondary" disabled={!previous} onClick={previous}>
        Previous
      </button>
      <span>Page {number}</span>
      <button type="button" className="secondary" disabled={!next} onClick={next}>
        Next
      </button>
    </nav>
  );
}

/**
 * A TanStack table of the rows, each cell labelled by its column (the phone layout shows one card
 * per row); `empty` says what to do when there are none.
 */
export function DataTable<T>({
  caption,
  rows,
  columns,
  rowId,
  loading,
  error,
  empty,
  footer,
}: {
  caption: string;
  rows: T[];
  // biome-ignore lint/suspicious/noExplicitAny: TanStack's column definitions are typed per value.
  columns: ColumnDef<T, any>[];
  rowId: (row: T) => string;
  loading: boolean;
  error: unknown;
  empty: { title: string; text: ReactNode };
  footer?: ReactNode;
}) {
  const table = useReactTable({ data: rows, columns, getRowId: rowId, getCoreRowModel: getCoreRowModel() });
  if (loading) return <Loading what={caption.toLowerCase()} />;
  if (error) return <ErrorSummary error={error} />;
  if (rows.length === 0)
    return (
      <EmptyState title={empty.title}>
        <p>{empty.text}</p>
      </EmptyState>
    );
  return (
    <table className="data responsive">
      <caption>{caption}</caption>
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
          <tr key={row.id}>
            {row.getVisibleCells().map((cell) => (
              <td key={cell.id} data-label={String(cell.column.columnDef.header)}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {footer}
    </table>
  );
}

/**
 * One tab's listing, as every Money tab lays it out: its filters, the API's CSV of the same filters,
 * the table and its pages. `empty` says what to do when there is nothing yet, `unmatched` when the
 * filters matched nothing.
 */
export function ListingTab<T>({
  what,
  specs,
  query,
  onApply,
  csvHref,
  caption,
  columns,
  rowId,
  list,
  empty,
  unmatched,
}: {
  what: string;
  specs: FilterSpec[];
  query: Query;
  onApply: (query: Query) => void;
  csvHref: string;
  caption: string;
  // biome-ignore lint/suspicious/noExplicitAny: TanStack's column definitions are typed per value.
  columns: ColumnDef<T, any>[];
  rowId: (row: T) => string;
  list: ReturnType<typeof useCursorPages<T>>;
  empty: { title: string; text: ReactNode };
  unmatched: { title: string; text?: string };
}) {
  const filtered = Object.keys(query).length > 0;
  return (
    <>
      <Filters label={`Filter ${what}`} onApply={onApply} error={list.page.error} specs={specs} />
      <div className="actions">
        <ExportLink href={csvHref}>{`Export ${what} (CSV)`}</ExportLink>
      </div>
      <DataTable
        caption={caption}
        rows={list.rows}
        columns={columns}
        rowId={rowId}
        loading={list.page.isPending}
        error={list.page.error}
        empty={
          filtered
            ? { title: unmatched.title, text: unmatched.text ?? 'Nothing matches these filters: clear them.' }
            : empty
        }
      />
      <Pager number={list.number} previous={list.previous} next={list.next} what={what} />
    </>
  );
}
