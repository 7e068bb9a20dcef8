import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, api, type PostBody, unwrap } from '../api/client';
import { inFormWords } from '../form-words';
import { ErrorSummary, Field } from '../ui';

type ReattemptBody = PostBody<'/custom/api/v1/reattempt'>;

/** The form's labels for the reattempt's fields, which its refusals are told in. */
const REATTEMPT_LABELS: Record<string, string> = {
  'updated_address.address_line': 'New address line',
  'updated_address.landmark': 'Landmark',
  updated_phone_number: 'New phone number',
  reattempt_date: 'Reattempt on',
  comments: 'Note for the delivery agent',
};

/**
 * Another delivery attempt with what the buyer told the merchant: a corrected street address and
 * landmark, a phone the courier can call, a date and a note. The pincode, city and state are not
 * offered: the API refuses them on a reattempt (a new destination is an RTO and a new booking).
 * Both the NDR queue's row and the shipment's page use it; the first field takes the focus when it
 * opens on a click, so a keyboard user lands in the form they asked for.
 */
export function ReattemptForm({
  awb,
  order,
  focusFirst,
  onDone,
  onCancel,
}: {
  awb: string;
  order: string;
  focusFirst?: boolean;
  onDone: (message: string) => void;
  onCancel?: () => void;
}) {
  const queryClient = useQueryClient();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusFirst) first.current?.focus();
  }, [focusFirst]);
  const reattempt = useMutation({
    mutationFn: (body: ReattemptBody) => unwrap(api.POST('/custom/api/v1/reattempt', { body })),
    onSuccess: (answer) => {
      onDone(answer.message);
      void queryClient.invalidateQueries();
    },
  });
  const refusal = inFormWords(reattempt.error, (field) => REATTEMPT_LABELS[field]);
  const errors = refusal instanceof ApiError ? refusal.fieldErrors() : {};
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const address = {
      ...(text('address_line') && { address_line: text('address_line') }),
      ...(text('landmark') && { landmark: text('landmark') }),
    };
    reattempt.mutate({
      awb,
      ...(Object.keys(address).length > 0 && { updated_address: address }),
      ...(text('phone') && { updated_phone_number: text('phone') }),
      ...(text('date') && { reattempt_date: text('date') }),
      ...(text('comments') && { comments: text('comments') }),
    });
  };
  return (
    <form
      className="reattempt"
      aria-label={`Reattempt ${order}`}
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel) onCancel();
      }}
    >
      <ErrorSummary error={refusal} />
      <Field
        ref={first}
        label="New address line"
        name="address_line"
        maxLength={500}
        autoComplete="off"
        error={errors['updated_address.address_line']}
        hint="Same pincode: the pincode, city and state cannot change on a reattempt."
      />
      <Field
        label="Landmark"
        name="landmark"
        maxLength={200}
        autoComplete="off"
        error={errors['updated_address.landmark']}
      />
      <Field
        label="New phone number"
        name="phone"
        inputMode="tel"
        autoComplete="off"
        error={errors.updated_phone_number}
      />
      <Field
        label="Reattempt on"
        name="date"
        type="date"
        error={errors.reattempt_date}
        hint="One of the next 3 working days; empty: the courier picks."
      />
      <Field
        label="Note for the delivery agent"
        name="comments"
        maxLength={500}
        autoComplete="off"
        error={errors.comments}
      />
      <div className="row-actions">
        <button type="submit" disabled={reattempt.isPending}>
          Ask for another attempt
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Close
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * Return to origin in one click, confirmed: the click asks, the confirmation (which takes the focus)
 * sends. Keep hands the focus back to the button that asked.
 */
export function RtoButton({ awb, order, onDone }: { awb: string; order: string; onDone: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const ask = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (returnFocus.current) ask.current?.focus();
  }, [asking]);
  const rto = useMutation({
    mutationFn: () => unwrap(api.POST('/custom/api/v1/initiate-rto', { body: { awb } })),
    onSuccess: (answer) => {
      onDone(`${answer.message}: order ${order} goes back to the warehouse.`);
      void queryClient.invalidateQueries();
    },
  });
  if (!asking) {
    return (
      <button
        ref={ask}
        type="button"
        className="danger"
        onClick={() => setAsking(true)}
        aria-label={`RTO ${order}`}
        title="Return to origin"
      >
        RTO
      </button>
    );
  }
  return (
    <fieldset className="confirm">
      <legend>Return {order} to origin?</legend>
      <p>The courier stops delivery attempts and brings the parcel back to the warehouse; the RTO charge applies.</p>
      <ErrorSummary error={rto.error} />
      <button ref={confirm} type="button" className="danger" disabled={rto.isPending} onClick={() => rto.mutate()}>
        Yes, return to origin
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          returnFocus.current = true;
          setAsking(false);
        }}
      >
        Keep trying delivery
      </button>
    </fieldset>
  );
}
