import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import { formProblems, inFormWords, typedNumber } from '../form-words';
import { Link, useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';
import { bookOrder, refusedForGood, ShipmentBooked } from './create-shipment-booked';
import {
  type BoxDraft,
  boxesWeight,
  type ItemDraft,
  type OrderDraft,
  onBoxInputs,
  orderLabel,
  orderProblems,
  packagesOf,
  quoteFieldsOnForm,
  quoteProblems,
} from './create-shipment-checks';
import { BoxesFieldset, emptyItem, ItemsFieldset, PackageFieldset } from './create-shipment-contents';
import {
  BY_RULES,
  type Comparison,
  CourierChoice,
  type OrderBody,
  preview,
  type Quote,
  quote,
} from './create-shipment-rates';
import { useStoreLimited } from '../permissions';
import { useReferenceData } from './reference';

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

export function CreateShipment() {
  useTitle('Create shipment');
  const limited = useStoreLimited();
  const reference = useReferenceData();
  const form = useRef<HTMLFormElement>(null);
  const [items, setItems] = useState<ItemDraft[]>([emptyItem()]);
  // An order in several boxes (Dakiya's packages); none: one box, the package's own fields.
  const [boxes, setBoxes] = useState<BoxDraft[]>([]);
  const [byItem, setByItem] = useState(false);
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
    boxes,
  });
  const sent = packagesOf(boxes, items, byItem);
  // Which form item each line of each box was when the order was sent: the API names lines by place.
  const sentLines = useRef<number[][]>([]);
  /** The order's weight in kg: with boxes, their total. */
  const weight = () => (boxes.length > 0 ? boxesWeight(boxes) : number(value('weight')));

  const rates = useMutation({
    mutationFn: async (): Promise<Comparison> => {
      const warehouse = reference.warehouses.find((w) => w.id === value('warehouse_id'));
      const [quoted, chosen] = await Promise.all([
        quote({
          journey_type: 'forward',
          origin_pincode: warehouse?.address_attributes.zip ?? '',
          destination_pincode: value('billing_pincode'),
          dead_weight: Math.round(weight() * 1000),
          length: number(value('length')),
          width: number(value('breadth')),
          height: number(value('height')),
          payment_method: cod ? 'cod' : 'prepaid',
          ...(cod && { shipment_value: subTotal }),
          // The quote's boxes are in grams, as its dead_weight.
          ...(boxes.length > 0 && {
            packages: sent.packages.map(({ weight: kg, length, breadth, height }) => ({
              weight: Math.round(kg * 1000),
              length,
              breadth,
              height,
            })),
          }),
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
    mutationFn: (body: OrderBody) => bookOrder(body, idempotencyKey),
    onError: (error) => {
      if (refusedForGood(error)) setIdempotencyKey(crypto.randomUUID());
    },
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
    if (!forPreview) sentLines.current = sent.lines;
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
      ...(value('billing_gstin').trim() && { billing_gstin: value('billing_gstin').trim().toUpperCase() }),
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
      weight: weight(),
      ...(boxes.length > 0 && { packages: sent.packages }),
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
      <ShipmentBooked
        booked={booked}
        onAnother={() => {
          book.reset();
          rates.reset();
          setCarrier(BY_RULES);
          setIdempotencyKey(crypto.randomUUID());
        }}
      />
    );
  }

  // One refusal at a time, in the form's words: the form's own, else the booking's, else the quote's.
  // A box's line is named by its place in the box: its error goes beside the form's item input.
  const refusal = inFormWords(onBoxInputs(problems ?? book.error ?? rates.error, sentLines.current), orderLabel);
  const errors = refusal instanceof ApiError ? quoteFieldsOnForm(refusal.fieldErrors()) : {};
  const quotes: Quote[] = rates.data?.quotes ?? [];

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
          <Field
            label="Buyer's GSTIN"
            name="billing_gstin"
            autoComplete="off"
            hint="A business buyer's, for a B2B tax invoice"
            error={errors.billing_gstin}
          />
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
        <ItemsFieldset items={items} setItems={setItems} subTotal={subTotal} errors={errors} />
        <fieldset>
          <legend>Payment</legend>
          <label className="choice">
            <input type="radio" name="payment" checked={cod} onChange={() => setCod(true)} /> Cash on delivery
          </label>
          <label className="choice">
            <input type="radio" name="payment" checked={!cod} onChange={() => setCod(false)} /> Prepaid
          </label>
        </fieldset>
        <PackageFieldset boxes={boxes} errors={errors} />
        <BoxesFieldset
          boxes={boxes}
          setBoxes={setBoxes}
          items={items}
          byItem={byItem}
          setByItem={setByItem}
          errors={errors}
        />
        <div className="actions">
          <button type="button" className="secondary" disabled={rates.isPending} onClick={compare}>
            Compare rates
          </button>
        </div>
        {!rates.data && (
          <p className="hint">Booked without comparing, the courier is the one your allocation rules choose.</p>
        )}
        {rates.data && <CourierChoice comparison={rates.data} carrier={carrier} setCarrier={setCarrier} />}
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
