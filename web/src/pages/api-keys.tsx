import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { SettingsNav } from './settings-nav';

/** The account's API keys: create one (shown once), see them by prefix, revoke. */
export function ApiKeys() {
  useTitle('API keys');
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => unwrap(api.GET('/custom/api/v1/api-keys')) });
  const [shown, setShown] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-keys'] });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/custom/api/v1/api-keys', { body: {} })),
    onSuccess: (answer) => {
      setShown(answer.data.api_key);
      return refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/custom/api/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const confirmRevoke = (id: string, prefix: string) => {
    if (window.confirm(`Revoke the key ${prefix}…? Anything using it gets 401 from now on.`)) revoke.mutate(id);
  };
  const list = keys.data?.data ?? [];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>API keys</h2>
      <p>
        A key lets your systems call the API as this account: send it as the Authorization header. Dakiya keeps only its
        hash.
      </p>
      <div className="actions">
        <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
          Create an API key
        </button>
      </div>
      <ErrorSummary error={create.error ?? revoke.error ?? keys.error} />
      {shown && (
        <div className="notice" role="status">
          <p>Your new key, shown only this once: copy it now.</p>
          <Field
            label="Your new API key"
            value={shown}
            readOnly
            className="secret"
            onFocus={(event) => event.currentTarget.select()}
          />
          <button type="button" className="secondary" onClick={() => setShown(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      {keys.isPending ? (
        <Loading what="your API keys" />
      ) : list.length === 0 ? (
        <EmptyState title="No API keys">
          <p>Create one above to connect your store, ERP or scripts to Dakiya.</p>
        </EmptyState>
      ) : (
        <table className="data">
          <caption>Your API keys, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((k) => (
              <tr key={k.id}>
                <td data-label="Key" className="secret">
                  {k.prefix}…
                </td>
                <td data-label="Created">{formatDateTime(k.created_at)}</td>
                <td data-label="Last used">{k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}</td>
                <td data-label="Status">{k.revoked_at ? `Revoked ${formatDateTime(k.revoked_at)}` : 'Active'}</td>
                <td data-label="Actions">
                  {!k.revoked_at && (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => confirmRevoke(k.id, k.prefix)}
                      disabled={revoke.isPending}
                      aria-label={`Revoke ${k.prefix}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
