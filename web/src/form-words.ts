import { ApiError, type FieldError } from './api/client';

// A form speaks its own words: the API names fields as its JSON does (order_items.0.selling_price),
// a merchant knows them by the labels beside them (Item 1 price (₹)).

/** The segments of a field's path the API may start a message with: the whole path, then its last name. */
const namesOf = (field: string) => [field, field.slice(field.lastIndexOf('.') + 1)];

/**
 * An API refusal in the form's words: a message that starts with the API's name of a field starts
 * with the form's label for it instead ("updated_phone_number must be…" → "New phone number must
 * be…"); fields the form has no label for keep the API's words. Anything else passes unchanged.
 */
export function inFormWords(error: unknown, labelOf: (field: string) => string | undefined): unknown {
  if (!(error instanceof ApiError)) return error;
  const fields = error.details.map((d) => d.field);
  const reword = (message: string, own?: string) => {
    for (const field of own ? [own, ...fields] : fields) {
      const label = labelOf(field);
      if (!label) continue;
      for (const name of namesOf(field)) if (message.startsWith(`${name} `)) return label + message.slice(name.length);
    }
    return message;
  };
  return new ApiError(
    error.status,
    error.messages.map((m) => reword(m)),
    error.details.map((d) => ({ field: d.field, message: reword(d.message, d.field) })),
  );
}

/** The form's own refusal, before anything is sent: every problem at once, shaped as the API's. */
export function formProblems(problems: FieldError[]): ApiError | undefined {
  return problems.length === 0
    ? undefined
    : new ApiError(
        400,
        problems.map((p) => p.message),
        problems,
      );
}

/** A number typed into a form, or NaN when empty or not one. */
export const typedNumber = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
