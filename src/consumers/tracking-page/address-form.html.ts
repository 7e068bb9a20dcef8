import { html } from '../../http/html.js';
import type { AddressProblemCode, AddressUpdateField } from '../../domain/rto/address-update.js';
import { layout } from './page-layout.html.js';

// The "update your address" form (docs/rto.md): server-rendered, no script, in English or Hindi.
// Each field has its label; a refused field says why beside it (aria-describedby) and in the
// summary at the top, which is announced (role=alert).

export type AddressLanguage = 'en' | 'hi';

const TEXT: Record<
  AddressLanguage,
  {
    title: string;
    intro: (brand: string) => string;
    labels: Record<AddressUpdateField, string>;
    optional: string;
    save: string;
    saved: string;
    closed: string;
    expired: string;
    fix: string;
    problems: Record<AddressProblemCode, (label: string) => string>;
    other: string;
  }
> = {
  en: {
    title: 'Update your delivery address',
    intro: (brand) =>
      `Your ${brand} order has not left yet. Add your house or flat number, street and a landmark so the courier finds you the first time.`,
    labels: {
      address: 'House or flat number, building and street',
      landmark: 'Landmark',
      pincode: 'Pincode',
      city: 'City',
      state: 'State',
      alternate_phone: 'Another phone number',
    },
    optional: 'optional',
    save: 'Save the address',
    saved: 'Thank you: your address is updated.',
    closed:
      'The courier has already picked up your parcel, so the address can no longer be changed here. Please contact the store.',
    expired: 'This form has expired. Please check the address and save it again.',
    fix: 'Please correct these:',
    problems: {
      required: (l) => `${l}: please fill this in`,
      too_short: (l) => `${l}: please write the full address`,
      too_long: (l) => `${l}: this is too long`,
      not_a_pincode: (l) => `${l}: a pincode is 6 digits`,
      unknown_pincode: (l) => `${l}: this pincode does not exist`,
      pincode_locked: (l) =>
        `${l}: the courier is booked for this pincode; to deliver elsewhere, please contact the store`,
      not_a_mobile: (l) => `${l}: please give a 10-digit Indian mobile number`,
    },
    other: 'हिन्दी में देखें',
  },
  hi: {
    title: 'अपना डिलीवरी पता अपडेट करें',
    intro: (brand) =>
      `आपका ${brand} ऑर्डर अभी भेजा नहीं गया है। अपना मकान या फ़्लैट नंबर, गली और कोई लैंडमार्क जोड़ें, ताकि कूरियर आपको पहली बार में ही ढूँढ ले।`,
    labels: {
      address: 'मकान या फ़्लैट नंबर, बिल्डिंग और गली',
      landmark: 'लैंडमार्क (पास की पहचान)',
      pincode: 'पिनकोड',
      city: 'शहर',
      state: 'राज्य',
      alternate_phone: 'दूसरा फ़ोन नंबर',
    },
    optional: 'वैकल्पिक',
    save: 'पता सेव करें',
    saved: 'धन्यवाद: आपका पता अपडेट हो गया है।',
    closed: 'कूरियर आपका पार्सल ले जा चुका है, इसलिए अब यहाँ पता नहीं बदला जा सकता। कृपया स्टोर से संपर्क करें।',
    expired: 'यह फ़ॉर्म पुराना हो गया है। कृपया पता जाँचकर फिर से सेव करें।',
    fix: 'कृपया इन्हें ठीक करें:',
    problems: {
      required: (l) => `${l}: कृपया भरें`,
      too_short: (l) => `${l}: कृपया पूरा पता लिखें`,
      too_long: (l) => `${l}: यह बहुत लंबा है`,
      not_a_pincode: (l) => `${l}: पिनकोड 6 अंकों का होता है`,
      unknown_pincode: (l) => `${l}: यह पिनकोड मौजूद नहीं है`,
      pincode_locked: (l) => `${l}: कूरियर इसी पिनकोड के लिए बुक है; कहीं और डिलीवरी के लिए स्टोर से संपर्क करें`,
      not_a_mobile: (l) => `${l}: कृपया 10 अंकों का भारतीय मोबाइल नंबर दें`,
    },
    other: 'View in English',
  },
};

export interface AddressFormState {
  state: 'open' | 'saved' | 'closed';
  values: Partial<Record<AddressUpdateField, string>>;
  problems: { field: AddressUpdateField; code: AddressProblemCode }[];
  expired: boolean;
  csrf: string | null;
}

const FIELDS: {
  field: AddressUpdateField;
  optional: boolean;
  max: number;
  type: 'text' | 'tel';
  autocomplete: string;
  inputmode?: string;
}[] = [
  { field: 'address', optional: false, max: 200, type: 'text', autocomplete: 'address-line1' },
  { field: 'landmark', optional: true, max: 100, type: 'text', autocomplete: 'address-line2' },
  { field: 'pincode', optional: false, max: 6, type: 'text', autocomplete: 'postal-code', inputmode: 'numeric' },
  { field: 'city', optional: false, max: 60, type: 'text', autocomplete: 'address-level2' },
  { field: 'state', optional: false, max: 60, type: 'text', autocomplete: 'address-level1' },
  { field: 'alternate_phone', optional: true, max: 20, type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
];

export function addressFormPage(
  language: AddressLanguage,
  brand: string,
  paths: { action: string; other: string },
  form: AddressFormState,
): string {
  const t = TEXT[language];
  const other: AddressLanguage = language === 'en' ? 'hi' : 'en';
  const messageOf = (p: AddressFormState['problems'][number]) => t.problems[p.code](t.labels[p.field]);
  const summary =
    (form.problems.length > 0 || form.expired) &&
    html`<div role="alert"><p class="error">${form.expired ? t.expired : t.fix}</p>${form.problems.length > 0 && html`<ul>${form.problems.map((p) => html`<li class="error"><a href="#${p.field}">${messageOf(p)}</a></li>`)}</ul>`}</div>`;
  const input = (f: (typeof FIELDS)[number]) => {
    const problem = form.problems.find((p) => p.field === f.field);
    return html`<label for="${f.field}">${t.labels[f.field]}${f.optional && html` <span class="muted">(${t.optional})</span>`}</label>${problem && html`<p class="error" id="${f.field}-error">${messageOf(problem)}</p>`}<input type="${f.type}" id="${f.field}" name="${f.field}" maxlength="${f.max}" autocomplete="${f.autocomplete}"${f.inputmode ? html` inputmode="${f.inputmode}"` : ''}${f.optional ? '' : html` required`}${problem ? html` aria-invalid="true" aria-describedby="${f.field}-error"` : ''} value="${form.values[f.field] ?? ''}">`;
  };
  const body =
    form.state === 'saved'
      ? html`<p class="ok" role="status">${t.saved}</p>`
      : form.state === 'closed' || !form.csrf
        ? html`<p class="warn" role="status">${t.closed}</p>`
        : html`<p>${t.intro(brand)}</p>${summary}<form method="post" action="${paths.action}" novalidate><input type="hidden" name="csrf" value="${form.csrf}">${FIELDS.map(input)}<button type="submit">${t.save}</button></form>`;
  return layout(
    language,
    `${brand}: ${t.title}`,
    html`<nav><a href="${paths.other}" hreflang="${other}" lang="${other}">${t.other}</a></nav><header><h1>${brand}</h1></header><section aria-labelledby="address-title"><h2 id="address-title">${t.title}</h2>${body}</section>`,
    null,
  );
}
