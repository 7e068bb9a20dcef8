import { BN, GU } from './page-text-bn-gu.js';
import { EN, HI, MR } from './page-text-en-hi-mr.js';
import { KN, ML, TA, TE } from './page-text-south.js';
import { LANGUAGES, type Language, type PageText } from './page-words.js';

export { LANGUAGES, type Language, type PageText };

export const PAGE_TEXT: Record<Language, PageText> = {
  en: EN,
  hi: HI,
  mr: MR,
  bn: BN,
  gu: GU,
  ta: TA,
  te: TE,
  kn: KN,
  ml: ML,
};

/** The script each language is written in, which decides the font its page loads (none for English). */
export const SCRIPT_OF: Record<
  Language,
  'Latin' | 'Devanagari' | 'Bengali' | 'Gujarati' | 'Tamil' | 'Telugu' | 'Kannada' | 'Malayalam'
> = {
  en: 'Latin',
  hi: 'Devanagari',
  mr: 'Devanagari',
  bn: 'Bengali',
  gu: 'Gujarati',
  ta: 'Tamil',
  te: 'Telugu',
  kn: 'Kannada',
  ml: 'Malayalam',
};

// The language most customers of a state read, where we have it; a state not listed (or spelt in
// a way we do not know) says nothing, and the page is in English.
const STATE_LANGUAGES: Record<string, Language> = {
  'uttar pradesh': 'hi',
  bihar: 'hi',
  'madhya pradesh': 'hi',
  rajasthan: 'hi',
  haryana: 'hi',
  'himachal pradesh': 'hi',
  uttarakhand: 'hi',
  jharkhand: 'hi',
  chhattisgarh: 'hi',
  delhi: 'hi',
  'nct of delhi': 'hi',
  chandigarh: 'hi',
  maharashtra: 'mr',
  'west bengal': 'bn',
  tripura: 'bn',
  gujarat: 'gu',
  'tamil nadu': 'ta',
  puducherry: 'ta',
  'andhra pradesh': 'te',
  telangana: 'te',
  karnataka: 'kn',
  kerala: 'ml',
  lakshadweep: 'ml',
};

/** The language of a shipping state (`Tamil Nadu`, `tamil nadu`, `Tamil  Nadu`), or null. */
export function languageOfState(state: string | null | undefined): Language | null {
  return STATE_LANGUAGES[(state ?? '').trim().toLowerCase().replace(/\s+/g, ' ')] ?? null;
}

export const isLanguage = (value: string | null | undefined): value is Language =>
  (LANGUAGES as readonly string[]).includes(value ?? '');

/** What may say which language a buyer reads, strongest first (docs/api-behaviour.md, "Customers' tracking page"). */
export interface LanguageSignals {
  /** `?lang` on this request: the buyer's choice now. */
  query?: string | undefined;
  /** The language the buyer last picked on a page (the `dakiya_lang` cookie). */
  cookie?: string | undefined;
  /** The language the merchant set on the order, else on the store. */
  merchant?: string | null | undefined;
  /** The browser's Accept-Language header. */
  acceptLanguage?: string | undefined;
  /** The shipping (for a return, pickup) state. */
  state?: string | null | undefined;
}

export type LanguageSource = 'query' | 'cookie' | 'merchant' | 'browser' | 'state' | 'default';

/**
 * The language the browser ranks highest among ours, English included (q-values honoured, the
 * earlier of equals), or null when it names none of them: `en-IN` is English, `fr-FR` says nothing.
 */
export function browserLanguage(acceptLanguage: string | undefined): Language | null {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { language: tag.trim().split('-')[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0 && isLanguage(entry.language))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return (ranked[0]?.language as Language | undefined) ?? null;
}

/**
 * The page's language, and what decided it. The buyer's explicit choice wins: `?lang`, then the
 * language they last picked on a page. Then the merchant's, set on the order or the store. Then the
 * browser's, among the languages we have (English included: a phone asking for en-IN reads English).
 * Only when none of these says anything, the shipping state's language, and then English.
 */
export function pickLanguage(signals: LanguageSignals): { language: Language; by: LanguageSource } {
  if (isLanguage(signals.query)) return { language: signals.query, by: 'query' };
  if (isLanguage(signals.cookie)) return { language: signals.cookie, by: 'cookie' };
  if (isLanguage(signals.merchant)) return { language: signals.merchant, by: 'merchant' };
  const browser = browserLanguage(signals.acceptLanguage);
  if (browser) return { language: browser, by: 'browser' };
  const state = languageOfState(signals.state);
  if (state) return { language: state, by: 'state' };
  return { language: 'en', by: 'default' };
}

export const chooseLanguage = (signals: LanguageSignals): Language => pickLanguage(signals).language;

/**
 * The order of a page's language links: the shipping state's language first (always one tap away,
 * at the top), then English, then the rest; never the page's own.
 */
export function languageMenu(current: Language, stateLanguage: Language | null): Language[] {
  const first = [stateLanguage, 'en' as const].filter((l): l is Language => l !== null);
  return [...new Set([...first, ...LANGUAGES])].filter((l) => l !== current);
}

const INDIA = 'Asia/Kolkata';

/**
 * One formatter per language and form, made on first use: making an Intl.DateTimeFormat costs a
 * hundred times what formatting with one does, and a kept e-mail names a day (issue 27).
 */
function formatterOf(form: 'dateTime' | 'day', language: Language): Intl.DateTimeFormat {
  const key = `${form}:${language}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(PAGE_TEXT[language].locale, FORMS[form](language));
    formatters.set(key, formatter);
  }
  return formatter;
}
const FORMS: Record<'dateTime' | 'day', (language: Language) => Intl.DateTimeFormatOptions> = {
  // English keeps `3:30 pm`; the Indian languages say the time of day in their own words (`दोपहर
  // 3:30`, `ಮಧ್ಯಾಹ್ನ 3:30`), where their short forms would otherwise end in a Latin `PM`.
  dateTime: (language) =>
    language === 'en'
      ? { timeZone: INDIA, dateStyle: 'medium', timeStyle: 'short' }
      : {
          timeZone: INDIA,
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          dayPeriod: 'short',
        },
  day: () => ({ timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }),
};
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `20 Nov 2026, 3:30 pm` (in Hindi `20 नव॰ 2026, दोपहर 3:30`), India time. */
export function indiaDateTime(at: Date, language: Language): string {
  return formatterOf('dateTime', language).format(at);
}

/** A calendar day (YYYY-MM-DD, already an India date): `Wednesday, 25 November`. */
export function dayName(day: string, language: Language): string {
  return formatterOf('day', language).format(new Date(`${day}T00:00:00Z`));
}

/** The first word of the name: a customer's page is public to anyone holding the link, so no more than that. */
export const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? '';
