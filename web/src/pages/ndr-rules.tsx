import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ApiError, api, type PutBody, unwrap } from '../api/client';
import { NDR_REASON_WORDS } from '../format';
import { EmptyState, ErrorSummary, Field, Loading, SelectField, Ticks } from '../ui';

const REASON_OPTIONS = Object.entries(NDR_REASON_WORDS).map(([value, label]) => ({ value, label }));

// The account's NDR rules and RTO risk thresholds (docs/rto.md), edited as the API takes them:
// the whole list saved at once (PUT /ndr-rules), every refusal shown beside its field.

type RulesBody = PutBody<'/custom/api/v1/ndr-rules'>;
type Rule = RulesBody['rules'][number];

/** A rule as the form holds it: text as typed, so a bad value reaches the API and its message. */
interface Draft {
  key: number;
  name: string;
  /** The API's reason words ticked; none: any reason. */
  reasons: string[];
  payment: '' | 'cod' | 'prepaid';
  attemptMin: string;
  attemptMax: string;
  action: string;
  rtoAfterHours: string;
}

let nextKey = 0;
const draftOf = (rule?: Rule): Draft => ({
  key: ++nextKey,
  name: rule?.name ?? '',
  reasons: rule?.when.ndr_reasons ?? [],
  payment: rule?.when.payment ?? '',
  attemptMin: rule?.when.attempt_min?.toString() ?? '',
  attemptMax: rule?.when.attempt_max?.toString() ?? '',
  action: rule?.action ?? 'reattempt',
  rtoAfterHours: rule?.rto_after_hours?.toString() ?? '',
});

/** A number when the text is one; otherwise the text itself, for the API to name what is wrong. */
const numberOr = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

function ruleOf(d: Draft): Rule {
  const reasons = d.reasons as NonNullable<Rule['when']['ndr_reasons']>;
  return {
    name: d.name,
    when: {
      ...(reasons.length > 0 && { ndr_reasons: reasons }),
      ...(d.payment && { payment: d.payment }),
      ...(d.attemptMin.trim() && { attempt_min: numberOr(d.attemptMin) as number }),
      ...(d.attemptMax.trim() && { attempt_max: numberOr(d.attemptMax) as number }),
    },
    action: d.action as Rule['action'],
    ...(d.rtoAfterHours.trim() && { rto_after_hours: numberOr(d.rtoAfterHours) as number }),
  };
}

const ACTIONS = [
  { value: 'reattempt', label: 'Reattempt on the next working day' },
  { value: 'rto', label: 'Return to origin (RTO)' },
  { value: 'message_buyer', label: 'Message the buyer' },
];

/** The field's message: the first the API named at that path or under it (rules.0.when.ndr_reasons.1). */
function errorAt(errors: Record<string, string>, path: string): string | undefined {
  return errors[path] ?? Object.entries(errors).find(([field]) => field.startsWith(`${path}.`))?.[1];
}

