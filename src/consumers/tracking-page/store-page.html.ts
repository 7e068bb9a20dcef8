import { html } from '../../http/html.js';
import { PAGE_TEXT } from '../../domain/shipment/page-text.js';
import { layout } from './tracking-page.html.js';

// The store's tracking page (docs/tracking.md): its brand and logo, and two forms, by AWB or by
// order number and phone. Server-rendered, no script, in English or Hindi, like the address form.
// A refused field says why beside it (aria-describedby) and in the announced summary at the top.

export type StorePageLanguage = 'en' | 'hi';
export type StoreField = 'awb' | 'order_id' | 'phone';
export type StoreProblem = 'required' | 'awb_invalid' | 'order_invalid' | 'phone_invalid';

interface Words {
  title: string;
  intro: (brand: string) => string;
  byAwb: string;
  byOrder: string;
  labels: Record<StoreField, string>;
  hints: Record<StoreField, string>;
  submit: string;
  notFound: (brand: string) => string;
  fix: string;
  problems: Record<StoreProblem, (label: string) => string>;
  other: string;
}

const TEXT: Record<StorePageLanguage, Words> = {
  en: {
    title: 'Track your order',
    intro: (brand) =>
      `Find your ${brand} parcel: enter its AWB (tracking number), or your order number with the phone number you ordered with.`,
    byAwb: 'Track by AWB',
    byOrder: 'Track by order number',
    labels: { awb: 'AWB (tracking number)', order_id: 'Order number', phone: 'Phone number on the order' },
    hints: {
      awb: 'On the parcel and in the message about your shipment.',
      order_id: 'As in your order confirmation.',
      phone: 'The 10-digit number you gave when ordering.',
    },
    submit: 'Track',
    notFound: (brand) =>
      `We could not find a ${brand} shipment with these details. Check them against your order confirmation and try again; a parcel shows here once the courier is booked.`,
    fix: 'Please correct these:',
    problems: {
      required: (l) => `${l}: please fill this in`,
      awb_invalid: (l) => `${l}: only letters, digits and hyphens, at most 40`,
      order_invalid: (l) => `${l}: at most 100 characters on one line`,
      phone_invalid: (l) => `${l}: please give a 10-digit Indian phone number`,
    },
    other: 'हिन्दी में देखें',
  },
  hi: {
    title: 'अपना ऑर्डर ट्रैक करें',
    intro: (brand) => `अपना ${brand} पार्सल खोजें: उसका AWB (ट्रैकिंग नंबर) डालें, या अपना ऑर्डर नंबर और ऑर्डर में दिया फ़ोन नंबर।`,
    byAwb: 'AWB से ट्रैक करें',
    byOrder: 'ऑर्डर नंबर से ट्रैक करें',
    labels: { awb: 'AWB (ट्रैकिंग नंबर)', order_id: 'ऑर्डर नंबर', phone: 'ऑर्डर में दिया फ़ोन नंबर' },
    hints: {
      awb: 'पार्सल पर और शिपमेंट के संदेश में लिखा होता है।',
      order_id: 'जैसा ऑर्डर की पुष्टि में लिखा है।',
      phone: 'ऑर्डर करते समय दिया 10 अंकों का नंबर।',
    },
    submit: 'ट्रैक करें',
    notFound: (brand) =>
      `इन जानकारियों से ${brand} का कोई शिपमेंट नहीं मिला। अपने ऑर्डर की पुष्टि से मिलाकर फिर कोशिश करें; कूरियर बुक होने के बाद ही पार्सल यहाँ दिखता है।`,
    fix: 'कृपया इन्हें ठीक करें:',
    problems: {
      required: (l) => `${l}: कृपया भरें`,
      awb_invalid: (l) => `${l}: केवल अक्षर, अंक और हाइफ़न, अधिकतम 40`,
      order_invalid: (l) => `${l}: एक पंक्ति में अधिकतम 100 अक्षर`,
      phone_invalid: (l) => `${l}: कृपया 10 अंकों का भारतीय फ़ोन नंबर दें`,
    },
    other: 'View in English',
  },
};

