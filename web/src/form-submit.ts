import { type FormEvent, useState } from 'react';
import { ApiError } from './api/client';

/**
 * A sign-in page's form (sign-in, joining, a password reset): sends what `act` makes of the form's
 * fields, busy while it runs, and keeps the refusal to show, by field too. `expected` takes a
 * refusal that is a next step rather than an error (a second factor asked for): true, not shown.
 */
export function useFormSubmit(act: (form: FormData) => Promise<void>, expected?: (caught: unknown) => boolean) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      await act(form);
    } catch (caught) {
      if (!expected?.(caught)) setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, error, fields: error instanceof ApiError ? error.fieldErrors() : {} };
}
