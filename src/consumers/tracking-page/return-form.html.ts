import { dayName, type Language, PAGE_TEXT } from '../../domain/buyer-copy/page-text.js';
import { RETURN_FORM_WORDS, type PickupField, type RefundField } from '../../domain/buyer-copy/return-form-words.js';
import { RETURN_REASON_WORDS } from '../../domain/buyer-copy/return-reason-words.js';
import type { ReturnReason } from '../../domain/return-requests/return-reasons.js';
import { MAX_RETURN_PHOTOS, RETURN_PHOTO_MAX_MEGABYTES } from '../../domain/return-requests/return-request-rules.js';
import { type Html, html } from '../../http/html.js';
import { brandHeader, type LanguageNav, layout } from './page-layout.html.js';
import type { PublicStatus } from './tracking-page.service.js';
import type { MaskedPayee, RefundMethod } from '../../domain/return-requests/refund-payee.js';

// The buyer's return form (docs/returns.md), behind the tracking link: server-rendered, no script,
// in the page's language. Each refused field says why beside it and in the summary at the top,
// which is announced (role=alert); the shipment's requests so far are listed below the form.

export interface ReturnFormItem {
  name: string;
  /** What may still be asked for; 0 with `refused` saying why. */
  unitsLeft: number;
  refused: string | null;
}

/** A request as the buyer is shown it: in words already, but for its day. */
export interface BuyerRequest {
  status: 'pending' | 'approved' | 'rejected' | 'withdrawn';
  createdDay: string;
  items: { name: string; quantity: number }[];
  resolution: 'refund' | 'exchange';
  exchangeFor: string | null;
  /** A refund's payee, masked. */
  refundTo: MaskedPayee | null;
  decisionNote: string | null;
}

/** What the buyer typed or picked, sent back into the form after a refusal. */
export interface ReturnFormValues {
  quantities: number[];
  reason: string;
  resolution: 'refund' | 'exchange';
  exchangeFor: string;
  comment: string;
  /** How a refund is paid, and the bank details typed. */
  refund: Record<'method' | RefundField, string>;
  pickup: Record<PickupField, string>;
}

/** A refused input: the form's anchor it names, and what it says. */
export interface FormProblem {
  anchor: string;
  message: string;
}

export interface ReturnFormState {
  /** open: the form; sent: the thanks above the list; closed: why no request can be made now. */
  state: 'open' | 'sent' | 'closed';
  /** closed: why, in the buyer's words. */
  closedBecause: string | null;
  lastDay: string | null;
  items: ReturnFormItem[];
  reasons: readonly string[];
  /** How a refund of this order may be paid. */
  refundMethods: readonly RefundMethod[];
  values: ReturnFormValues;
  problems: FormProblem[];
  expired: boolean;
  csrf: string | null;
  requests: BuyerRequest[];
}

