import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { type Permission, PERMISSIONS, useCan } from '../permissions';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { SettingsNav } from './settings-nav';

type Scope = Permission;

function statusOf(key: { revoked_at: string | null; expires_at: string | null }) {
  if (key.revoked_at) return `Revoked ${formatDateTime(key.revoked_at)}`;
  if (!key.expires_at) return 'Active';
  return `${Date.parse(key.expires_at) <= Date.now() ? 'Ended' : 'Active until'} ${formatDateTime(key.expires_at)}`;
}

/** What a form's "Limit it to" ticks and "Ends on" date ask of the new key. */
function newKeyBody(form: FormData) {
  const name = String(form.get('name') ?? '').trim();
  const scopes = form.getAll('scopes').map(String) as Scope[];
  const ends = String(form.get('ends_on') ?? '');
  return {
    ...(name && { name }),
    ...(scopes.length > 0 && { scopes }),
    // The end of that day in India, where the merchant reads the date.
    ...(ends && { expires_at: `${ends}T23:59:59+05:30` }),
  };
}

/** The account's API keys: create one (shown once), limited or not, see them by prefix, revoke. */
export function ApiKeys() {
  useTitle('API keys');
  const can = useCan();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => unwrap(api.GET('/custom/api/v1/api-keys')) });
  const [shown, setShown] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-keys'] });
  const create = useMutation({
    mutationFn: (body: ReturnType<typeof newKeyBody>) => unwrap(api.POST('/custom/api/v1/api-keys', { body })),
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
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(newKeyBody(new FormData(event.currentTarget)));
        }}
      >
        <Field label="Name (optional)" name="name" maxLength={100} hint="What it is for: a printer, your ERP, a 3PL." />
        <fieldset>
          <legend>Limit it to</legend>
          <p className="hint">Nothing ticked: it can do everything you can.</p>
          {PERMISSIONS.filter(([scope]) => can(scope)).map(([scope, label]) => (
            <div className="field" key={scope}>
              <label>
                <input type="checkbox" name="scopes" value={scope} /> {label} ({scope})
              </label>
            </div>
          ))}
        </fieldset>
        <Field label="Ends on (optional)" name="ends_on" type="date" hint="It stops working after that day." />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Create an API key
          </button>
        </div>
      </form>
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
              <th scope="col">Can do</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((k) => (
              <tr key={k.id}>
                <td data-label="Key" className="secret">
                  {k.prefix}…{k.name && <span className="hint"> {k.name}</span>}
                </td>
                <td data-label="Created">{formatDateTime(k.created_at)}</td>
                <td data-label="Last used">{k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}</td>
                <td data-label="Status">{statusOf(k)}</td>
                <td data-label="Can do">{k.scopes ? k.scopes.join(', ') : 'Everything'}</td>
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
