import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, api, type PostBody, unwrap } from '../api/client';
import { placeName } from '../format';
import { inFormWords } from '../form-words';
import { useTitle } from '../router';
import { EmptyState, ErrorSummary, Field, Loading, SelectField } from '../ui';
import { useReferenceData } from './reference';
import { SettingsNav } from './settings-nav';

// Courier allocation rules (docs/couriers.md, "Allocation rules"): the list in the order they are
// tried, with the API's warnings of the set; a form to add or edit one; and a dry run of an order.

type RuleBody = PostBody<'/custom/api/v1/allocation/rules'>;
type RuleList = Awaited<ReturnType<typeof listRules>>;
type Rule = RuleList['data'][number];

const listRules = () => unwrap(api.GET('/custom/api/v1/allocation/rules'));
const STRATEGIES = [
  { value: 'cheapest', label: 'Cheapest' },
  { value: 'fastest', label: 'Fastest' },
  { value: 'best_performance', label: 'Best delivery record' },
  { value: 'priority', label: 'Fixed priority' },
];
const strategyLabel = (s: string) => STRATEGIES.find((x) => x.value === s)?.label ?? s;
const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
/** A number when the text is one; otherwise the text, for the API to name what is wrong. */
const numberOr = (text: string) => (Number.isFinite(Number(text)) ? Number(text) : text) as number;

/** The rule form's labels for the rule's fields, which its refusals are told in. */
const RULE_LABELS: Record<string, string> = {
  name: 'Rule name',
  priority: 'Priority',
  strategy: 'Strategy',
  carrier_ids: 'Courier services',
  'conditions.zones': 'Zones',
  'conditions.payment_methods': 'Payment method',
  'conditions.weight_min_grams': 'Weight from (g)',
  'conditions.weight_max_grams': 'Weight up to (g)',
  'conditions.order_value_min': 'Order value from (₹)',
  'conditions.order_value_max': 'Order value up to (₹)',
  'conditions.pincodes': 'Destination pincodes',
  'conditions.states': 'Destination states',
  'conditions.store_names': 'Stores',
};
/** A field's label, also for one entry of a list (carrier_ids.1 is one of the Courier services). */
const ruleLabel = (field: string) => RULE_LABELS[field] ?? RULE_LABELS[field.replace(/\.\d+$/, '')];