export interface StoreView {
  brand: string;
  logoPath: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
}

export interface StorePageState {
  values: Partial<Record<StoreField, string>>;
  problems: { field: StoreField; problem: StoreProblem }[];
  /** The details were well formed, but name no shipment of this store. */
  notFound: boolean;
}

const FIELDS: Record<StoreField, { max: number; type: 'text' | 'tel'; autocomplete: string; inputmode?: string }> = {
  awb: { max: 40, type: 'text', autocomplete: 'off' },
  order_id: { max: 100, type: 'text', autocomplete: 'off' },
  phone: { max: 20, type: 'tel', autocomplete: 'tel', inputmode: 'tel' },
};

export function storePage(
  language: StorePageLanguage,
  store: StoreView,
  paths: { action: string; other: string; lang: StorePageLanguage | null },
  form: StorePageState,
): string {
  const t = TEXT[language];
  const page = PAGE_TEXT[language];
  const other: StorePageLanguage = language === 'en' ? 'hi' : 'en';
  const messageOf = (p: StorePageState['problems'][number]) => t.problems[p.problem](t.labels[p.field]);
  const summary =
    form.problems.length > 0
      ? html`<div role="alert"><p class="error">${t.fix}</p><ul>${form.problems.map((p) => html`<li class="error"><a href="#${p.field}">${messageOf(p)}</a></li>`)}</ul></div>`
      : form.notFound && html`<p class="error" role="alert">${t.notFound(store.brand)}</p>`;
  const input = (field: StoreField) => {
    const f = FIELDS[field];
    const problem = form.problems.find((p) => p.field === field);
    const described = [problem && `${field}-error`, `${field}-hint`].filter(Boolean).join(' ');
    return html`<label for="${field}">${t.labels[field]}</label><p class="muted" id="${field}-hint">${t.hints[field]}</p>${problem && html`<p class="error" id="${field}-error">${messageOf(problem)}</p>`}<input type="${f.type}" id="${field}" name="${field}" maxlength="${f.max}" autocomplete="${f.autocomplete}"${f.inputmode ? html` inputmode="${f.inputmode}"` : ''} required${problem ? html` aria-invalid="true"` : ''} aria-describedby="${described}" value="${form.values[field] ?? ''}">`;
  };
  // The language the buyer chose rides along, so the shipment's page answers in it too.
  const lang = paths.lang && html`<input type="hidden" name="lang" value="${paths.lang}">`;
  const contact =
    (store.supportEmail || store.supportPhone) &&
    html`<section aria-labelledby="help"><h2 id="help">${page.help}</h2><dl>${store.supportEmail && html`<dt>${page.email}</dt><dd><a href="mailto:${store.supportEmail}">${store.supportEmail}</a></dd>`}${store.supportPhone && html`<dt>${page.phone}</dt><dd><a href="tel:${store.supportPhone.replace(/[^+\d]/g, '')}">${store.supportPhone}</a></dd>`}</dl></section>`;
  return layout(
    language,
    `${store.brand}: ${t.title}`,
    html`<nav><a href="${paths.other}" hreflang="${other}" lang="${other}">${t.other}</a></nav><header>${store.logoPath && html`<img src="${store.logoPath}" alt="${page.logoAlt(store.brand)}">`}<h1>${store.brand}</h1></header>
<section aria-labelledby="track-title"><h2 id="track-title">${t.title}</h2><p>${t.intro(store.brand)}</p>${summary}</section>
<section aria-labelledby="by-awb"><h2 id="by-awb">${t.byAwb}</h2><form method="get" action="${paths.action}" aria-labelledby="by-awb" novalidate>${lang}${input('awb')}<button type="submit">${t.submit}</button></form></section>
<section aria-labelledby="by-order"><h2 id="by-order">${t.byOrder}</h2><form method="get" action="${paths.action}" aria-labelledby="by-order" novalidate>${lang}${input('order_id')}${input('phone')}<button type="submit">${t.submit}</button></form></section>
${contact}`,
    null,
  );
}
