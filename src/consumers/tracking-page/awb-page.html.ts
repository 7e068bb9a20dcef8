import { html } from '../../http/html.js';
import { type Language, PAGE_TEXT } from '../../domain/buyer-copy/page-text.js';
import {
  brandHeader,
  type LanguageNav,
  layout,
  statusSection,
  supportSection,
  testNotice,
  timelineSection,
} from './page-layout.html.js';
import { formParts, langField, type StorePageState } from './store-page.html.js';
import type { PublicStatus } from './tracking-page.service.js';

// An AWB's page on the store's page (/track/<store id>?awb=…): what anyone holding the AWB may
// read, the status and the journey, and one form: the order's phone number, which opens the
// buyer's own page, where the failed delivery can be answered. Nothing here names the buyer or
// carries the link's token.

export function awbPage(
  view: PublicStatus,
  awb: string,
  paths: { action: string; store: string; nav: LanguageNav; lang: Language | null },
  form: StorePageState,
): string {
  const text = PAGE_TEXT[view.language];
  const { t, summary, input } = formParts(view.language, form);
  const body = html`${brandHeader(view.brand, text)}
${testNotice(view)}${statusSection(view, false)}
<section aria-labelledby="manage"><h2 id="manage">${t.manageTitle}</h2><p>${t.manageIntro}</p>${summary}<form method="get" action="${paths.action}" aria-labelledby="manage" novalidate>${langField(paths.lang)}<input type="hidden" name="awb" value="${awb}">${input('phone')}<button type="submit">${t.manageSubmit}</button></form></section>
${timelineSection(view)}
${supportSection(view.support, text)}
<p><a href="${paths.store}">${t.another}</a></p>`;
  return layout(view.language, `${view.status_text} · ${view.brand.name}`, body, paths.nav);
}
