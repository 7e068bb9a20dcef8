import { Html, html } from '../../http/html.js';
import { dayName, type Language, PAGE_TEXT, type PageText } from '../../domain/buyer-copy/page-text.js';
import { RETURN_FORM_WORDS } from '../../domain/buyer-copy/return-form-words.js';
import { RETURN_TEXT } from './page-text-returns.js';
import {
  brandHeader,
  type LanguageNav,
  layout,
  statusSection,
  supportSection,
  testNotice,
  timelineSection,
} from './page-layout.html.js';
import { refuseText } from './refuse-text.js';
import { refuseOffered, type TrackingView } from './tracking-page.service.js';

// The buyer's own page of a shipment or return (/t/<token>): what page-layout.html.ts draws of any
// shipment, with the buyer's first name and city, and the forms that answer a failed delivery.

export interface FormState {
  /** The hidden anti-forgery field, when the form is shown. */
  csrf: string | null;
  /** Messages to show above the form, after a refused submission. */
  errors: string[];
  values: { reattempt_date?: string; landmark?: string; phone?: string };
  /** Messages about the refusal form, shown beside it rather than above the reattempt. */
  refuseErrors?: string[];
}

/** The other answer to a failed delivery: the parcel goes back, only once the box is ticked. */
function refuseForm(view: TrackingView, action: string, form: FormState): Html | false {
  const errors = (form.refuseErrors ?? []).map(
    (message) => html`<p class="error" role="alert" id="refuse-error">${message}</p>`,
  );
  const text = refuseText(view.language);
  if (!refuseOffered(view) || !form.csrf)
    return (
      errors.length > 0 && html`<section aria-labelledby="refuse"><h2 id="refuse">${text.title}</h2>${errors}</section>`
    );
  const invalid = errors.length > 0 ? new Html(' aria-invalid="true" aria-describedby="refuse-error"') : '';
  return html`<section aria-labelledby="refuse"><h2 id="refuse">${text.title}</h2><p>${text.intro}</p>
<form method="post" action="${action}"><input type="hidden" name="csrf" value="${form.csrf}">
<label class="choice"><input type="checkbox" name="confirm" value="yes" required${invalid}>${text.confirm}</label>${errors}
<button type="submit" style="background:#9a3412">${text.submit}</button></form></section>`;
}

function reattemptForm(view: TrackingView, text: PageText, action: string, form: FormState): Html | false {
  const errors = form.errors.map((message) => html`<p class="error" role="alert">${message}</p>`);
  if (view.reattempt.requested) {
    const day = view.reattempt.requested_date;
    return html`<section aria-labelledby="reattempt"><h2 id="reattempt">${text.reattemptTitle}</h2>${errors}<p class="ok" role="status">${day ? text.reattemptRequested(dayName(day, view.language)) : text.reattemptRequestedAnyDay}</p></section>`;
  }
  if (!view.reattempt.available || !form.csrf) {
    return (
      errors.length > 0 &&
      html`<section aria-labelledby="reattempt"><h2 id="reattempt">${text.reattemptTitle}</h2>${errors}</section>`
    );
  }
  const chosen = form.values.reattempt_date ?? view.reattempt.dates[0];
  return html`<section aria-labelledby="reattempt"><h2 id="reattempt">${text.reattemptTitle}</h2><p>${text.reattemptIntro}</p>
${errors}
<form method="post" action="${action}"><input type="hidden" name="csrf" value="${form.csrf}">
<fieldset><legend>${text.reattemptDate}</legend>${view.reattempt.dates.map(
    (day) =>
      html`<label class="choice"><input type="radio" name="reattempt_date" value="${day}" required${day === chosen ? new Html(' checked') : ''}>${dayName(day, view.language)}</label>`,
  )}</fieldset>
<label for="landmark">${text.landmark} <span class="muted">(${text.optional})</span></label><input type="text" id="landmark" name="landmark" maxlength="200" autocomplete="off" value="${form.values.landmark ?? ''}">
<label for="phone">${text.newPhone} <span class="muted">(${text.optional})</span></label><input type="tel" id="phone" name="phone" maxlength="20" autocomplete="tel" inputmode="tel" value="${form.values.phone ?? ''}">
<button type="submit">${text.reattemptSubmit}</button></form></section>`;
}

/** The customer's page for one shipment. */
export function trackingPage(
  view: TrackingView,
  paths: { self: string; action: string; refuse: string; returnForm: string; language: (other: Language) => string },
  form: FormState,
  /** A delivered shipment whose store takes return requests (or that has some): the way to the form. */
  returnForm = false,
): string {
  const text = PAGE_TEXT[view.language];
  const greeting = html`<p class="muted">${text.hello(view.customer.first_name)} · ${view.kind === 'return' ? RETURN_TEXT[view.language].pickupFrom(view.customer.city) : text.deliveringTo(view.customer.city)}</p>`;
  const body = html`${brandHeader(view.brand, text)}
${testNotice(view)}${statusSection(view, greeting)}
${reattemptForm(view, text, paths.action, form)}
${refuseForm(view, paths.refuse, form)}
${returnForm && html`<section><p><a class="return-form" href="${paths.returnForm}">${RETURN_FORM_WORDS[view.language].title}</a></p></section>`}
${timelineSection(view)}
${supportSection(view.support, text)}
<p class="muted">${text.sentBy(view.brand.name)}</p>`;
  const nav: LanguageNav = { hrefOf: paths.language, first: view.state_language };
  return layout(view.language, `${view.status_text} · ${view.brand.name}`, body, nav);
}

/** An unknown link: no brand (we do not know whose it would be), no hint of what exists. */
export function notFoundPage(language: Language): string {
  const text = PAGE_TEXT[language];
  return layout(
    language,
    text.notFoundTitle,
    html`<section><h1>${text.notFoundTitle}</h1><p>${text.notFoundDetail}</p></section>`,
    null,
  );
}
