import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, type PostBody, type Shipment, unwrap } from '../api/client';
import { formatDate, formatRupees } from '../format';
import { Link, useLocation, useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';
import { useReferenceData } from './reference';

type ReturnBody = PostBody<'/custom/api/v1/reverse-order-orchestration'>;
interface Item {
  id: string;
  name: string;
  sku: string;
  units: string;
  price: string;
  qc: boolean;
  image: string;
}

const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));

/** Now in India, as the API's order_date ("2026-11-20 14:30"). */
function indiaNow(): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Kolkata',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** A return (reverse pickup) of a delivered shipment: /app/returns/new?shipment=<id>&order=<order id>. */
export function CreateReturn() {
  useTitle('Create a return');
  const { query } = useLocation();
  const id = query.get('shipment') ?? '';
  const order = query.get('order') ?? id;
  const found = useQuery({
    queryKey: ['shipment', id, order],
    queryFn: async () => {
      const page = await unwrap(api.POST('/custom/api/v1/shipments', { body: { search: order, per_page: 100 } }));
      return page.data.find((s) => s.id === id) ?? null;
    },
    enabled: id !== '',
  });
  if (id === '' || (found.isSuccess && !found.data)) {
    return (
      <EmptyState title="Which shipment comes back?">
        <p>
          A return starts from a delivered shipment: open it in <Link to="/shipments">Shipments</Link> (the Delivered
          tab) and choose "Create a return".
        </p>
      </EmptyState>
    );
  }
  if (found.isPending) return <Loading what="the shipment" />;
  if (found.error) return <ErrorSummary error={found.error} />;
  return <ReturnForm shipment={found.data!} />;
}