export function NdrRulesEditor() {
  const queryClient = useQueryClient();
  const rules = useQuery({ queryKey: ['ndr-rules'], queryFn: () => unwrap(api.GET('/custom/api/v1/ndr-rules')) });
  const [drafts, setDrafts] = useState<Draft[] | undefined>();
  useEffect(() => {
    if (rules.data && drafts === undefined) setDrafts(rules.data.data.rules.map(draftOf));
  }, [rules.data, drafts]);
  const save = useMutation({
    mutationFn: (body: RulesBody) => unwrap(api.PUT('/custom/api/v1/ndr-rules', { body })),
    onSuccess: (saved) => {
      setDrafts(saved.data.rules.map(draftOf));
      return queryClient.invalidateQueries({ queryKey: ['ndr-rules'] });
    },
  });
  if (!drafts) return rules.error ? <ErrorSummary error={rules.error} /> : <Loading what="NDR rules" />;
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const change = (i: number, patch: Partial<Draft>) => {
    setDrafts(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)));
    save.reset();
  };
  const move = (i: number, by: number) => {
    const next = [...drafts];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setDrafts(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ rules: drafts.map(ruleOf) });
  };
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-label="NDR rules">
      <h2>NDR rules</h2>
      <p className="hint">
        When a delivery fails, the first rule the NDR meets acts, through the same path and limits as your own reattempt
        or RTO. A rule with no reason ticked acts on any reason.
      </p>
      <ErrorSummary error={save.error} />
      {drafts.length === 0 && (
        <EmptyState title="No NDR rules">
          <p>
            Nothing happens on its own after a failed delivery. Add a rule, e.g. “customer unavailable → reattempt
            once”.
          </p>
        </EmptyState>
      )}
      {drafts.map((d, i) => {
        const at = `rules.${i}`;
        const label = `Rule ${i + 1}`;
        return (
          <fieldset key={d.key} aria-label={label}>
            <legend>{label}</legend>
            <Field
              label={`${label}: name`}
              value={d.name}
              onChange={(e) => change(i, { name: e.target.value })}
              error={errorAt(errors, `${at}.name`)}
            />
            {/* The failed-delivery reasons the rule acts on, by their words; none ticked: any reason. */}
            <Ticks
              legend={`${label}: NDR reasons`}
              options={REASON_OPTIONS}
              chosen={d.reasons}
              onChange={(reasons) => change(i, { reasons })}
              error={errorAt(errors, `${at}.when.ndr_reasons`)}
            />
            <SelectField
              label={`${label}: payment`}
              value={d.payment}
              onChange={(e) => change(i, { payment: e.target.value as Draft['payment'] })}
              options={[
                { value: '', label: 'COD and prepaid' },
                { value: 'cod', label: 'COD only' },
                { value: 'prepaid', label: 'Prepaid only' },
              ]}
              error={errorAt(errors, `${at}.when.payment`)}
            />
            <Field
              label={`${label}: from attempt`}
              inputMode="numeric"
              value={d.attemptMin}
              onChange={(e) => change(i, { attemptMin: e.target.value })}
              error={errorAt(errors, `${at}.when.attempt_min`)}
            />
            <Field
              label={`${label}: up to attempt`}
              inputMode="numeric"
              value={d.attemptMax}
              onChange={(e) => change(i, { attemptMax: e.target.value })}
              error={errorAt(errors, `${at}.when.attempt_max`)}
            />
            <SelectField
              label={`${label}: action`}
              value={d.action}
              onChange={(e) => change(i, { action: e.target.value })}
              options={ACTIONS}
              error={errorAt(errors, `${at}.action`)}
            />
            <Field
              label={`${label}: RTO if no answer after (hours)`}
              inputMode="numeric"
              value={d.rtoAfterHours}
              hint="Message the buyer only; empty: never"
              onChange={(e) => change(i, { rtoAfterHours: e.target.value })}
              error={errorAt(errors, `${at}.rto_after_hours`)}
            />
            <div className="row-actions">
              <button type="button" className="secondary" disabled={i === 0} onClick={() => move(i, -1)}>
                Move rule {i + 1} up
              </button>
              <button type="button" className="secondary" disabled={i === drafts.length - 1} onClick={() => move(i, 1)}>
                Move rule {i + 1} down
              </button>
              <button type="button" className="danger" onClick={() => setDrafts(drafts.filter((_, j) => j !== i))}>
                Remove rule {i + 1}
              </button>
            </div>
          </fieldset>
        );
      })}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => setDrafts([...drafts, draftOf()])}>
          Add a rule
        </button>
        <button type="submit" disabled={save.isPending}>
          Save NDR rules
        </button>
        {save.isSuccess && <span role="status">Saved.</span>}
      </div>
    </form>
  );
}

type ThresholdsBody = PutBody<'/custom/api/v1/rto-risk/thresholds'>;

export function ThresholdsEditor() {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ['rto-thresholds'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/rto-risk/thresholds')),
  });
  const save = useMutation({
    mutationFn: (body: ThresholdsBody) => unwrap(api.PUT('/custom/api/v1/rto-risk/thresholds', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['rto-thresholds'] }),
  });
  if (!current.data)
    return current.error ? <ErrorSummary error={current.error} /> : <Loading what="RTO risk thresholds" />;
  const t = current.data.data;
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => numberOr(String(form.get(name) ?? '')) as number;
    save.mutate({ medium: value('medium'), high: value('high'), high_value_cod: value('high_value_cod') });
  };
  return (
    <form onSubmit={submit} noValidate className="order-form" aria-label="RTO risk thresholds">
      <h2>RTO risk thresholds</h2>
      <p className="hint">
        Each booking's risk score is the sum of its reasons' points (COD 20, a suspicious address 30, each earlier RTO
        of the buyer 30, …).
        {t.default ? ' The defaults apply until you save your own.' : ''}
      </p>
      <ErrorSummary error={save.error} />
      <fieldset>
        <legend>Scores and amount</legend>
        <Field
          label="Medium risk from score"
          name="medium"
          inputMode="numeric"
          defaultValue={t.medium}
          error={errors.medium}
        />
        <Field label="High risk from score" name="high" inputMode="numeric" defaultValue={t.high} error={errors.high} />
        <Field
          label="High-value COD from (₹)"
          name="high_value_cod"
          inputMode="decimal"
          defaultValue={t.high_value_cod}
          error={errors.high_value_cod}
        />
      </fieldset>
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          Save thresholds
        </button>
        {save.isSuccess && <span role="status">Saved.</span>}
      </div>
    </form>
  );
}
