import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, type PutBody, unwrap } from '../api/client';
import { ErrorSummary, Field, SelectField } from '../ui';

/** The courier APIs an account can connect with its own contract, and what each asks for. */
const COURIER_APIS: Record<string, { name: string; fields: { name: string; label: string; secret?: boolean }[] }> = {
  delhivery: { name: 'Delhivery', fields: [{ name: 'api_token', label: 'API token', secret: true }] },
  ekart: {
    name: 'Ekart',
    fields: [
      { name: 'client_id', label: 'Client id' },
      { name: 'username', label: 'API user' },
      { name: 'password', label: 'Password', secret: true },
    ],
  },
  xpressbees: {
    name: 'Xpressbees',
    fields: [
      { name: 'email', label: 'Login e-mail' },
      { name: 'password', label: 'Password', secret: true },
    ],
  },
  shadowfax: { name: 'Shadowfax', fields: [{ name: 'api_token', label: 'API key', secret: true }] },
};
type CredentialsBody = PutBody<'/custom/api/v1/courier-connections/{connector}/credentials'>;

/**
 * The account's own contracts with couriers: store credentials for a courier API the server books
 * through (they are sealed and never shown again), or go back to the server's.
 */
export function OwnCourierCredentials({ connectors, own }: { connectors: string[]; own: string[] }) {
  const queryClient = useQueryClient();
  const offered = connectors.filter((c) => COURIER_APIS[c]);
  const [connector, setConnector] = useState(offered[0] ?? '');
  const [stored, setStored] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['courier-connections'] });
  const save = useMutation({
    mutationFn: ({ name, body }: { name: string; body: CredentialsBody }) =>
      unwrap(
        api.PUT('/custom/api/v1/courier-connections/{connector}/credentials', {
          params: { path: { connector: name } },
          body,
        }),
      ),
    onSuccess: (answer) => {
      setStored(answer.data.connector);
      return refresh();
    },
  });
  const forget = useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.DELETE('/custom/api/v1/courier-connections/{connector}/credentials', {
          params: { path: { connector: name } },
        }),
      ),
    onSuccess: refresh,
  });
  if (offered.length === 0) return null;
  // The list arrives after the first render: until the user picks one, the first courier offered.
  const chosen = offered.includes(connector) ? connector : offered[0]!;
  const form = COURIER_APIS[chosen]!;
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const data = new FormData(element);
    setStored(undefined);
    // Every field goes, empty ones too: the API names each missing one.
    const body = Object.fromEntries(
      form.fields.map((f) => [f.name, String(data.get(f.name) ?? '').trim()]),
    ) as CredentialsBody;
    save.mutate({ name: chosen, body }, { onSuccess: () => element.reset() });
  };
  const confirmForget = (name: string) => {
    if (
      window.confirm(
        `Forget your ${COURIER_APIS[name]?.name ?? name} credentials? Your parcels then go with the server's.`,
      )
    )
      forget.mutate(name);
  };
  return (
    <>
      <h2>Your own courier contracts</h2>
      <p>
        With a contract of your own with a courier, store its API credentials here: your bookings, cancellations,
        pickups, NDR instructions and tracking with that courier then use them instead of the server's. They are sealed
        and never shown again.
      </p>
      <ErrorSummary error={forget.error} />
      {own
        .filter((c) => COURIER_APIS[c])
        .map((c) => (
          <div className="actions" key={c}>
            <button type="button" className="secondary" onClick={() => confirmForget(c)} disabled={forget.isPending}>
              Use the server's credentials for {COURIER_APIS[c]!.name}
            </button>
          </div>
        ))}
      <form onSubmit={submit} noValidate className="order-form" aria-label="Store your courier credentials">
        <fieldset>
          <legend>Store your courier credentials</legend>
          <ErrorSummary error={save.error} />
          {stored && (
            <p className="notice" role="status">
              Your {COURIER_APIS[stored]?.name ?? stored} credentials are stored; your parcels with it use them from now
              on.
            </p>
          )}
          <SelectField
            label="Courier"
            value={chosen}
            onChange={(event) => {
              setConnector(event.target.value);
              save.reset();
            }}
            options={offered.map((c) => ({ value: c, label: COURIER_APIS[c]!.name }))}
          />
          {form.fields.map((f) => (
            <Field
              key={`${chosen}-${f.name}`}
              label={f.label}
              name={f.name}
              type={f.secret ? 'password' : 'text'}
              autoComplete="off"
              error={errors[f.name]}
            />
          ))}
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              Store credentials
            </button>
          </div>
        </fieldset>
      </form>
    </>
  );
}
