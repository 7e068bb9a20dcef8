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
// a way we do not know) falls to the browser's language or English.
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

const isLanguage = (value: string | undefined): value is Language =>
  (LANGUAGES as readonly string[]).includes(value ?? '');

/**
 * The page's language. `?lang=` naming one of ours wins. Then the browser's Accept-Language, when
 * the language it ranks highest among ours is an Indian one: a phone set to Tamil is a clear
 * choice. Then the shipping state's language, since most phones in India are left in English,
 * which says little. Then English (also when the browser asks for it and the state has no language).
 */
export function chooseLanguage(
  query: string | undefined,
  acceptLanguage: string | undefined,
  state?: string | null,
): Language {
  if (isLanguage(query)) return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { language: tag.split('-')[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0 && isLanguage(entry.language))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const browser = ranked[0]?.language as Language | undefined;
  if (browser && browser !== 'en') return browser;
  return languageOfState(state) ?? 'en';
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
    const options: Intl.DateTimeFormatOptions =
      form === 'dateTime'
        ? { timeZone: INDIA, dateStyle: 'medium', timeStyle: 'short' }
        : { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' };
    formatter = new Intl.DateTimeFormat(PAGE_TEXT[language].locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}
const formatters = new Map<string, Intl.DateTimeFormat>();

/** `20 Nov 2026, 3:30 pm` (or its Hindi form), India time. */
export function indiaDateTime(at: Date, language: Language): string {
  return formatterOf('dateTime', language).format(at);
}

/** A calendar day (YYYY-MM-DD, already an India date): `Wednesday, 25 November`. */
export function dayName(day: string, language: Language): string {
  return formatterOf('day', language).format(new Date(`${day}T00:00:00Z`));
}

/** The first word of the name: a customer's page is public to anyone holding the link, so no more than that. */
export const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? '';
