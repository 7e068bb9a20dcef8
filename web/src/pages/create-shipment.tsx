import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, api, type PostBody, unwrap } from '../api/client';
import { formatDate, formatRupees } from '../format';
import { formProblems, inFormWords, typedNumber } from '../form-words';
import { Link, useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';
import {
  type ItemDraft,
  type OrderDraft,
  orderLabel,
  orderProblems,
  QUOTE_FIELD,
  quoteProblems,
} from './create-shipment-checks';
import { useStoreLimited } from '../permissions';
import { useReferenceData } from './reference';

type OrderBody = PostBody<'/custom/api/v1/forward-order-orchestration'>;
type RatesAnswer = Awaited<ReturnType<typeof quote>>;
/** A forward quote (the form asks only forward ones). */
type Quote = Extract<RatesAnswer['result']['serviceable_couriers'][number], { is_fast: boolean }>;
type Preview = Awaited<ReturnType<typeof preview>>['data'];

const quote = (body: PostBody<'/custom/api/v1/rates'>) => unwrap(api.POST('/custom/api/v1/rates', { body }));
const preview = (body: OrderBody) =>
  unwrap(
    api.POST('/custom/api/v1/allocation/preview', { body: body as PostBody<'/custom/api/v1/allocation/preview'> }),
  );
/** What the rate comparison shows: the couriers' quotes, and the courier the account's rules choose. */
interface Comparison {
  quotes: Quote[];
  rules: Preview | undefined;
}

/** Now in India, as the order form's date ("2026-11-20 14:30"). */
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

const number = typedNumber;
/** The rules' choice, or a courier the merchant picked from the comparison: booking one is an explicit choice. */
const BY_RULES = '';

export function CreateShipment() {
  useTitle('Create shipment');
  const limited = useStoreLimited();
  const reference = useReferenceData();
  const form = useRef<HTMLFormElement>(null);
  const [items, setItems] = useState<ItemDraft[]>([{ name: '', sku: '', units: '1', price: '' }]);
  const [cod, setCod] = useState(true);
  const [place, setPlace] = useState({ city: '', state: '' });
  const [pincodeNote, setPincodeNote] = useState('');
  const [carrier, setCarrier] = useState(BY_RULES);
  // Problems the form found itself before sending: each beside its field, all at once.
  const [problems, setProblems] = useState<ApiError | undefined>();
  // One key per form: a double click or a retry books once (Idempotency-Key).
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  const value = (name: string) => String(new FormData(form.current ?? undefined).get(name) ?? '');
  const subTotal = items.reduce((sum, i) => sum + (number(i.units) || 0) * (number(i.price) || 0), 0);

  const draft = (): OrderDraft => ({
    orderId: value('order_id'),
    firstName: value('billing_customer_name'),
    phone: value('billing_phone'),
    email: value('billing_email'),
    address: value('billing_address'),
    pincode: value('billing_pincode'),
    city: place.city,
    state: place.state,
    items,
    weight: value('weight'),
    length: value('length'),
    breadth: value('breadth'),
    height: value('height'),
  });

  const rates = useMutation({
    mutationFn: async (): Promise<Comparison> => {
      const warehouse = reference.warehouses.find((w) => w.id === value('warehouse_id'));
      const [quoted, chosen] = await Promise.all([
        quote({
          journey_type: 'forward',
          origin_pincode: warehouse?.address_attributes.zip ?? '',
          destination_pincode: value('billing_pincode'),
          dead_weight: Math.round(number(value('weight')) * 1000),
          length: number(value('length')),
          width: number(value('breadth')),
          height: number(value('height')),
          payment_method: cod ? 'cod' : 'prepaid',
          ...(cod && { shipment_value: subTotal }),
        }),
        // Who the rules would give this order to; the buyer's name and address do not change it.
        preview(orderBody({ forPreview: true })).then(
          (answer) => answer.data,
          () => undefined,
        ),
      ]);
      return { quotes: quoted.result.serviceable_couriers as Quote[], rules: chosen };
    },
    // A new comparison starts from the rules' choice again.
    onSuccess: () => setCarrier(BY_RULES),
  });
  const compare = () => {
    const found = formProblems(quoteProblems(draft(), cod));
    setProblems(found);
    if (found) rates.reset();
    else rates.mutate();
  };

  const book = useMutation({
    mutationFn: (body: OrderBody) =>
      unwrap(
        api.POST('/custom/api/v1/forward-order-orchestration', {
          body,
          params: { header: { 'idempotency-key': idempotencyKey } },
        }),
      ),
  });

  const lookUp = async (pincode: string) => {
    if (!/^[1-9]\d{5}$/.test(pincode)) return;
    try {
      const found = await unwrap(api.GET('/custom/api/v1/pincodes/{pincode}', { params: { path: { pincode } } }));
      setPlace({ city: found.city, state: found.state });
      setPincodeNote(
        `${found.city}, ${found.state}${found.city === found.district ? '' : ` (${found.district} district)`}`,
      );
    } catch {
      setPincodeNote('Not in the pincode directory: check the pincode');
    }
  };

  /** The order as the API takes it; for a preview of the rules, placeholders where the buyer is not typed yet. */
  function orderBody({ forPreview = false } = {}): OrderBody {
    const or = (typed: string, placeholder: string) => (forPreview && typed.trim() === '' ? placeholder : typed);
    const body = {
      order_id: forPreview ? `PREVIEW-${Date.now()}` : value('order_id'),
      order_date: value('order_date'),
      ...(value('store_name') && { store_name: value('store_name') }),
      billing_customer_name: or(value('billing_customer_name'), 'Preview'),
      billing_last_name: value('billing_last_name'),
      billing_address: or(value('billing_address'), '1 Preview Street'),
      billing_city: place.city,
      billing_pincode: value('billing_pincode'),
      billing_state: place.state,
      billing_country: 'India',
      billing_phone: or(value('billing_phone'), '9000000000'),
      ...(value('billing_email') && !forPreview && { billing_email: value('billing_email') }),
      shipping_is_billing: true,
      print_label: true,
      order_items: items.map((i) => ({
        name: or(i.name, 'Item'),
        sku: or(i.sku, 'ITEM'),
        units: number(i.units),
        selling_price: forPreview ? number(i.price) || 0 : number(i.price),
      })),
      payment_method: cod ? 'COD' : 'Prepaid',
      sub_total: subTotal,
      ...(cod && { cod_collectible: subTotal }),
      length: number(value('length')),
      breadth: number(value('breadth')),
      height: number(value('height')),
      weight: number(value('weight')),
      warehouse_id: value('warehouse_id'),
      ...(value('ewaybill_no') && { ewaybill_no: value('ewaybill_no') }),
      ...(value('ewaybill_date') && { ewaybill_date: value('ewaybill_date') }),
      // Only a courier the merchant picked from the comparison; otherwise the allocation rules choose.
      ...(!forPreview && carrier !== BY_RULES && { carrier_id: carrier }),
    };
    // NaN is not JSON: an empty number goes as null, which the API names as the field at fault.
    return JSON.parse(JSON.stringify(body, (_k, v) => (Number.isNaN(v) ? null : v))) as OrderBody;
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = formProblems(orderProblems(draft()));
    setProblems(found);
    if (found) book.reset();
    else book.mutate(orderBody());
  };

  if (!reference.loaded) return <Loading what="your warehouses and stores" />;
  if (reference.warehouses.length === 0) {
    return (
      <section>
        <h1>Create shipment</h1>
        <EmptyState title="Add a warehouse first">
          <p>
            Parcels are picked up from a warehouse. Add one in <Link to="/settings">Settings</Link>, then come back
            here.
          </p>
        </EmptyState>
      </section>
    );
  }
  const booked = book.data?.payload;
  if (booked) {
    return (
      <section>
        <h1>Shipment booked</h1>
        <div className="card" role="status">
          <p>
            Order <strong>{booked.channel_order_id}</strong> is booked with {booked.courier_name ?? 'a courier'}: AWB{' '}
            <strong>{booked.awb_code ?? 'pending'}</strong>.
          </p>
          <p>
            {booked.allocation
              ? booked.allocation.rule
                ? `Your allocation rule “${booked.allocation.rule}” chose it: ${booked.allocation.reason}.`
                : `No allocation rule matched: ${booked.allocation.reason}.`
              : 'You chose this courier from the rate comparison.'}
          </p>
          {booked.test_mode && (
            <p className="notice">
              Test booking: no courier issued this AWB (the sandbox or a simulator of the courier's API); nobody will
              collect the parcel.
            </p>
          )}
          <div className="actions">
            {booked.awb_code && (
              <a
                className="button"
                href={`/custom/api/v1/shipments/${encodeURIComponent(booked.shipment_id)}/label?format=pdf`}
                download={`label-${booked.awb_code}.pdf`}
              >
                Print label
              </a>
            )}
            <Link
              className="button secondary"
              to={`/shipments/${encodeURIComponent(booked.shipment_id)}?order=${encodeURIComponent(booked.channel_order_id)}`}
            >
              Open shipment
            </Link>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                book.reset();
                rates.reset();
                setCarrier(BY_RULES);
                setIdempotencyKey(crypto.randomUUID());
              }}
            >
              Book another
            </button>
          </div>
        </div>
      </section>
    );
  }

  // One refusal at a time, in the form's words: the form's own, else the booking's, else the quote's.
  const refusal = inFormWords(problems ?? book.error ?? rates.error, orderLabel);
  const errors = refusal instanceof ApiError ? quoteFieldsOnForm(refusal.fieldErrors()) : {};
  const quotes = rates.data?.quotes ?? [];
  const rules = rates.data?.rules;
  const cheapest = quotes.reduce<Quote | undefined>(
    (best, q) => (!best || q.charges.total_forward_charges < best.charges.total_forward_charges ? q : best),
    undefined,
  );
  const fastest = quotes.reduce<Quote | undefined>(
    (best, q) => (!best || q.expected_delivery.delivery < best.expected_delivery.delivery ? q : best),
    undefined,
  );

  return (
    <section>
      <h1>Create shipment</h1>
      <form ref={form} onSubmit={submit} noValidate className="order-form">
        <ErrorSummary error={refusal} />
        <fieldset>
          <legend>Order</legend>
          <Field
            label="Order id"
            name="order_id"
            defaultValue={`ORD-${Date.now().toString(36).toUpperCase()}`}
            error={errors.order_id}
          />
          <Field
            label="Order date"
            name="order_date"
            defaultValue={indiaNow()}
            hint="India time, YYYY-MM-DD HH:MM"
            error={errors.order_date}
          />
          <SelectField
            label="Store"
            name="store_name"
            // An account with one store books for it unless told otherwise; a member limited to
            // stores books into one of theirs (the list holds only theirs).
            defaultValue={reference.stores.length === 1 || limited ? (reference.stores[0]?.store_name ?? '') : ''}
            options={[
              ...(limited ? [] : [{ value: '', label: 'No store' }]),
              ...reference.stores.map((s) => ({ value: s.store_name, label: s.brand_name ?? s.store_name })),
            ]}
            error={errors.store_name}
          />
          <SelectField
            label="Pick up from"
            name="warehouse_id"
            options={reference.warehouses.map((w) => ({
              value: w.id,
              label: `${w.name} (${w.address_attributes.zip})`,
            }))}
            error={errors.warehouse_id}
          />
          <Field
            label="E-way bill number"
            name="ewaybill_no"
            inputMode="numeric"
            hint="12 digits; an order over ₹50,000 needs one"
            error={errors.ewaybill_no}
          />
          <Field label="E-way bill date" name="ewaybill_date" hint="YYYY-MM-DD" error={errors.ewaybill_date} />
        </fieldset>
        <fieldset>
          <legend>Buyer and address</legend>
          <Field
            label="First name"
            name="billing_customer_name"
            autoComplete="off"
            error={errors.billing_customer_name}
          />
          <Field label="Last name" name="billing_last_name" autoComplete="off" error={errors.billing_last_name} />
          <Field label="Phone" name="billing_phone" inputMode="tel" error={errors.billing_phone} />
          <Field label="E-mail" name="billing_email" type="email" error={errors.billing_email} />
          <Field label="Address" name="billing_address" error={errors.billing_address} />
          <Field
            label="Pincode"
            name="billing_pincode"
            inputMode="numeric"
            maxLength={6}
            hint={pincodeNote || 'City and state fill in from the pincode'}
            onChange={(e) => void lookUp(e.target.value)}
            error={errors.billing_pincode ?? errors.destination_pincode}
          />
          <Field
            label="City"
            name="billing_city"
            value={place.city}
            onChange={(e) => setPlace({ ...place, city: e.target.value })}
            error={errors.billing_city}
          />
          <Field
            label="State"
            name="billing_state"
            value={place.state}
            onChange={(e) => setPlace({ ...place, state: e.target.value })}
            error={errors.billing_state}
          />
        </fieldset>
        <fieldset>
          <legend>Items</legend>
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and only the last is removed
            <div className="item-row" key={i}>
              <Field
                label={`Item ${i + 1} name`}
                value={item.name}
                onChange={(e) => setItems(items.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
                error={errors[`order_items.${i}.name`]}
              />
              <Field
                label={`Item ${i + 1} SKU`}
                value={item.sku}
                onChange={(e) => setItems(items.map((x, j) => (j === i ? { ...x, sku: e.target.value } : x)))}
                error={errors[`order_items.${i}.sku`]}
              />
              <Field
                label={`Item ${i + 1} units`}
                inputMode="numeric"
                value={item.units}
                onChange={(e) => setItems(items.map((x, j) => (j === i ? { ...x, units: e.target.value } : x)))}
                error={errors[`order_items.${i}.units`]}
              />
              <Field
                label={`Item ${i + 1} price (₹)`}
                inputMode="decimal"
                value={item.price}
                onChange={(e) => setItems(items.map((x, j) => (j === i ? { ...x, price: e.target.value } : x)))}
                error={errors[`order_items.${i}.selling_price`]}
              />
            </div>
          ))}
          <div className="actions">
            <button
              type="button"
              className="secondary"
              onClick={() => setItems([...items, { name: '', sku: '', units: '1', price: '' }])}
            >
              Add item
            </button>
            {items.length > 1 && (
              <button type="button" className="secondary" onClick={() => setItems(items.slice(0, -1))}>
                Remove last item
              </button>
            )}
          </div>
          <p>Order value: {formatRupees(subTotal)}</p>
        </fieldset>
        <fieldset>
          <legend>Payment</legend>
          <label className="choice">
            <input type="radio" name="payment" checked={cod} onChange={() => setCod(true)} /> Cash on delivery
          </label>
          <label className="choice">
            <input type="radio" name="payment" checked={!cod} onChange={() => setCod(false)} /> Prepaid
          </label>
        </fieldset>
        <fieldset>
          <legend>Package</legend>
          <Field
            label="Weight (kg)"
            name="weight"
            inputMode="decimal"
            defaultValue="0.5"
            error={errors.weight ?? errors.dead_weight}
          />
          <Field label="Length (cm)" name="length" inputMode="decimal" defaultValue="20" error={errors.length} />
          <Field
            label="Breadth (cm)"
            name="breadth"
            inputMode="decimal"
            defaultValue="15"
            error={errors.breadth ?? errors.width}
          />
          <Field label="Height (cm)" name="height" inputMode="decimal" defaultValue="10" error={errors.height} />
        </fieldset>
        <div className="actions">
          <button type="button" className="secondary" disabled={rates.isPending} onClick={compare}>
            Compare rates
          </button>
        </div>
        {!rates.data && (
          <p className="hint">Booked without comparing, the courier is the one your allocation rules choose.</p>
        )}
        {rates.data &&
          (quotes.length === 0 ? (
            <p role="status">No courier serves this lane for this parcel; check the pincode or the payment method.</p>
          ) : (
            <fieldset className="courier-choice">
              <legend>Courier</legend>
              <label className="choice">
                <input
                  type="radio"
                  name="carrier"
                  checked={carrier === BY_RULES}
                  onChange={() => setCarrier(BY_RULES)}
                />{' '}
                {rules ? (
                  <span>
                    As your allocation rules choose: <strong>{rules.courier_name}</strong> (
                    {rules.allocation?.rule ? `rule “${rules.allocation.rule}”: ` : 'no rule matches: '}
                    {rules.allocation?.reason ?? 'the cheapest'})
                  </span>
                ) : (
                  <span>As your allocation rules choose</span>
                )}
              </label>
              <table className="data rates">
                <caption>Couriers for this parcel</caption>
                <thead>
                  <tr>
                    <th scope="col">Book instead</th>
                    <th scope="col">Courier</th>
                    <th scope="col">Freight</th>
                    <th scope="col">COD charge</th>
                    <th scope="col">Total</th>
                    <th scope="col">Delivery by</th>
                  </tr>
                </thead>
                <tbody>
                  {quotes.map((q) => (
                    <tr key={q.carrier_id}>
                      <td data-label="Book instead">
                        <input
                          type="radio"
                          name="carrier"
                          aria-label={`Ship with ${q.carrier_name}`}
                          checked={carrier === q.carrier_id}
                          onChange={() => setCarrier(q.carrier_id)}
                        />
                      </td>
                      <td data-label="Courier">
                        {q.carrier_name}
                        {q.carrier_id === rules?.carrier_id && <span className="badge">Your rules' choice</span>}
                        {q === cheapest && <span className="badge">Cheapest</span>}
                        {q === fastest && <span className="badge">Fastest</span>}
                      </td>
                      <td data-label="Freight">{formatRupees(q.charges.forward_freight_charges)}</td>
                      <td data-label="COD charge">{formatRupees(q.charges.cod_charges)}</td>
                      <td data-label="Total">{formatRupees(q.charges.total_forward_charges)}</td>
                      <td data-label="Delivery by">{formatDate(q.expected_delivery.delivery)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </fieldset>
          ))}
        <div className="actions">
          <button type="submit" disabled={book.isPending}>
            {book.isPending
              ? 'Booking…'
              : carrier === BY_RULES
                ? 'Book shipment'
                : `Book with ${quotes.find((q) => q.carrier_id === carrier)?.carrier_name ?? 'this courier'}`}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The rate quote names its own fields; its refusals show beside the form's fields they are about. */
function quoteFieldsOnForm(byField: Record<string, string>): Record<string, string> {
  for (const [from, to] of Object.entries(QUOTE_FIELD)) if (byField[from]) byField[to] ??= byField[from];
  // A COD quote is priced on the order's value: the item prices make it.
  if (byField.shipment_value) byField['order_items.0.selling_price'] ??= byField.shipment_value;
  return byField;
}
