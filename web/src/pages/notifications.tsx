import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId } from 'react';
import { ApiError, api, type Store, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { useReferenceData } from './reference';
import { SettingsNav } from './settings-nav';

type StoreUpdate = NonNullable<
  paths['/custom/api/v1/client-stores/{id}']['put']['requestBody']
>['content']['application/json'];
type NotifyEvent = NonNullable<StoreUpdate['notify_events']>[number];

/** The moments a customer can be e-mailed about, in the parcel's order, then a return's, as the API names them. */
const MOMENTS: { value: NotifyEvent; label: string }[] = [
  { value: 'shipped', label: 'Shipped (booked, with the courier and AWB)' },
  { value: 'out_for_delivery', label: 'Out for delivery' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'ndr_raised', label: 'Delivery failed' },
  { value: 'rto_delivered', label: 'Returned to the seller' },
  { value: 'return_requested', label: 'Return request received' },
  { value: 'return_approved', label: 'Return request approved' },
  { value: 'return_rejected', label: 'Return request declined (with your reason)' },
];

/** Each store's customer e-mails: which moments send one, and the support address they give. */
export function Notifications() {
  useTitle('E-mail notifications');
  const { stores, loaded } = useReferenceData();
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>E-mail notifications</h2>
      <p>
        Customers get an e-mail at the moments a store chooses, under its brand name, at the order's billing e-mail. The
        server sends them through its mail server; without one it keeps each e-mail, composed, on the shipment.
      </p>
      {!loaded ? (
        <Loading what="your stores" />
      ) : stores.length === 0 ? (
        <EmptyState title="No stores yet">
          <p>E-mail settings belong to a store: add one in Stores and warehouses first.</p>
        </EmptyState>
      ) : (
        stores.map((store) => <StoreNotifications key={store.id} store={store} />)
      )}
    </section>
  );
}

function StoreNotifications({ store }: { store: Store }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const save = useMutation({
    mutationFn: (body: { notify_events: NotifyEvent[]; support_email: string | null }) =>
      unwrap(api.PUT('/custom/api/v1/client-stores/{id}', { params: { path: { id: store.id } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['stores'] }),
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = new Set(form.getAll('notify_events').map(String));
    const supportEmail = String(form.get('support_email') ?? '').trim();
    save.mutate({
      notify_events: MOMENTS.map((m) => m.value).filter((v) => chosen.has(v)),
      support_email: supportEmail || null,
    });
  };
  const name = store.brand_name ?? store.store_name;
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-labelledby={headingId}>
      <fieldset>
        <legend id={headingId}>{name}</legend>
        <ErrorSummary error={save.error} />
        <fieldset aria-describedby={errors.notify_events ? `${headingId}-events-error` : undefined}>
          <legend>E-mail the customer when the parcel is</legend>
          {MOMENTS.map((moment) => (
            <label key={moment.value} className="choice">
              <input
                type="checkbox"
                name="notify_events"
                value={moment.value}
                defaultChecked={store.notify_events.includes(moment.value)}
              />
              {moment.label}
            </label>
          ))}
          {errors.notify_events && (
            <small id={`${headingId}-events-error`} className="field-error">
              {errors.notify_events}
            </small>
          )}
        </fieldset>
        <Field
          label={`Support e-mail of ${name}`}
          name="support_email"
          type="email"
          defaultValue={store.support_email ?? ''}
          hint="Shown in every e-mail as where to write; leave empty for none"
          error={errors.support_email}
        />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            Save {name}'s e-mails
          </button>
          {save.isSuccess && !save.isPending && <span role="status">Saved.</span>}
        </div>
      </fieldset>
    </form>
  );
}
