import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, type PostBody, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { SettingsNav } from './settings-nav';

type Endpoint = components['schemas']['WebhookEndpoint'];
type Delivery = components['schemas']['WebhookDelivery'];

/** Webhook endpoints: register, see their recent deliveries with the receiver's status codes, redeliver, test. */
export function Webhooks() {
  useTitle('Webhooks');
  const endpoints = useQuery({ queryKey: ['webhooks'], queryFn: () => unwrap(api.GET('/custom/api/v1/webhooks')) });
  const [selected, setSelected] = useState<string | undefined>();
  const list = endpoints.data?.data ?? [];
  const shown = list.find((e) => e.id === selected) ?? list[0];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Webhook endpoints</h2>
      {endpoints.isPending ? (
        <Loading what="your webhook endpoints" />
      ) : endpoints.isError ? (
        <ErrorSummary error={endpoints.error} />
      ) : list.length === 0 ? (
        <EmptyState title="No webhook endpoints yet">
          <p>
            Register a URL below and Dakiya will POST every shipment event to it, signed, as it happens. Then send it a
            test.
          </p>
        </EmptyState>
      ) : (
        <EndpointTable endpoints={list} onShow={setSelected} />
      )}
      {shown && <Deliveries endpoint={shown} />}
      <Register onCreated={setSelected} />
    </section>
  );
}

function EndpointTable({ endpoints, onShow }: { endpoints: Endpoint[]; onShow: (id: string) => void }) {
  const queryClient = useQueryClient();
  const test = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/custom/api/v1/webhooks/{id}/test', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      onShow(id);
      return queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', id] });
    },
  });
  return (
    <>
      <ErrorSummary error={test.error} />
      <table className="data">
        <caption>Your webhook endpoints</caption>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
            <th scope="col">Registered</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((e) => (
            <tr key={e.id}>
              <td data-label="URL">
                {e.url}
                {e.description && <div className="hint">{e.description}</div>}
              </td>
              <td data-label="Events">{e.events.join(', ')}</td>
              <td data-label="Status">
                {e.status}
                {(e.disabled_reason ?? e.refused_reason) && (
                  <div className="hint">{e.disabled_reason ?? e.refused_reason}</div>
                )}
              </td>
              <td data-label="Registered">{formatDateTime(e.created_at)}</td>
              <td data-label="Actions">
                <div className="actions">
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => onShow(e.id)}
                    aria-label={`Deliveries to ${e.url}`}
                  >
                    Deliveries
                  </button>
                  <button
                    type="button"
                    onClick={() => test.mutate(e.id)}
                    disabled={test.isPending}
                    aria-label={`Send a test to ${e.url}`}
                  >
                    Send a test
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const lastStatus = (d: Delivery) => {
  const last = d.attempts.at(-1);
  if (!last) return 'not sent yet';
  return last.status_code === null ? (last.error ?? 'no answer') : String(last.status_code);
};

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const key = ['webhook-deliveries', endpoint.id];
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        api.GET('/custom/api/v1/webhooks/{id}/deliveries', {
          params: { path: { id: endpoint.id }, query: { limit: '20' } },
        }),
      ),
    // A delivery still pending will change within seconds: watch it until it settles.
    refetchInterval: (query) => (query.state.data?.data.some((d) => d.status === 'pending') ? 2000 : false),
  });
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/custom/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { id: endpoint.id, delivery_id: deliveryId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const list = deliveries.data?.data ?? [];
  return (
    <>
      <h2>Recent deliveries to {endpoint.url}</h2>
      <ErrorSummary error={redeliver.error ?? deliveries.error} />
      {deliveries.isPending ? (
        <Loading what="the deliveries" />
      ) : list.length === 0 ? (
        <EmptyState title="No deliveries yet">
          <p>Events are sent as shipments change. Use “Send a test” above to see one now.</p>
        </EmptyState>
      ) : (
        <table className="data">
          <caption>Its last deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Delivery</th>
              <th scope="col">Last status code</th>
              <th scope="col">Attempts</th>
              <th scope="col">Created</th>
              <th scope="col">Next retry</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((d) => (
              <tr key={d.id}>
                <td data-label="Event">{d.event_type}</td>
                <td data-label="Delivery">{d.status}</td>
                <td data-label="Last status code">{lastStatus(d)}</td>
                <td data-label="Attempts">{d.attempt_count}</td>
                <td data-label="Created">{formatDateTime(d.created_at)}</td>
                <td data-label="Next retry">{formatDateTime(d.next_attempt_at)}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => redeliver.mutate(d.id)}
                    disabled={redeliver.isPending}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function Register({ onCreated }: { onCreated: (id: string) => void }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim();
      const events = text('events')
        .split(/[\s,]+/)
        .filter(Boolean);
      return unwrap(
        api.POST('/custom/api/v1/webhooks', {
          // The API names each bad event type; an unknown one is passed on for it to say so.
          body: {
            url: text('url'),
            events: events as PostBody<'/custom/api/v1/webhooks'>['events'],
            ...(text('description') && { description: text('description') }),
          },
        }),
      );
    },
    onSuccess: (answer) => {
      setSecret(answer.data.secret);
      onCreated(answer.data.id);
      return queryClient.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const eventError = Object.entries(errors).find(([field]) => field.startsWith('events'))?.[1];
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setSecret(undefined);
    create.mutate(new FormData(form), { onSuccess: () => form.reset() });
  };
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-label="Register a webhook endpoint">
      <fieldset>
        <legend>Register a webhook endpoint</legend>
        <ErrorSummary error={create.error} />
        {secret && (
          <p className="notice" role="status">
            Registered. Its signing secret, shown only now: <span className="secret">{secret}</span>
          </p>
        )}
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          hint="https://…, where Dakiya POSTs each event"
          error={errors.url}
        />
        <Field
          label="Events"
          name="events"
          defaultValue="*"
          hint="* for every event, or names separated by commas, e.g. shipment.delivered"
          error={eventError}
        />
        <Field label="Description" name="description" error={errors.description} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Register endpoint
          </button>
        </div>
      </fieldset>
    </form>
  );
}
