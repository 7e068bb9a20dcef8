import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, unwrap } from '../api/client';
import { useTitle } from '../router';
import { ErrorSummary, Loading } from '../ui';
import { SettingsNav } from './settings-nav';

type EwayBillCheck = 'refuse' | 'warn';

const CHOICES: { value: EwayBillCheck; label: string; hint: string }[] = [
  {
    value: 'refuse',
    label: 'Refuse to book it',
    hint: 'The booking answers which value and which limit; add the e-way bill number and book again.',
  },
  {
    value: 'warn',
    label: 'Book it with a warning',
    hint: 'For goods you know to be exempt in ways an HSN code does not say.',
  },
];

/** The account's paperwork: what booking an order over the e-way bill limit without its number does. */
export function Paperwork() {
  useTitle('Paperwork');
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: ['paperwork-settings'],
    queryFn: async () => (await unwrap(api.GET('/custom/api/v1/paperwork-settings'))).data,
  });
  const save = useMutation({
    mutationFn: (check: EwayBillCheck) =>
      unwrap(api.PUT('/custom/api/v1/paperwork-settings', { body: { eway_bill_check: check } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['paperwork-settings'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate(String(new FormData(event.currentTarget).get('eway_bill_check')) as EwayBillCheck);
  };
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Paperwork</h2>
      <p>
        A consignment worth more than ₹50,000 (₹1,00,000 within some States) moves with an e-way bill, unless its goods
        are exempt. Send its 12-digit number with the order (<code>ewaybill_no</code>, or the order form's field): it
        goes to the courier and onto the label and the manifest.
      </p>
      {settings.data === undefined ? (
        <Loading what="your paperwork settings" />
      ) : (
        <form onSubmit={submit} noValidate className="order-form" aria-label="E-way bills">
          <ErrorSummary error={save.error} />
          <fieldset>
            <legend>When an order needs an e-way bill and has no number</legend>
            {CHOICES.map((choice) => (
              <label key={choice.value} className="choice">
                <input
                  type="radio"
                  name="eway_bill_check"
                  value={choice.value}
                  defaultChecked={settings.data.eway_bill_check === choice.value}
                />
                {choice.label}
                <small className="hint"> {choice.hint}</small>
              </label>
            ))}
          </fieldset>
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              Save
            </button>
            {save.isSuccess && !save.isPending && <span role="status">Saved.</span>}
          </div>
        </form>
      )}
    </section>
  );
}