function ReturnForm({ shipment }: { shipment: Shipment }) {
  const a = shipment.attributes;
  const { warehouses } = useReferenceData();
  const [items, setItems] = useState<Item[]>(() =>
    a.items.map((i) => ({
      id: i.id,
      name: i.name,
      sku: i.sku,
      units: String(i.quantity),
      price: String(i.price),
      qc: false,
      image: '',
    })),
  );
  // One key per attempt: a double click or a retry after a lost answer books one return
  // (Idempotency-Key). A refusal is kept under its key, so the corrected form needs a new one.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const book = useMutation({
    mutationFn: (body: ReturnBody) =>
      unwrap(
        api.POST('/custom/api/v1/reverse-order-orchestration', {
          body,
          params: { header: { 'idempotency-key': idempotencyKey } },
        }),
      ),
    onError: (error) => {
      if (error instanceof ApiError && error.status < 500) setIdempotencyKey(crypto.randomUUID());
    },
  });
  const errors = book.error instanceof ApiError ? book.error.fieldErrors() : {};
  // The schema names an item's field order_items.0.units; the service's own checks (QC) order_items[0].qc_product_image.
  const itemError = (index: number, field: string) =>
    errors[`order_items.${index}.${field}`] ?? errors[`order_items[${index}].${field}`];
  const setItem = (index: number, change: Partial<Item>) =>
    setItems(items.map((item, j) => (j === index ? { ...item, ...change } : item)));

  if (a.status !== 'delivered') {
    return (
      <EmptyState title="Only a delivered shipment can be returned">
        <p>
          Order {a.order.display_id} is {a.status.replace(/_/g, ' ')}.{' '}
          <Link to={`/shipments/${encodeURIComponent(shipment.id)}`}>Back to the shipment</Link>
        </p>
      </EmptyState>
    );
  }
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const lines = items.map((i) => ({
      name: i.name,
      sku: i.sku,
      units: number(i.units),
      selling_price: number(i.price),
      ...(i.qc && { qc_enable: true, qc_product_name: i.name, qc_product_image: i.image }),
    }));
    book.mutate({
      order_id: text('order_id'),
      order_date: indiaNow(),
      pickup_customer_name: text('pickup_customer_name'),
      pickup_address: text('pickup_address'),
      pickup_city: text('pickup_city'),
      pickup_state: text('pickup_state'),
      pickup_country: 'India',
      pickup_pincode: text('pickup_pincode'),
      pickup_phone: text('pickup_phone'),
      warehouse_id: text('warehouse_id'),
      order_items: lines,
      sub_total: lines.reduce((sum, l) => sum + l.units * l.selling_price, 0),
      length: number(text('length')),
      breadth: number(text('breadth')),
      height: number(text('height')),
      weight: number(text('weight')),
      ...(a.tracking_number && { forward_awb: a.tracking_number }),
    });
  };

  const booked = book.data?.payload;
  return (
    <section>
      <p>
        <Link to={`/shipments/${encodeURIComponent(shipment.id)}`}>← Order {a.order.display_id}</Link>
      </p>
      <h1>Return of order {a.order.display_id}</h1>
      {booked ? (
        <article className="card" aria-labelledby="return-booked-h">
          <h2 id="return-booked-h">Return booked</h2>
          <dl>
            <dt>Return</dt>
            <dd>{booked.order_id}</dd>
            <dt>AWB</dt>
            <dd>{booked.awb_code}</dd>
            <dt>Courier</dt>
            <dd>{booked.courier_name}</dd>
            <dt>Pickup</dt>
            <dd>{formatDate(booked.pickup_scheduled_date)}</dd>
            <dt>Charges</dt>
            <dd>{booked.charges ? formatRupees(booked.charges.total_return_charges) : '—'}</dd>
            <dt>Quality check</dt>
            <dd>{booked.qc_enabled ? 'At pickup, by the courier' : (booked.qc_message ?? 'None')}</dd>
          </dl>
          <div className="actions">
            {booked.label_url && (
              <a
                className="button"
                href={new URL(booked.label_url).pathname + new URL(booked.label_url).search}
                download={`return-label-${booked.awb_code}.pdf`}
              >
                Download return label
              </a>
            )}
            <Link to="/returns" className="button secondary">
              See it in Returns
            </Link>
          </div>
        </article>
      ) : (
        <form onSubmit={submit} noValidate className="order-form" aria-label="Create a return">
          <ErrorSummary error={book.error} />
          <fieldset>
            <legend>Return</legend>
            <Field
              label="Return id"
              name="order_id"
              defaultValue={`RET-${a.order.display_id}`}
              error={errors.order_id}
              hint="Your id of this return; unique among your returns"
            />
            <SelectField
              label="Return to warehouse"
              name="warehouse_id"
              defaultValue={a.warehouse_id ?? ''}
              options={warehouses.map((w) => ({ value: w.id, label: w.name }))}
              error={errors.warehouse_id}
            />
          </fieldset>
          <fieldset>
            <legend>Pick up from the customer</legend>
            <Field
              label="Customer name"
              name="pickup_customer_name"
              defaultValue={a.shipping_address.name}
              error={errors.pickup_customer_name}
            />
            <Field
              label="Customer phone"
              name="pickup_phone"
              inputMode="tel"
              defaultValue={a.shipping_address.phone}
              error={errors.pickup_phone}
            />
            <Field label="Pickup street address" name="pickup_address" error={errors.pickup_address} />
            <Field
              label="Pickup pincode"
              name="pickup_pincode"
              inputMode="numeric"
              defaultValue={a.shipping_address.zip}
              error={errors.pickup_pincode}
            />
            <Field
              label="Pickup city"
              name="pickup_city"
              defaultValue={a.shipping_address.city}
              error={errors.pickup_city}
            />
            <Field
              label="Pickup state"
              name="pickup_state"
              defaultValue={a.shipping_address.state}
              error={errors.pickup_state}
            />
          </fieldset>
          {items.map((item, i) => (
            <fieldset key={item.id}>
              <legend>
                {item.name} ({item.sku})
              </legend>
              <Field
                label={`${item.name}: units returned`}
                inputMode="numeric"
                value={item.units}
                onChange={(e) => setItem(i, { units: e.target.value })}
                error={itemError(i, 'units')}
              />
              <Field
                label={`${item.name}: price of one (₹)`}
                inputMode="decimal"
                value={item.price}
                onChange={(e) => setItem(i, { price: e.target.value })}
                error={itemError(i, 'selling_price')}
              />
              <label className="choice">
                <input type="checkbox" checked={item.qc} onChange={(e) => setItem(i, { qc: e.target.checked })} />
                Quality check of {item.name} at pickup
              </label>
              {item.qc && (
                <Field
                  label={`${item.name}: product image URL`}
                  type="url"
                  value={item.image}
                  onChange={(e) => setItem(i, { image: e.target.value })}
                  hint="The courier compares the parcel with this picture"
                  error={itemError(i, 'qc_product_image')}
                />
              )}
            </fieldset>
          ))}
          <fieldset>
            <legend>Package</legend>
            <Field label="Length (cm)" name="length" inputMode="decimal" defaultValue="10" error={errors.length} />
            <Field label="Breadth (cm)" name="breadth" inputMode="decimal" defaultValue="10" error={errors.breadth} />
            <Field label="Height (cm)" name="height" inputMode="decimal" defaultValue="10" error={errors.height} />
            <Field
              label="Weight (kg)"
              name="weight"
              inputMode="decimal"
              defaultValue={String(a.applied_weight.value / 1000)}
              error={errors.weight}
            />
          </fieldset>
          <div className="actions">
            <button type="submit" disabled={book.isPending}>
              {book.isPending ? 'Booking…' : 'Book the return'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
