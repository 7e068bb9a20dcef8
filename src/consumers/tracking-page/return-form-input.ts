import type { ReturnAddress } from '../../base/db/schema.js';
import { type PickupField, type PickupProblem, RETURN_FORM_WORDS } from '../../domain/buyer-copy/return-form-words.js';
import type { Language } from '../../domain/buyer-copy/page-words.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import type { RefundToInput } from '../../domain/return-requests/refund-payee.js';
import { type FormProblem, REFUND_FIELDS, type ReturnFormValues } from './return-form.html.js';

// The return form's fields as the browser posts them, read into what the request is made of: the
// form's own checks (a field left empty, too long, a pincode that is not six digits, a phone that
// is not a mobile) are answered here, beside the field; what the store's rules decide is the
// service's (features/return-requests), whose refusals name fields this maps back to anchors.

const LIMITS: Record<PickupField | 'exchangeFor' | 'comment', number> = {
  address: 200,
  pincode: 6,
  city: 60,
  state: 60,
  phone: 20,
  exchangeFor: 100,
  comment: 500,
};

const clean = (value: string | undefined) => value?.replace(/\s+/g, ' ').trim() ?? '';

/** The form's values from its fields (`item_<i>`, `reason`, `resolution`, `exchange_for`, `comment`, `pickup_<field>`). */
export function formValues(fields: Readonly<Record<string, string>>, itemCount: number): ReturnFormValues {
  return {
    quantities: Array.from({ length: itemCount }, (_, i) => {
      const n = Number(fields[`item_${i}`] ?? 0);
      return Number.isSafeInteger(n) && n > 0 ? n : 0;
    }),
    reason: clean(fields.reason),
    resolution: fields.resolution === 'exchange' ? 'exchange' : 'refund',
    exchangeFor: clean(fields.exchange_for),
    comment: (fields.comment ?? '').trim(),
    refund: {
      method: clean(fields.refund_method),
      ...Object.fromEntries(REFUND_FIELDS.map((field) => [field, clean(fields[`refund_${field}`])])),
    } as ReturnFormValues['refund'],
    pickup: {
      address: clean(fields.pickup_address),
      pincode: clean(fields.pickup_pincode),
      city: clean(fields.pickup_city),
      state: clean(fields.pickup_state),
      phone: clean(fields.pickup_phone),
    },
  };
}

/** The values the form opens with: nothing chosen, the pickup where the order was delivered. */
export function openingValues(itemCount: number, delivery: ReturnAddress): ReturnFormValues {
  return {
    quantities: Array.from({ length: itemCount }, () => 0),
    reason: '',
    resolution: 'refund',
    exchangeFor: '',
    comment: '',
    refund: { method: '', upi_id: '', account_holder: '', account_number: '', account_number_again: '', ifsc: '' },
    pickup: {
      address: [delivery.address, delivery.address_2].filter(Boolean).join(', '),
      pincode: delivery.pincode,
      city: delivery.city,
      state: delivery.state,
      phone: delivery.phone,
    },
  };
}

/**
 * The pickup address the values give, over the delivery address (name, e-mail and country stay the
 * delivery's), with the problems of the form's own checks, each worded in the buyer's language.
 */
export function readPickup(
  values: ReturnFormValues,
  delivery: ReturnAddress,
  language: Language,
): { pickup: ReturnAddress; problems: FormProblem[] } {
  const t = RETURN_FORM_WORDS[language];
  const problems: FormProblem[] = [];
  const problem = (field: PickupField, code: PickupProblem) =>
    problems.push({ anchor: `pickup-${field}`, message: t.pickupProblems[code](t.pickupLabels[field]) });
  const { pincode, phone } = values.pickup;
  const mobile = canonicalIndianMobile(phone);
  // The delivery address as the order gave it may be longer than the form takes: left as it is, it stands.
  const unchanged = values.pickup.address === clean(openingValues(0, delivery).pickup.address);
  for (const field of ['address', 'pincode', 'city', 'state', 'phone'] as const) {
    const value = values.pickup[field];
    if (value === '') problem(field, 'required');
    else if (field === 'pincode' && !/^[1-9][0-9]{5}$/.test(value)) problem(field, 'not_a_pincode');
    else if (value.length > LIMITS[field] && !(field === 'address' && unchanged)) problem(field, 'too_long');
    else if (field === 'phone' && !mobile) problem(field, 'not_a_mobile');
  }
  if (values.exchangeFor.length > LIMITS.exchangeFor)
    problems.push({ anchor: 'exchange_for', message: t.pickupProblems.too_long(t.exchangeFor) });
  if (values.comment.length > LIMITS.comment)
    problems.push({ anchor: 'comment', message: t.pickupProblems.too_long(t.comment) });
  return {
    pickup: {
      ...delivery,
      address: unchanged ? delivery.address : values.pickup.address,
      address_2: unchanged ? delivery.address_2 : null,
      pincode,
      city: values.pickup.city,
      state: values.pickup.state,
      // Couriers take the ten digits (canonicalIndianMobile writes +91 before them).
      phone: mobile?.slice(-10) ?? phone,
    },
    problems,
  };
}

/**
 * How the buyer wants their money back, as the service takes it (refund-payee.ts judges it), with
 * the form's own check: the account number typed twice the same (ignored unless by bank transfer).
 */
export function readRefund(
  values: ReturnFormValues,
  language: Language,
): { refundTo: RefundToInput; problems: FormProblem[] } {
  const { method, upi_id, account_holder, account_number, account_number_again, ifsc } = values.refund;
  const digits = (text: string) => text.replace(/[\s-]/g, '');
  const problems =
    values.resolution === 'refund' &&
    method === 'bank_transfer' &&
    digits(account_number) !== digits(account_number_again)
      ? [{ anchor: 'refund_account_number_again', message: RETURN_FORM_WORDS[language].accountsDiffer }]
      : [];
  return { refundTo: { method: method || undefined, upi_id, account_holder, account_number, ifsc }, problems };
}

/**
 * Where a refusal of the service points on the form: `items[k]` is the k-th item asked for, which
 * is the form's item `asked[k]`; "no item chosen" points at the first item that may be chosen; the
 * whole order's refusal (`order`) points nowhere.
 */
export function anchorOf(field: string, asked: readonly number[], firstOpen: number): string {
  const item = /^items\[(\d+)\]/.exec(field);
  if (item) return `item-${asked[Number(item[1])] ?? firstOpen}`;
  if (field === 'items') return `item-${firstOpen}`;
  if (field === 'pickup.pincode') return 'pickup-pincode';
  if (field === 'order') return '';
  // refund_to.upi_id → the input named refund_upi_id.
  if (field.startsWith('refund_to.')) return `refund_${field.slice('refund_to.'.length)}`;
  return field;
}
