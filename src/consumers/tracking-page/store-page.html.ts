import { type Html, html } from '../../http/html.js';
import { type Language, PAGE_TEXT } from '../../domain/buyer-copy/page-text.js';
import { type LanguageNav, layout, supportSection } from './page-layout.html.js';
import { STORE_TEXT } from './store-page-text.js';
import type { StoreField, StoreProblem, StoreWords } from './store-page-words.js';

export type { StoreField, StoreProblem };

// The store's tracking page (docs/api-behaviour.md): its brand and logo, and two forms, by AWB or
// by order number and phone. Server-rendered, no script, in every language of the buyers' pages.
// A refused field says why beside it (aria-describedby) and in the announced summary at the top.

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

/** What the store's forms and the AWB's page share: the words, the summary of problems, the fields. */
export function formParts(language: Language, form: StorePageState) {
  const t: StoreWords = STORE_TEXT[language];
  const messageOf = (p: StorePageState['problems'][number]) => t.problems[p.problem](t.labels[p.field]);
  const summary =
    form.problems.length > 0 &&
    html`<div role="alert"><p class="error">${t.fix}</p><ul>${form.problems.map((p) => html`<li class="error"><a href="#${p.field}">${messageOf(p)}</a></li>`)}</ul></div>`;
  const input = (field: StoreField) => {
    const f = FIELDS[field];
    const problem = form.problems.find((p) => p.field === field);
    const described = [problem && `${field}-error`, `${field}-hint`].filter(Boolean).join(' ');
    return html`<label for="${field}">${t.labels[field]}</label><p class="muted" id="${field}-hint">${t.hints[field]}</p>${problem && html`<p class="error" id="${field}-error">${messageOf(problem)}</p>`}<input type="${f.type}" id="${field}" name="${field}" maxlength="${f.max}" autocomplete="${f.autocomplete}"${f.inputmode ? html` inputmode="${f.inputmode}"` : ''} required${problem ? html` aria-invalid="true"` : ''} aria-describedby="${described}" value="${form.values[field] ?? ''}">`;
  };
  return { t, summary, input };
}

/** The language chosen on the page rides along in each form, so the next page answers in it too. */
export const langField = (lang: Language | null): Html | null =>
  lang && html`<input type="hidden" name="lang" value="${lang}">`;

export function storePage(
  language: Language,
  store: StoreView,
  paths: { action: string; nav: LanguageNav; lang: Language | null },
  form: StorePageState,
): string {
  const { t, summary, input } = formParts(language, form);
  const page = PAGE_TEXT[language];
  const alert = summary || (form.notFound && html`<p class="error" role="alert">${t.notFound(store.brand)}</p>`);
  const lang = langField(paths.lang);
  return layout(
    language,
    `${store.brand}: ${t.title}`,
    html`<header>${store.logoPath && html`<img src="${store.logoPath}" alt="${page.logoAlt(store.brand)}">`}<h1>${store.brand}</h1></header>
<section aria-labelledby="track-title"><h2 id="track-title">${t.title}</h2><p>${t.intro(store.brand)}</p>${alert}</section>
<section aria-labelledby="by-awb"><h2 id="by-awb">${t.byAwb}</h2><form method="get" action="${paths.action}" aria-labelledby="by-awb" novalidate>${lang}${input('awb')}<button type="submit">${t.submit}</button></form></section>
<section aria-labelledby="by-order"><h2 id="by-order">${t.byOrder}</h2><form method="get" action="${paths.action}" aria-labelledby="by-order" novalidate>${lang}${input('order_id')}${input('phone')}<button type="submit">${t.submit}</button></form></section>
${supportSection({ email: store.supportEmail, phone: store.supportPhone }, page)}`,
    paths.nav,
  );
}