const PICKUP_FIELDS: {
  field: PickupField;
  max: number;
  type: 'text' | 'tel';
  autocomplete: string;
  inputmode?: string;
}[] = [
  { field: 'address', max: 200, type: 'text', autocomplete: 'street-address' },
  { field: 'pincode', max: 6, type: 'text', autocomplete: 'postal-code', inputmode: 'numeric' },
  { field: 'city', max: 60, type: 'text', autocomplete: 'address-level2' },
  { field: 'state', max: 60, type: 'text', autocomplete: 'address-level1' },
  { field: 'phone', max: 20, type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
];

export const REFUND_FIELDS: readonly RefundField[] = [
  'upi_id',
  'account_holder',
  'account_number',
  'account_number_again',
  'ifsc',
];
/** Which details each method asks for. */
const REFUND_INPUTS: Partial<Record<RefundMethod, readonly RefundField[]>> = {
  upi: ['upi_id'],
  bank_transfer: ['account_holder', 'account_number', 'account_number_again', 'ifsc'],
};
const REFUND_AUTOCOMPLETE: Record<RefundField, string> = {
  upi_id: 'off',
  account_holder: 'name',
  account_number: 'off',
  account_number_again: 'off',
  ifsc: 'off',
};

/** Where a request's refund goes, in the buyer's words. */
function refundToWords(language: Language, payee: MaskedPayee): string {
  const t = RETURN_FORM_WORDS[language].refundTo;
  if (payee.method === 'upi') return t.upi(payee.upi_id);
  if (payee.method === 'bank_transfer') return t.bank_transfer(payee.bank, payee.account_number);
  return t[payee.method];
}

const reasonWords = (language: Language, code: string) => RETURN_REASON_WORDS[language][code as ReturnReason] ?? code;

/** The problem naming this anchor, with the attributes that tie its message to the input. */
function problemOf(problems: readonly FormProblem[], anchor: string) {
  const problem = problems.find((p) => p.anchor === anchor);
  return {
    message: problem && html`<p class="error" id="${anchor}-error">${problem.message}</p>`,
    attributes: problem ? html` aria-invalid="true" aria-describedby="${anchor}-error"` : '',
  };
}

function requestList(language: Language, requests: readonly BuyerRequest[]): Html | false {
  if (requests.length === 0) return false;
  const t = RETURN_FORM_WORDS[language];
  const tone = { pending: 'warn', approved: 'ok', rejected: 'bad', withdrawn: 'muted' } as const;
  return html`<section aria-labelledby="requests-title"><h2 id="requests-title">${t.yourRequests}</h2><ol>${requests.map(
    (r) =>
      html`<li class="request"><strong class="${tone[r.status]}">${t.states[r.status]}</strong><span class="muted">${t.askedOn(dayName(r.createdDay, language))}</span><br>${r.items.map((item) => `${item.name} × ${item.quantity}`).join(', ')} · ${r.resolution === 'refund' ? t.wants.refund : t.wants.exchange(r.exchangeFor)}${r.refundTo && html`<br><span>${refundToWords(language, r.refundTo)}</span>`}${r.decisionNote && html`<br><span>${t.storeSays} ${r.decisionNote}</span>`}</li>`,
  )}</ol></section>`;
}

function requestForm(language: Language, brand: string, action: string, form: ReturnFormState): Html {
  const t = RETURN_FORM_WORDS[language];
  const { values, problems } = form;
  const summary =
    (problems.length > 0 || form.expired) &&
    html`<div role="alert"><p class="error">${form.expired ? t.expired : t.fix}</p>${problems.length > 0 && html`<ul>${problems.map((p) => html`<li class="error">${p.anchor ? html`<a href="#${p.anchor}">${p.message}</a>` : p.message}</li>`)}</ul>`}</div>`;
  const item = (entry: ReturnFormItem, i: number) => {
    const id = `item-${i}`;
    if (entry.refused)
      return html`<p><strong>${entry.name}</strong><br><span class="muted">${entry.refused}</span></p>`;
    const p = problemOf(problems, id);
    const chosen = values.quantities[i] ?? 0;
    const options = Array.from({ length: entry.unitsLeft + 1 }, (_, n) => n);
    return html`<label for="${id}">${t.howMany(entry.name)}</label>${p.message}<select id="${id}" name="item_${i}"${p.attributes}>${options.map((n) => html`<option value="${n}"${n === chosen ? ' selected' : ''}>${n === 0 ? t.none : n}</option>`)}</select>`;
  };
  const reason = problemOf(problems, 'reason');
  const photos = problemOf(problems, 'photos');
  const pickupInput = (f: (typeof PICKUP_FIELDS)[number]) => {
    const id = `pickup-${f.field}`;
    const p = problemOf(problems, id);
    return html`<label for="${id}">${t.pickupLabels[f.field]}</label>${p.message}<input type="${f.type}" id="${id}" name="pickup_${f.field}" maxlength="${f.max}" autocomplete="${f.autocomplete}"${f.inputmode ? html` inputmode="${f.inputmode}"` : ''} required${p.attributes} value="${values.pickup[f.field]}">`;
  };
  const method = problemOf(problems, 'refund_method');
  const refundInput = (field: RefundField) => {
    const id = `refund_${field}`;
    const p = problemOf(problems, id);
    const numeric = field === 'account_number' || field === 'account_number_again';
    return html`<label for="${id}">${t.refundLabels[field]}</label>${p.message}<input type="text" id="${id}" name="${id}" maxlength="${field === 'upi_id' ? 300 : field === 'account_holder' ? 100 : 30}" autocomplete="${REFUND_AUTOCOMPLETE[field]}"${numeric ? html` inputmode="numeric"` : ''}${field === 'ifsc' ? html` autocapitalize="characters"` : ''}${p.attributes} value="${values.refund[field]}">`;
  };
  const refundChoice = (choice: RefundMethod) =>
    html`<label class="choice"><input type="radio" name="refund_method" value="${choice}"${values.refund.method === choice || (form.refundMethods.length === 1 && choice === form.refundMethods[0]) ? ' checked' : ''}${method.attributes}>${t.refundMethods[choice]}</label>${(REFUND_INPUTS[choice] ?? []).map(refundInput)}`;
  const radio = (value: 'refund' | 'exchange', label: string) =>
    html`<label class="choice"><input type="radio" name="resolution" value="${value}"${values.resolution === value ? ' checked' : ''}>${label}</label>`;
  return html`<p>${t.intro(brand, form.lastDay ? dayName(form.lastDay, language) : '')}</p>${summary}<form method="post" action="${action}" enctype="multipart/form-data" novalidate><input type="hidden" name="csrf" value="${form.csrf}">
<fieldset><legend>${t.itemsLegend}</legend>${form.items.map(item)}</fieldset>
<label for="reason">${t.reason}</label>${reason.message}<select id="reason" name="reason" required${reason.attributes}><option value="">${t.chooseReason}</option>${form.reasons.map((code) => html`<option value="${code}"${values.reason === code ? ' selected' : ''}>${reasonWords(language, code)}</option>`)}</select>
<fieldset><legend>${t.wantLegend}</legend>${radio('refund', t.refund)}${radio('exchange', t.exchange)}<label for="exchange_for">${t.exchangeFor} <span class="muted">(${t.optional})</span></label><input type="text" id="exchange_for" name="exchange_for" maxlength="100" value="${values.exchangeFor}"></fieldset>
<fieldset id="refund_method"><legend>${t.refundLegend}</legend><p class="muted">${t.refundOnly}</p>${method.message}${form.refundMethods.map(refundChoice)}</fieldset>
<label for="comment">${t.comment} <span class="muted">(${t.optional})</span></label><textarea id="comment" name="comment" maxlength="500" rows="3">${values.comment}</textarea>
<label for="photos">${t.photos(MAX_RETURN_PHOTOS, RETURN_PHOTO_MAX_MEGABYTES)} <span class="muted">(${t.optional})</span></label>${photos.message}<input type="file" id="photos" name="photos" accept="image/jpeg,image/png,image/webp,image/gif" multiple${photos.attributes}>
<fieldset><legend>${t.pickupLegend}</legend>${PICKUP_FIELDS.map(pickupInput)}</fieldset>
<button type="submit">${t.send}</button></form>`;
}

/** The page: the brand, the form (or why there is none, or the thanks), the requests so far. */
export function returnFormPage(
  view: Pick<PublicStatus, 'brand' | 'language'>,
  paths: { action: string; tracking: string; nav: LanguageNav },
  form: ReturnFormState,
): string {
  const { language } = view;
  const t = RETURN_FORM_WORDS[language];
  const body =
    form.state === 'open' && form.csrf
      ? requestForm(language, view.brand.name, paths.action, form)
      : form.state === 'sent'
        ? html`<p class="ok" role="status">${t.sent}</p>`
        : html`<p class="warn" role="status">${form.closedBecause ?? ''}</p>`;
  return layout(
    language,
    `${view.brand.name}: ${t.title}`,
    html`${brandHeader(view.brand, PAGE_TEXT[language])}<section aria-labelledby="return-title"><h2 id="return-title">${t.title}</h2>${body}</section>${requestList(language, form.requests)}<p><a href="${paths.tracking}">${t.backToTracking}</a></p>`,
    paths.nav,
  );
}