function conditionsText(c: Rule['conditions']): string {
  const parts = [
    c.zones && `zones ${c.zones.join(', ')}`,
    c.payment_methods?.join(' or ').toUpperCase(),
    (c.weight_min_grams !== undefined || c.weight_max_grams !== undefined) &&
      `${c.weight_min_grams ?? 0}–${c.weight_max_grams ?? '∞'} g`,
    (c.order_value_min !== undefined || c.order_value_max !== undefined) &&
      `₹${c.order_value_min ?? 0}–${c.order_value_max ?? '∞'}`,
    c.pincodes && `pincodes ${c.pincodes.join(', ')}`,
    c.states && `states ${c.states.map(placeName).join(', ')}`,
    c.store_names && `stores ${c.store_names.join(', ')}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'every order';
}

/** The rule's body with another priority: how a move is saved (PUT takes the whole rule). */
function bodyOf(rule: Rule, priority = rule.priority): RuleBody {
  return {
    name: rule.name,
    priority,
    active: rule.active,
    strategy: rule.strategy as RuleBody['strategy'],
    carrier_ids: rule.carrier_ids,
    conditions: rule.conditions,
  };
}

export function AllocationRules() {
  useTitle('Courier allocation');
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ['allocation-rules'], queryFn: listRules });
  const { carriers } = useReferenceData();
  const courierName = (id: string) => carriers.find((c) => c.carrier_id === id)?.carrier_name ?? id;
  const [editing, setEditing] = useState<Rule | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['allocation-rules'] });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/custom/api/v1/allocation/rules/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  // Swapping two neighbours' priorities; equal priorities get the upper one's minus one.
  const move = useMutation({
    mutationFn: async ([a, b]: [Rule, Rule]) => {
      const [high, low] =
        a.priority === b.priority ? [Math.max(a.priority - 1, 0), a.priority] : [b.priority, a.priority];
      await unwrap(
        api.PUT('/custom/api/v1/allocation/rules/{id}', { params: { path: { id: a.id } }, body: bodyOf(a, high) }),
      );
      await unwrap(
        api.PUT('/custom/api/v1/allocation/rules/{id}', { params: { path: { id: b.id } }, body: bodyOf(b, low) }),
      );
    },
    onSettled: refresh,
  });
  const data = rules.data?.data ?? [];
  return (
    <section>
      <h1>Settings</h1>
      <SettingsNav />
      <h2>Courier allocation rules</h2>
      <p className="hint">
        An order booked without a courier goes to the first active rule (lowest priority) it meets; without one, the
        cheapest courier.
      </p>
      <ErrorSummary error={rules.error ?? remove.error ?? move.error} />
      {(rules.data?.warnings.length ?? 0) > 0 && (
        // How priorities work, said of these rules: information, saved as they are, not a fault.
        <section className="info" aria-label="Notes on these rules">
          <p>
            Some rules meet the same orders. That is how priorities work: an order goes to the first rule it meets, so a
            later rule only gets the orders the earlier ones leave. Change a priority if that is not what you want.
          </p>
          <ul className="info-list">
            {rules.data!.warnings.map((w) => (
              <li key={w.message}>{w.message.charAt(0).toUpperCase() + w.message.slice(1)}</li>
            ))}
          </ul>
        </section>
      )}
      {rules.isPending ? (
        <Loading what="allocation rules" />
      ) : data.length === 0 ? (
        <EmptyState title="No allocation rules">
          <p>
            Every order without a courier goes to the cheapest. Add a rule below, e.g. COD orders to Mumbai by fixed
            priority.
          </p>
        </EmptyState>
      ) : (
        <table className="data responsive">
          <caption>Rules, in the order they are tried</caption>
          <thead>
            <tr>
              <th scope="col">Priority</th>
              <th scope="col">Rule</th>
              <th scope="col">Strategy</th>
              <th scope="col">Couriers</th>
              <th scope="col">Orders</th>
              <th scope="col">Active</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {data.map((r, i) => (
              <tr key={r.id}>
                <td data-label="Priority">{r.priority}</td>
                <td data-label="Rule">{r.name}</td>
                <td data-label="Strategy">{strategyLabel(r.strategy)}</td>
                <td data-label="Couriers">
                  {r.carrier_ids.length > 0 ? r.carrier_ids.map(courierName).join(', ') : 'Any'}
                </td>
                <td data-label="Orders">{conditionsText(r.conditions)}</td>
                <td data-label="Active">{r.active ? 'Yes' : 'No'}</td>
                <td data-label="Action">
                  <div className="row-actions">
                    <button type="button" className="secondary" onClick={() => setEditing(r)}>
                      Edit {r.name}
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={i === 0 || move.isPending}
                      onClick={() => move.mutate([r, data[i - 1]!])}
                    >
                      Move {r.name} up
                    </button>
                    <button
                      type="button"
                      className="danger"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(r.id)}
                    >
                      Delete {r.name}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RuleForm key={editing?.id ?? 'new'} rule={editing} done={() => setEditing(undefined)} />
      <Preview />
    </section>
  );
}

function RuleForm({ rule, done }: { rule: Rule | undefined; done: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: RuleBody) =>
      unwrap(
        rule
          ? api.PUT('/custom/api/v1/allocation/rules/{id}', { params: { path: { id: rule.id } }, body })
          : api.POST('/custom/api/v1/allocation/rules', { body }),
      ),
    onSuccess: () => {
      done();
      return queryClient.invalidateQueries({ queryKey: ['allocation-rules'] });
    },
  });
  const refusal = inFormWords(save.error, ruleLabel);
  const errors = refusal instanceof ApiError ? refusal.fieldErrors() : {};
  const at = (field: string) => errors[field] ?? Object.entries(errors).find(([f]) => f.startsWith(`${field}.`))?.[1];
  const c = rule?.conditions ?? {};
  // A new picker (and its choices) once a rule is added: the form starts again empty.
  const [added, setAdded] = useState(0);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const optional = (name: string) => (text(name) ? numberOr(text(name)) : undefined);
    const conditions = {
      ...(list(text('zones')).length > 0 && { zones: list(text('zones')) }),
      ...(text('payment') && { payment_methods: [text('payment')] }),
      ...(optional('weight_min') !== undefined && { weight_min_grams: optional('weight_min') }),
      ...(optional('weight_max') !== undefined && { weight_max_grams: optional('weight_max') }),
      ...(optional('value_min') !== undefined && { order_value_min: optional('value_min') }),
      ...(optional('value_max') !== undefined && { order_value_max: optional('value_max') }),
      ...(list(text('pincodes')).length > 0 && { pincodes: list(text('pincodes')) }),
      ...(list(text('states')).length > 0 && { states: list(text('states')) }),
      ...(list(text('stores')).length > 0 && { store_names: list(text('stores')) }),
    };
    save.mutate(
      {
        name: text('name'),
        priority: numberOr(text('priority')),
        active: form.get('active') === 'on',
        strategy: text('strategy') as RuleBody['strategy'],
        carrier_ids: list(text('carrier_ids')),
        conditions,
      } as RuleBody,
      {
        onSuccess: () => {
          element.reset();
          setAdded(added + 1);
        },
      },
    );
  };
  const title = rule ? `Edit ${rule.name}` : 'Add a rule';
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-label={title}>
      <fieldset>
        <legend>{title}</legend>
        <ErrorSummary error={refusal} />
        <Field label="Rule name" name="name" defaultValue={rule?.name} error={at('name')} />
        <Field
          label="Priority"
          name="priority"
          inputMode="numeric"
          hint="Lowest first"
          defaultValue={rule?.priority ?? 10}
          error={at('priority')}
        />
        <SelectField
          label="Strategy"
          name="strategy"
          defaultValue={rule?.strategy ?? 'cheapest'}
          options={STRATEGIES}
          error={at('strategy')}
        />
        <CourierPicker key={added} initial={rule?.carrier_ids ?? []} error={at('carrier_ids')} />
        <Field
          label="Zones"
          name="zones"
          hint="A to E, comma-separated"
          defaultValue={c.zones?.join(', ')}
          error={at('conditions.zones')}
        />
        <SelectField
          label="Payment method"
          name="payment"
          defaultValue={c.payment_methods?.length === 1 ? c.payment_methods[0] : ''}
          options={[
            { value: '', label: 'Any' },
            { value: 'cod', label: 'COD' },
            { value: 'prepaid', label: 'Prepaid' },
          ]}
          error={at('conditions.payment_methods')}
        />
        <Field
          label="Weight from (g)"
          name="weight_min"
          inputMode="numeric"
          defaultValue={c.weight_min_grams}
          error={at('conditions.weight_min_grams')}
        />
        <Field
          label="Weight up to (g)"
          name="weight_max"
          inputMode="numeric"
          defaultValue={c.weight_max_grams}
          error={at('conditions.weight_max_grams')}
        />
        <Field
          label="Order value from (₹)"
          name="value_min"
          inputMode="decimal"
          defaultValue={c.order_value_min}
          error={at('conditions.order_value_min')}
        />
        <Field
          label="Order value up to (₹)"
          name="value_max"
          inputMode="decimal"
          defaultValue={c.order_value_max}
          error={at('conditions.order_value_max')}
        />
        <Field
          label="Destination pincodes"
          name="pincodes"
          defaultValue={c.pincodes?.join(', ')}
          error={at('conditions.pincodes')}
        />
        <Field
          label="Destination states"
          name="states"
          hint="Comma-separated, e.g. Karnataka, Tamil Nadu"
          defaultValue={c.states?.map(placeName).join(', ')}
          error={at('conditions.states')}
        />
        <Field
          label="Stores"
          name="stores"
          defaultValue={c.store_names?.join(', ')}
          error={at('conditions.store_names')}
        />
        <div className="field">
          <label>
            <input type="checkbox" name="active" defaultChecked={rule?.active ?? true} /> Active
          </label>
        </div>
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {rule ? 'Save rule' : 'Add rule'}
          </button>
          {rule && (
            <button type="button" className="secondary" onClick={done}>
              Cancel editing
            </button>
          )}
        </div>
      </fieldset>
    </form>
  );
}

/**
 * The rule's courier services, picked by name from the catalogue, in the order the rule tries them
 * (a fixed-priority rule's order): added from a list, moved up or removed. None: every service.
 */
function CourierPicker({ initial, error }: { initial: string[]; error: string | undefined }) {
  const { carriers } = useReferenceData();
  const [chosen, setChosen] = useState(initial);
  const [adding, setAdding] = useState('');
  const name = (id: string) => carriers.find((c) => c.carrier_id === id)?.carrier_name ?? id;
  const left = carriers.filter((c) => !chosen.includes(c.carrier_id));
  const errorId = useId();
  return (
    <fieldset className="picker" aria-describedby={error ? errorId : undefined}>
      <legend>Courier services</legend>
      <input type="hidden" name="carrier_ids" value={chosen.join(',')} />
      {chosen.length === 0 ? (
        <p className="hint">None chosen: the rule considers every courier service.</p>
      ) : (
        <ol aria-label="Chosen courier services, first tried first">
          {chosen.map((id, i) => (
            <li key={id}>
              <span>{name(id)}</span>
              <button
                type="button"
                className="secondary"
                disabled={i === 0}
                onClick={() => setChosen([...chosen.slice(0, i - 1), id, chosen[i - 1]!, ...chosen.slice(i + 1)])}
              >
                Move {name(id)} up
              </button>
              <button type="button" className="secondary" onClick={() => setChosen(chosen.filter((c) => c !== id))}>
                Remove {name(id)}
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="picker-add">
        <SelectField
          label="Add a courier service"
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          options={[
            { value: '', label: left.length > 0 ? 'Choose a service' : 'Every service is chosen' },
            ...left.map((c) => ({ value: c.carrier_id, label: c.carrier_name })),
          ]}
        />
        <button
          type="button"
          className="secondary"
          disabled={!adding}
          onClick={() => {
            setChosen([...chosen, adding]);
            setAdding('');
          }}
        >
          Add courier
        </button>
      </div>
      {error && (
        <small id={errorId} className="field-error">
          {error}
        </small>
      )}
    </fieldset>
  );
}

type OrderBody = PostBody<'/custom/api/v1/allocation/preview'>;
/** The preview form's labels for the order fields it fills. */
const PREVIEW_LABELS: Record<string, string> = {
  warehouse_id: 'Pick up from',
  billing_pincode: 'Delivery pincode',
  weight: 'Weight (kg)',
  sub_total: 'Order value (₹)',
  cod_collectible: 'Order value (₹)',
  'order_items.0.selling_price': 'Order value (₹)',
  store_name: 'Store',
};

/** A dry run: the order the merchant describes, as a booking would send it, and each rule's verdict. */
function Preview() {
  const { warehouses, stores } = useReferenceData();
  const preview = useMutation({
    mutationFn: async (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim();
      const pincode = text('pincode');
      // The pincode's own city and state, so the order is as a real one would be.
      const place = /^\d{6}$/.test(pincode)
        ? await api.GET('/custom/api/v1/pincodes/{pincode}', { params: { path: { pincode } } })
        : undefined;
      const cod = text('payment') === 'cod';
      const value = numberOr(text('value'));
      const body = {
        order_id: `PREVIEW-${Date.now()}`,
        order_date: new Date().toISOString().slice(0, 16).replace('T', ' '),
        billing_customer_name: 'Preview',
        billing_address: '1 Preview Street',
        billing_city: place?.data?.city ?? 'Unknown',
        billing_state: place?.data?.state ?? 'Unknown',
        billing_pincode: pincode,
        billing_country: 'India',
        billing_phone: '9000000000',
        shipping_is_billing: true,
        order_items: [{ name: 'Item', sku: 'PREVIEW', units: 1, selling_price: value }],
        payment_method: cod ? 'COD' : 'PREPAID',
        sub_total: value,
        cod_collectible: cod ? value : 0,
        length: 10,
        breadth: 10,
        height: 10,
        weight: numberOr(text('weight')),
        warehouse_id: text('warehouse'),
        ...(text('store') && { store_name: text('store') }),
      };
      return unwrap(api.POST('/custom/api/v1/allocation/preview', { body: body as unknown as OrderBody }));
    },
  });
  const refusal = inFormWords(preview.error, (field) => PREVIEW_LABELS[field]);
  const errors = refusal instanceof ApiError ? refusal.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    preview.mutate(new FormData(event.currentTarget));
  };
  const result = preview.data?.data;
  return (
    <>
      <form onSubmit={submit} noValidate className="order-form" aria-label="Preview an order">
        <fieldset>
          <legend>Preview an order</legend>
          <ErrorSummary error={refusal} />
          <SelectField
            label="Pick up from"
            name="warehouse"
            options={warehouses.map((w) => ({ value: w.id, label: w.name }))}
            error={errors.warehouse_id}
          />
          <Field label="Delivery pincode" name="pincode" inputMode="numeric" error={errors.billing_pincode} />
          <Field label="Weight (kg)" name="weight" inputMode="decimal" defaultValue="0.5" error={errors.weight} />
          <SelectField
            label="Payment"
            name="payment"
            options={[
              { value: 'prepaid', label: 'Prepaid' },
              { value: 'cod', label: 'COD' },
            ]}
          />
          <Field label="Order value (₹)" name="value" inputMode="decimal" defaultValue="999" error={errors.sub_total} />
          <SelectField
            label="Store"
            name="store"
            options={[
              { value: '', label: 'None' },
              ...stores.map((s) => ({ value: s.store_name, label: s.brand_name ?? s.store_name })),
            ]}
            error={errors.store_name}
          />
          <div className="actions">
            <button type="submit" disabled={preview.isPending}>
              Preview
            </button>
          </div>
        </fieldset>
      </form>
      {result && (
        <section aria-label="Preview result" className="card">
          <p role="status">
            A booking now would go to <strong>{result.courier_name}</strong>, zone{' '}
            {result.zone.replace('zone_', '').toUpperCase()}:{' '}
            {result.allocation
              ? `${result.allocation.rule ? `rule ${result.allocation.rule}, ` : ''}${result.allocation.reason}`
              : 'the order names its courier'}
            .
          </p>
          {result.rules.length > 0 && (
            <table className="data responsive">
              <caption>What each rule makes of this order</caption>
              <thead>
                <tr>
                  <th scope="col">Rule</th>
                  <th scope="col">Matches</th>
                  <th scope="col">Would choose</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {result.rules.map((r) => (
                  <tr key={r.rule_id}>
                    <td data-label="Rule">{r.rule}</td>
                    <td data-label="Matches">{r.matched ? 'Yes' : 'No'}</td>
                    <td data-label="Would choose">{r.courier_name ?? '—'}</td>
                    <td data-label="Why">{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </>
  );
}
