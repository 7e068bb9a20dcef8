import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { PERMISSIONS, useCan } from '../permissions';
import { ErrorSummary } from '../ui';

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * Everything the account holds as one archive (docs/data-lifecycle.md): started here, followed
 * while the server writes it, downloaded once ready. Only the owner or an admin: the archive holds
 * buyers' details unmasked and all the money.
 */
export function AccountExport() {
  const can = useCan();
  const everything = PERMISSIONS.every(([permission]) => can(permission));
  const queryClient = useQueryClient();
  const exports = useQuery({
    queryKey: ['account-exports'],
    queryFn: async () => (await unwrap(api.GET('/custom/api/v1/account/exports'))).data,
    enabled: everything,
    // Followed while one is being written.
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'running') ? 2000 : false),
  });
  const start = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/custom/api/v1/account/exports'))).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account-exports'] }),
  });
  const running = exports.data?.some((e) => e.status === 'running') ?? false;
  return (
    <>
      <h3>Export the account's data</h3>
      <p>
        Everything the account holds, as one archive: every table as JSON lines, and shipments, orders, returns and COD
        remittances as spreadsheets (CSV). Passwords, keys, tokens and stored credentials are left out. The server
        writes it in the background and keeps it for a few days.
      </p>
      {!everything ? (
        <p className="info">Only the account's owner or an admin may export the account.</p>
      ) : (
        <>
          <ErrorSummary error={start.error ?? exports.error} />
          <div className="actions">
            <button type="button" disabled={start.isPending || running} onClick={() => start.mutate()}>
              {running ? 'Export being written…' : 'Export the account'}
            </button>
          </div>
          {(exports.data ?? []).length > 0 && (
            <ul aria-label="Exports">
              {exports.data?.map((e) => (
                <li key={e.id}>
                  {formatDateTime(e.created_at)}:{' '}
                  {e.status === 'running' && (
                    <span role="status">
                      being written, {e.tables_done} of {e.tables_total} tables{' '}
                      <progress
                        aria-label="Rows written"
                        max={Math.max(1, e.rows_total)}
                        value={Math.min(e.rows_written, e.rows_total)}
                      />
                    </span>
                  )}
                  {e.status === 'ready' && (
                    <>
                      <a href={`/custom/api/v1/account/exports/${e.id}/archive`} download>
                        Download ({size(e.bytes ?? 0)})
                      </a>{' '}
                      until {formatDateTime(e.expires_at)}
                    </>
                  )}
                  {e.status === 'failed' && <span>failed: {e.error}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}
