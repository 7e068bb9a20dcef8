import { Html, html } from '../../http/html.js';
import { dayName, type Language, languageMenu, PAGE_TEXT, type PageText } from '../../domain/buyer-copy/page-text.js';
import { pageFontFaces, pageFontFamily } from './page-fonts.js';
import type { PublicStatus } from './tracking-page.service.js';

// What the buyers' pages share: the frame (fonts, style, the language links at the top) and the
// parts that show a shipment's state, which the shipment's own page and the public page of an
// AWB on the store's page both draw. Server-rendered, no script: the pages work in any browser,
// with JavaScript off, on a slow phone.

// Phones first: one column from 320 px, each label above its value, so a value has the whole
// line and wraps only between words (a word wider than the line, never an AWB or a date, is the
// one thing broken). From 30rem the details sit in two columns. System fonts for Latin; the page's
// own script from the served Noto font (page-fonts.ts). Contrast above WCAG AA: body #1f2933 on
// white is 14.7:1, muted #52606d is 6.6:1, the status colours at least 4.9:1.
const FONTS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif';
const STYLE = `
*{box-sizing:border-box}body{margin:0;font-size:16px;line-height:1.5;color:#1f2933;background:#f5f7fa;overflow-wrap:break-word}
main{max-width:40rem;margin:0 auto;padding:1rem}header{display:flex;align-items:center;gap:.75rem;padding:.5rem 0 1rem}
header img{max-height:48px;max-width:120px;object-fit:contain}h1{font-size:1.25rem;margin:0}h2{font-size:1.1rem;margin:0 0 .5rem}
section{background:#fff;border-radius:.75rem;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.status{font-size:1.5rem;margin:.25rem 0}.muted{color:#52606d}.ok{color:#1e6b34}.warn{color:#9a3412}.bad{color:#b91c1c}
dl{margin:0}dt{color:#52606d;font-size:.875rem}dd{margin:0 0 .5rem}
ol{list-style:none;margin:0;padding:0}li{border-left:3px solid #cbd2d9;padding:0 0 .75rem .75rem}li:first-child{border-color:#1f2933}
li strong{display:block}fieldset{border:0;padding:0;margin:0 0 1rem}legend,label{font-weight:600}
input[type=text],input[type=tel],select,textarea{width:100%;font:inherit;padding:.6rem;border:1px solid #7b8794;border-radius:.5rem;margin:.25rem 0 1rem;background:#fff}
input[type=file]{width:100%;font:inherit;margin:.25rem 0 1rem}
.choice{display:block;padding:.5rem 0;font-weight:400}.choice input{margin-right:.5rem;width:1.1rem;height:1.1rem}
button{font:inherit;font-weight:600;color:#fff;background:#1f4e8c;border:0;border-radius:.5rem;padding:.75rem 1.25rem;width:100%}
.error{color:#b91c1c;font-weight:600}a{color:#1f4e8c}footer{text-align:center;font-size:.875rem;color:#52606d;padding:1rem 0}
nav{font-size:.875rem;display:flex;flex-wrap:wrap;gap:.25rem .75rem}nav a{white-space:nowrap}
@media (min-width:30rem){dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dd{margin:0}}
@media (min-width:48rem){main{padding:2rem}}`;

/** The language links at the top of a page: where each goes, and which comes first (the shipping state's). */
export interface LanguageNav {
  hrefOf: (other: Language) => string;
  first: Language | null;
}

/** Links to the page in each other language, each name in its own script (and in English beside it). */
function languageLinks(language: Language, nav: LanguageNav): Html {
  const text = PAGE_TEXT[language];
  return html`<nav aria-label="${text.languageLabel}">${languageMenu(language, nav.first).map((other) => {
    const { languageName, englishName } = PAGE_TEXT[other];
    return html`<a href="${nav.hrefOf(other)}" hreflang="${other}" lang="${other}">${languageName}${other !== 'en' && html` <span lang="en">(${englishName})</span>`}</a>`;
  })}</nav>`;
}

export function layout(language: Language, title: string, body: Html, nav: LanguageNav | null): string {
  const text = PAGE_TEXT[language];
  const family = pageFontFamily(language);
  const style = `${pageFontFaces(language)}body{font-family:${family ? `"${family}",` : ''}${FONTS}}${STYLE}`;
  return `<!doctype html>${html`<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title><style>${new Html(style)}</style></head><body><main>${nav && languageLinks(language, nav)}${body}<footer><p>${text.poweredBy}</p></footer></main></body></html>`}`;
}

