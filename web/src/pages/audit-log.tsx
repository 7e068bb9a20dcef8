import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { SettingsNav } from './settings-nav';

const AUDIT_LOG = '/custom/api/v1/audit-log';

interface Filters {
  action?: string;
  object_type?: string;
  from?: string;
  to?: string;
}

/** What a form's filters ask, without the empty ones. */
function filtersOf(form: FormData): Filters {
  const filters: Filters = {};
  for (const name of ['action', 'object_type', 'from', 'to'] as const) {
    const value = String(form.get(name) ?? '').trim();
    if (value) filters[name] = value;
  }
  return filters;
}

const ACTOR_KINDS: Record<string, string> = {
  member: 'member',
  api_key: 'API key',
  account: "account's login",
  access_token: 'access token',
  operator: 'operator',
};

/** A change as one line a person reads: `role: operations → finance`, or what was made. */
function changesOf(changes: Record<string, unknown> | null): string {
  if (!changes) return '';
  return Object.entries(changes)
    .map(([field, value]) => {
      if (value !== null && typeof value === 'object' && 'before' in value && 'after' in value)
        return `${field}: ${JSON.stringify(value.before)} → ${JSON.stringify(value.after)}`;
      return `${field}: ${JSON.stringify(value)}`;
    })
    .join('; ');
}

/** The account's audit log: who did what, when and from where, newest first, filtered, as CSV too. */
export function AuditLog() {
  useTitle('Audit log');
  const [filters, setFilters] = useState<Filters>({});
  const entries = useInfiniteQuery({
    queryKey: ['audit-log', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const page = await unwrap(
        api.GET(AUDIT_LOG, { params: { query: { ...filters, ...(pageParam && { cursor: pageParam }) } } }),
      );
      // The route answers CSV only when asked for it (format=csv): a page here is JSON.
      if (typeof page === 'string') throw new Error('The audit log answered CSV where a page was asked for');
      return page;
    },
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const list = entries.data?.pages.flatMap((page) => page.data) ?? [];
  const csv = `${AUDIT_LOG}?${new URLSearchParams({ ...filters, format: 'csv' })}`;
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(filtersOf(new FormData(event.currentTarget)));
  };
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Audit log</h2>
      <p>
        Every change to members, roles, API keys and sign-in rules: who made it (a member, a key, the account's login),
        when, from which address, and what changed. Entries are never changed or deleted.
      </p>
      <form className="filters" aria-label="Filter the audit log" onSubmit={filter}>
        <Field label="Action" name="action" maxLength={100} hint="For example member.suspended or api_key.created." />
        <Field label="About" name="object_type" maxLength={100} hint="member, role, api_key or account." />
        <Field label="From" name="from" type="date" />
        <Field label="To" name="to" type="date" />
        <div className="actions">
          <button type="submit">Show</button>
          <a className="button secondary" href={csv} download="dakiya-audit-log.csv">
            Download CSV
          </a>
        </div>
      </form>
      <ErrorSummary error={entries.error} />
      {entries.isPending ? (
        <Loading what="the audit log" />
      ) : list.length === 0 ? (
        <EmptyState title="Nothing recorded">
          <p>No change matches these filters yet.</p>
        </EmptyState>
      ) : (
        <>
          <table className="data">
            <caption>What was done in this account, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">From</th>
                <th scope="col">Action</th>
                <th scope="col">About</th>
                <th scope="col">Changes</th>
              </tr>
            </thead>
            <tbody>
              {list.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="When">{formatDateTime(entry.at)}</td>
                  <td data-label="Who">
                    {entry.actor.name}
                    <span className="hint"> ({ACTOR_KINDS[entry.actor.type] ?? entry.actor.type})</span>
                  </td>
                  <td data-label="From">{entry.ip ?? ''}</td>
                  <td data-label="Action">{entry.action}</td>
                  <td data-label="About">
                    {entry.object.type}
                    {entry.object.id && <span className="hint secret"> {entry.object.id.slice(0, 8)}…</span>}
                  </td>
                  <td data-label="Changes">{changesOf(entry.changes as Record<string, unknown> | null)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {entries.hasNextPage && (
            <div className="actions">
              <button
                type="button"
                className="secondary"
                onClick={() => entries.fetchNextPage()}
                disabled={entries.isFetchingNextPage}
              >
                Older entries
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
