import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { EmptyState, ErrorSummary, Loading } from '../ui';

/** Why a scan was kept, in a merchant's words (the API's reason_code). */
const REASONS: Record<string, string> = {
  unread: 'Dakiya does not know this scan',
  not_applied: 'Out of order for the parcel',
  before_booking: 'Stamped before the booking',
  unknown_awb: 'No parcel has this AWB',
  refused: 'Refused by Dakiya',
};

/**
 * Scans couriers sent for the account's parcels that Dakiya could not apply, kept as sent, and the
 * replay that reads them again through the current tables (after an upgrade fixed one).
 */
export function KeptScans({ names }: { names: ReadonlyMap<string, string> }) {
  const queryClient = useQueryClient();
  const kept = useQuery({
    queryKey: ['kept-scans'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/kept-scans', { params: { query: { limit: '100' } } })),
  });
  const replay = useMutation({
    mutationFn: () => unwrap(api.POST('/custom/api/v1/kept-scans/replay')),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['kept-scans'] }),
        queryClient.invalidateQueries({ queryKey: ['courier-connections'] }),
      ]),
  });
  const rows = kept.data?.data ?? [];
  return (
    <>
      <h2 id="kept-scans">Scans Dakiya could not apply</h2>
      <p>
        A scan a courier sent that Dakiya could not read or place is kept exactly as sent, never dropped. After an
        upgrade of Dakiya, read them again: those it can apply now move your parcels.
      </p>
      <ErrorSummary error={kept.error ?? replay.error} />
      {replay.data && (
        <p role="status" className="notice">
          Read {replay.data.read} again: {replay.data.applied} applied, {replay.data.kept} still kept.
        </p>
      )}
      {kept.isPending ? (
        <Loading what="the kept scans" />
      ) : rows.length === 0 ? (
        <EmptyState title="No kept scans">
          <p>Every scan your couriers sent was applied.</p>
        </EmptyState>
      ) : (
        <>
          <div className="actions">
            <button type="button" onClick={() => replay.mutate()} disabled={replay.isPending}>
              Read them again
            </button>
          </div>
          <table className="data responsive">
            <caption>Kept scans, oldest first{kept.data?.meta.has_more ? ' (the first 100)' : ''}</caption>
            <thead>
              <tr>
                <th scope="col">AWB</th>
                <th scope="col">Courier</th>
                <th scope="col">Why</th>
                <th scope="col">Received</th>
                <th scope="col">As sent</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((k) => (
                <tr key={k.id}>
                  <td data-label="AWB">{k.awb}</td>
                  <td data-label="Courier">{(k.carrier_id && names.get(k.carrier_id)) ?? k.connector}</td>
                  <td data-label="Why">
                    <strong>{REASONS[k.reason_code] ?? k.reason_code}</strong>: {k.reason}
                    {k.replayed_at && <> (read again {formatDateTime(k.replayed_at)})</>}
                  </td>
                  <td data-label="Received">{formatDateTime(k.first_seen_at)}</td>
                  <td data-label="As sent">
                    <details>
                      <summary>The courier's record</summary>
                      <pre>{JSON.stringify(k.raw, null, 2)}</pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
