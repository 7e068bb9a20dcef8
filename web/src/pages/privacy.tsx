import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useCan } from '../permissions';
import { useTitle } from '../router';
import { ErrorSummary, Field, Loading, ReadOnlyUnless } from '../ui';
import { AccountExport } from './account-export';
import { SettingsNav } from './settings-nav';

/** The form's fields, as the API takes them: only those filled in. */
function whoToErase(form: FormData) {
  const value = (name: string) => String(form.get(name) ?? '').trim();
  return {
    ...(value('phone') && { phone: value('phone') }),
    ...(value('email') && { email: value('email') }),
    ...(value('order_id') && { order_id: value('order_id') }),
  };
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Buyers' personal data: how long finished shipments keep it, a buyer's erasure on request, and the account's export (docs/data-lifecycle.md). */
export function Privacy() {
  useTitle("Buyers' data");
  const can = useCan();
  const queryClient = useQueryClient();
  const period = useQuery({
    queryKey: ['privacy-settings'],
    queryFn: async () => (await unwrap(api.GET('/custom/api/v1/privacy-settings'))).data,
  });
  const savePeriod = useMutation({
    mutationFn: (days: number) =>
      unwrap(api.PUT('/custom/api/v1/privacy-settings', { body: { anonymise_buyers_after_days: days } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['privacy-settings'] }),
  });
  const erase = useMutation({
    mutationFn: async (body: ReturnType<typeof whoToErase>) =>
      (await unwrap(api.POST('/custom/api/v1/buyer-erasures', { body }))).data,
  });
  const submitPeriod = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    savePeriod.mutate(Number(new FormData(event.currentTarget).get('days')));
  };
  const submitErasure = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const who = whoToErase(new FormData(event.currentTarget));
    const named = Object.values(who).join(', ');
    if (
      window.confirm(
        `Erase the buyer named by ${named || 'nothing'}? Their name, phone, e-mail and address go from every order and message, for good.`,
      )
    )
      erase.mutate(who);
  };
  const changed = erase.data ? Object.entries(erase.data.erased) : [];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Buyers' data</h2>
      <p>
        A finished shipment keeps its buyer's name, phone, e-mail and street address for a while, then they are replaced
        by <code>[erased]</code> everywhere Dakiya copied them; pincode, city and state stay for your reports.
      </p>
      {period.data === undefined ? (
        <Loading what="your privacy settings" />
      ) : (
        <ReadOnlyUnless allowed={can('settings:write')} need="settings:write">
          <form onSubmit={submitPeriod} noValidate className="order-form" aria-label="Anonymisation">
            <ErrorSummary error={savePeriod.error} />
            <Field
              label="Days after a shipment finishes"
              name="days"
              type="number"
              min={30}
              max={3650}
              required
              defaultValue={period.data.anonymise_buyers_after_days}
              hint={`30 to 3,650 days${period.data.default ? "; this is the server's default" : ''}`}
            />
            <div className="actions">
              <button type="submit" disabled={savePeriod.isPending}>
                Save
              </button>
              {savePeriod.isSuccess && !savePeriod.isPending && <span role="status">Saved.</span>}
            </div>
          </form>
        </ReadOnlyUnless>
      )}
      <h3>Erase a buyer on their request</h3>
      <p>
        Name the buyer by any of these: every order, return and return request that gives them is theirs. Refused while
        a parcel of theirs is on its way. The audit log records that you erased someone, not who.
      </p>
      <ReadOnlyUnless allowed={can('buyers:erase')} need="buyers:erase">
        <form onSubmit={submitErasure} noValidate className="order-form" aria-label="Erase a buyer">
          <ErrorSummary error={erase.error} />
          <Field label="Phone" name="phone" inputMode="tel" autoComplete="off" />
          <Field label="E-mail" name="email" type="email" autoComplete="off" />
          <Field label="Order id" name="order_id" autoComplete="off" />
          <div className="actions">
            <button type="submit" disabled={erase.isPending}>
              Erase
            </button>
          </div>
          {erase.data && !erase.isPending && (
            <div role="status">
              <p>
                Erased from {count(erase.data.found.orders, 'order')}, {count(erase.data.found.returns, 'return')} and{' '}
                {count(erase.data.found.return_requests, 'return request')}.
              </p>
              <ul aria-label="Rows erased">
                {changed.map(([table, rows]) => (
                  <li key={table}>
                    {table}: {rows}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </form>
      </ReadOnlyUnless>
      <AccountExport />
    </section>
  );
}