const STATUS_TONE: Record<string, string> = {
  delivered: 'ok',
  ndr_raised: 'warn',
  cancelled: 'bad',
  others: 'warn',
  rto_initiated: 'warn',
  rto_in_transit: 'warn',
  rto_delivered: 'bad',
  return_delivered: 'ok',
  return_cancelled: 'bad',
  return_lost: 'bad',
};

/** The brand's logo and name: the page's heading. */
export function brandHeader(brand: PublicStatus['brand'], text: PageText): Html {
  return html`<header>${brand.logo_path && html`<img src="${brand.logo_path}" alt="${text.logoAlt(brand.name)}">`}<h1>${brand.name}</h1></header>`;
}

/** What the page says of a test booking, in its language (English where it has no words yet). */
const TEST_NOTICE: Partial<Record<Language, string>> = {
  en: 'Test booking: this shipment was booked on a test courier connection. No courier will collect or deliver it.',
  hi: 'परीक्षण बुकिंग: यह शिपमेंट परीक्षण कूरियर कनेक्शन पर बुक हुआ है। कोई कूरियर इसे न उठाएगा, न पहुँचाएगा।',
};

export function testNotice(view: Pick<PublicStatus, 'test_mode' | 'language'>): Html | false {
  if (!view.test_mode) return false;
  const words = TEST_NOTICE[view.language] ?? TEST_NOTICE.en!;
  return html`<p class="test-notice" role="note" style="background:#fff4d6;border:2px solid #9a3412;border-radius:.5rem;padding:.75rem;margin:0 0 1rem;font-weight:600;color:#7c2d12">${words}</p>`;
}

/** The status headline and its sentence, with `before` above them (the greeting on the buyer's own page). */
export function statusSection(view: PublicStatus, before: Html | false): Html {
  const text = PAGE_TEXT[view.language];
  const tone = STATUS_TONE[view.status] ?? '';
  const { courier } = view;
  const promised =
    view.delivered_at !== null
      ? html`<dt>${text.deliveredOn}</dt><dd>${new Intl.DateTimeFormat(text.locale, { timeZone: 'Asia/Kolkata', dateStyle: 'long' }).format(new Date(view.delivered_at))}</dd>`
      : view.promised_delivery_date
        ? html`<dt>${text.expectedDelivery}</dt><dd>${dayName(view.promised_delivery_date, view.language)}</dd>`
        : false;
  return html`<section aria-labelledby="status">${before}
<h2 id="status" class="status ${tone}">${view.status_text}</h2><p>${view.status_detail}</p>
<dl>${promised}${courier && html`<dt>${text.courier}</dt><dd>${courier.name}</dd><dt>${text.trackingNumber}</dt><dd class="awb" translate="no">${courier.awb}</dd>`}</dl></section>`;
}

/** The journey, newest first, each step's time and place in the page's language. */
export function timelineSection(view: PublicStatus): Html {
  const text = PAGE_TEXT[view.language];
  return html`<section aria-labelledby="timeline"><h2 id="timeline">${text.timeline}</h2>${
    view.timeline.length === 0
      ? html`<p class="muted">${text.noScans}</p>`
      : html`<ol>${view.timeline.map(
          (item) =>
            html`<li><strong>${item.text}</strong><span class="muted"><time datetime="${item.at}">${item.at_india}</time>${item.location && html` · ${item.location}`}</span></li>`,
        )}</ol>`
  }</section>`;
}

/** The store's support contact, when it set one. */
export function supportSection(support: PublicStatus['support'], text: PageText): Html | false {
  if (!support.email && !support.phone) return false;
  return html`<section aria-labelledby="help"><h2 id="help">${text.help}</h2><dl>${support.email && html`<dt>${text.email}</dt><dd><a href="mailto:${support.email}">${support.email}</a></dd>`}${support.phone && html`<dt>${text.phone}</dt><dd><a href="tel:${support.phone.replace(/[^+\d]/g, '')}">${support.phone}</a></dd>`}</dl></section>`;
}
