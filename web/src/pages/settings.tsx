import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import { formatDateTime } from '../format';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading } from '../ui';
import { useReferenceData } from './reference';
import { SettingsNav } from './settings-nav';

/** A logo as the API takes it in JSON: base64 without the data: prefix. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** The logo or page as served by this server (the API's URLs name PUBLIC_BASE_URL, which may be another host). */
const sameOrigin = (url: string) => new URL(url).pathname;

/** Stores (brand, logo) and warehouses: what every booking names. */
export function Settings() {
  useTitle('Settings');
  const reference = useReferenceData();
  if (!reference.loaded) return <Loading what="your settings" />;
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <Stores />
      <Warehouses />
    </section>
  );
}

function Stores() {
  const { stores } = useReferenceData();
  const queryClient = useQueryClient();
  const [logo, setLogo] = useState<File | undefined>();
  const [preview, setPreview] = useState<string | undefined>();
  useEffect(() => {
    if (!logo) return setPreview(undefined);
    const url = URL.createObjectURL(logo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [logo]);
  const create = useMutation({
    mutationFn: async (form: FormData) =>
      unwrap(
        api.POST('/custom/api/v1/client-stores', {
          body: {
            store_name: String(form.get('store_name')),
            ...(form.get('brand_name') && { brand_name: String(form.get('brand_name')) }),
            ...(form.get('support_email') && { support_email: String(form.get('support_email')) }),
            ...(logo && { logo: await readBase64(logo) }),
          },
        }),
      ),
    onSuccess: () => {
      setLogo(undefined);
      return queryClient.invalidateQueries({ queryKey: ['stores'] });
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate(new FormData(form), { onSuccess: () => form.reset() });
  };
  return (
    <>
      <h2>Stores</h2>
      {stores.length === 0 ? (
        <EmptyState title="No stores yet">
          <p>
            A store is a brand: its name and logo are what customers see on the tracking page and e-mails. Add one
            below.
          </p>
        </EmptyState>
      ) : (
        <table className="data">
          <caption>Your stores</caption>
          <thead>
            <tr>
              <th scope="col">Logo</th>
              <th scope="col">Store</th>
              <th scope="col">Brand</th>
              <th scope="col">Support e-mail</th>
              <th scope="col">Tracking page</th>
              <th scope="col">Added</th>
            </tr>
          </thead>
          <tbody>
            {stores.map((s) => (
              <tr key={s.id}>
                <td data-label="Logo">
                  {s.logo_url ? (
                    <img src={sameOrigin(s.logo_url)} alt={`${s.brand_name ?? s.store_name} logo`} className="logo" />
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label="Store">{s.store_name}</td>
                <td data-label="Brand">{s.brand_name ?? '—'}</td>
                <td data-label="Support e-mail">{s.support_email ?? '—'}</td>
                <td data-label="Tracking page">
                  {/* Its text is the address to give customers; it opens on this server, like the logo. */}
                  <a href={sameOrigin(s.tracking_page_url)} className="url">
                    {s.tracking_page_url}
                  </a>
                </td>
                <td data-label="Added">{formatDateTime(s.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={submit} noValidate className="order-form" aria-label="Add a store">
        <fieldset>
          <legend>Add a store</legend>
          <ErrorSummary error={create.error} />
          <Field
            label="Store name"
            name="store_name"
            hint="Letters, digits and hyphens, e.g. acme-apparel"
            error={errors.store_name}
          />
          <Field label="Brand name" name="brand_name" error={errors.brand_name} />
          <Field label="Support e-mail" name="support_email" type="email" error={errors.support_email} />
          <Field
            label="Logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            hint="PNG, JPEG, WebP or GIF, at most 2 MiB"
            onChange={(e: ChangeEvent<HTMLInputElement>) => setLogo(e.target.files?.[0])}
            error={errors.logo}
          />
          {preview && <img src={preview} alt="Preview of the logo" className="logo-preview" />}
          <div className="actions">
            <button type="submit" disabled={create.isPending}>
              Add store
            </button>
          </div>
        </fieldset>
      </form>
    </>
  );
}

function Warehouses() {
  const { warehouses } = useReferenceData();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '');
      return unwrap(
        api.POST('/custom/api/v1/warehouse', {
          body: {
            name: text('name'),
            phone_number: text('phone_number'),
            ...(text('contact_person') && { contact_person: text('contact_person') }),
            address_attributes: {
              street_address: text('street_address'),
              zip: text('zip'),
              city: text('city'),
              state: text('state'),
              country: 'India',
            },
          },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['warehouses'] }),
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    create.mutate(new FormData(form), { onSuccess: () => form.reset() });
  };
  return (
    <>
      <h2>Warehouses</h2>
      {warehouses.length === 0 ? (
        <EmptyState title="No warehouses yet">
          <p>Parcels are picked up from a warehouse: add the first one below, then create a shipment.</p>
        </EmptyState>
      ) : (
        <table className="data">
          <caption>Your warehouses</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address</th>
              <th scope="col">Phone</th>
            </tr>
          </thead>
          <tbody>
            {warehouses.map((w) => (
              <tr key={w.id}>
                <td data-label="Name">{w.name}</td>
                <td data-label="Address">
                  {w.address_attributes.street_address}, {w.address_attributes.city}, {w.address_attributes.state}{' '}
                  {w.address_attributes.zip}
                </td>
                <td data-label="Phone">{w.phone_number}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={submit} noValidate className="order-form" aria-label="Add a warehouse">
        <fieldset>
          <legend>Add a warehouse</legend>
          <ErrorSummary error={create.error} />
          <Field label="Warehouse name" name="name" error={errors.name} />
          <Field label="Warehouse phone" name="phone_number" inputMode="tel" error={errors.phone_number} />
          <Field label="Contact person" name="contact_person" error={errors.contact_person} />
          <Field label="Street address" name="street_address" error={errors['address_attributes.street_address']} />
          <Field label="Warehouse pincode" name="zip" inputMode="numeric" error={errors['address_attributes.zip']} />
          <Field label="Warehouse city" name="city" error={errors['address_attributes.city']} />
          <Field label="Warehouse state" name="state" error={errors['address_attributes.state']} />
          <div className="actions">
            <button type="submit" disabled={create.isPending}>
              Add warehouse
            </button>
          </div>
        </fieldset>
      </form>
    </>
  );
}
