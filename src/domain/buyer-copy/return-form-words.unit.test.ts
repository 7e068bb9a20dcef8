import { describe, expect, it } from 'vitest';
import { type Language, LANGUAGES } from './page-words.js';
import { RETURN_FORM_WORDS, type ReturnFormWords } from './return-form-words.js';

// Every word of the form, said with sample arguments, and the arguments each must show.
interface Said {
  key: string;
  text: string;
  shows: string[];
}

const BRAND = 'Acme Wear';
const LAST_DAY = '3 December 2026';
const ITEM = 'Cotton Kurta';
const LABEL = 'Pin Label';
const DAY = '27 November';
const UPI = 'as****@okaxis';
const BANK = 'HDFC Bank';
const ACCOUNT = 'XXXXXXXX4521';

function everything(w: ReturnFormWords): Said[] {
  const plain = (key: string, text: string): Said => ({ key, text, shows: [] });
  return [
    plain('title', w.title),
    { key: 'intro', text: w.intro(BRAND, LAST_DAY), shows: [BRAND, LAST_DAY] },
    plain('itemsLegend', w.itemsLegend),
    { key: 'howMany', text: w.howMany(ITEM), shows: [ITEM] },
    plain('none', w.none),
    plain('reason', w.reason),
    plain('chooseReason', w.chooseReason),
    plain('comment', w.comment),
    plain('optional', w.optional),
    plain('wantLegend', w.wantLegend),
    plain('refund', w.refund),
    plain('exchange', w.exchange),
    plain('exchangeFor', w.exchangeFor),
    { key: 'photos', text: w.photos(4, 6), shows: ['4', '6'] },
    plain('refundLegend', w.refundLegend),
    plain('refundOnly', w.refundOnly),
    ...Object.entries(w.refundMethods).map(([method, text]) => plain(`refundMethods.${method}`, text)),
    ...Object.entries(w.refundLabels).map(([field, text]) => plain(`refundLabels.${field}`, text)),
    plain('accountsDiffer', w.accountsDiffer),
    plain('pickupLegend', w.pickupLegend),
    ...Object.entries(w.pickupLabels).map(([field, text]) => plain(`pickupLabels.${field}`, text)),
    plain('send', w.send),
    plain('sent', w.sent),
    plain('expired', w.expired),
    plain('fix', w.fix),
    ...Object.entries(w.photoProblems).map(([problem, said]) => ({
      key: `photoProblems.${problem}`,
      text: said(2, 6),
      shows: problem === 'photo_too_big' ? ['2', '6'] : ['2'],
    })),
    ...Object.entries(w.pickupProblems).map(([problem, said]) => ({
      key: `pickupProblems.${problem}`,
      text: said(LABEL),
      shows: [LABEL],
    })),
    plain('yourRequests', w.yourRequests),
    ...Object.entries(w.states).map(([state, text]) => plain(`states.${state}`, text)),
    { key: 'askedOn', text: w.askedOn(DAY), shows: [DAY] },
    plain('storeSays', w.storeSays),
    plain('wants.refund', w.wants.refund),
    { key: 'wants.exchange(XL)', text: w.wants.exchange('XL'), shows: ['XL'] },
    plain('wants.exchange(null)', w.wants.exchange(null)),
    plain('refundTo.original', w.refundTo.original),
    plain('refundTo.store_credit', w.refundTo.store_credit),
    { key: 'refundTo.upi', text: w.refundTo.upi(UPI), shows: [UPI] },
    { key: 'refundTo.bank_transfer', text: w.refundTo.bank_transfer(BANK, ACCOUNT), shows: [BANK, ACCOUNT] },
    plain('backToTracking', w.backToTracking),
  ];
}

/** One letter of each language's own script, which its every string has. */
const SCRIPT: Record<Exclude<Language, 'en'>, RegExp> = {
  hi: /[\u0900-\u097F]/,
  mr: /[\u0900-\u097F]/,
  bn: /[\u0980-\u09FF]/,
  gu: /[\u0A80-\u0AFF]/,
  ta: /[\u0B80-\u0BFF]/,
  te: /[\u0C00-\u0C7F]/,
  kn: /[\u0C80-\u0CFF]/,
  ml: /[\u0D00-\u0D7F]/,
};

/** The Latin words a translation keeps as they are. */
const KEPT = /\b(JPEG|PNG|WebP|GIF|MB|UPI|IFSC)\b|name@okaxis/g;

describe("the buyer's return form, in English", () => {
  const en = RETURN_FORM_WORDS.en;
  const english: [string, string, string][] = [
    ['title', en.title, 'Return or exchange items'],
    [
      'intro',
      en.intro(BRAND, LAST_DAY),
      'Tell Acme Wear what you would like to send back and why. You can ask until 3 December 2026.',
    ],
    ['howMany', en.howMany(ITEM), 'How many of Cotton Kurta'],
    ['photos', en.photos(5, 6), 'Photos of the items (up to 5, each up to 6 MB)'],
    ['photo_too_big', en.photoProblems.photo_too_big(2, 6), 'Photo 2: please choose a picture of at most 6 MB'],
    ['not_a_pincode', en.pickupProblems.not_a_pincode('Pincode'), 'Pincode: a pincode is 6 digits'],
    ['approved', en.states.approved, 'Approved: a courier will come to collect the items'],
    ['askedOn', en.askedOn(DAY), 'Asked on 27 November'],
    ['exchange for a size', en.wants.exchange('XL'), 'Exchange for XL'],
    ['exchange', en.wants.exchange(null), 'Exchange'],
    ['refund to UPI', en.refundTo.upi(UPI), 'Refund to UPI as****@okaxis'],
    ['refund to a bank', en.refundTo.bank_transfer(BANK, ACCOUNT), 'Refund to HDFC Bank account XXXXXXXX4521'],
  ];
  it.each(english)('%s', (_name, text, expected) => {
    expect(text).toBe(expected);
  });
});

describe("the buyer's return form, in every language of the buyer pages", () => {
  it('has every language of the buyer pages', () => {
    expect(Object.keys(RETURN_FORM_WORDS)).toEqual([...LANGUAGES]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en') as Exclude<Language, 'en'>[])(
    '%s: every string translated, in its own script, with every argument it is given',
    (language) => {
      const english = everything(RETURN_FORM_WORDS.en);
      const said = everything(RETURN_FORM_WORDS[language]);
      expect(said.map((s) => s.key)).toEqual(english.map((s) => s.key));
      for (const [i, { key, text, shows }] of said.entries()) {
        const where = `${language} ${key}: ${text}`;
        expect(text.trim(), where).not.toBe('');
        expect(text, where).not.toBe(english[i]!.text);
        for (const argument of shows) expect(text, where).toContain(argument);
        let rest = text;
        for (const argument of shows) rest = rest.replaceAll(argument, '');
        // No English left over, but the arguments and the file types and "MB" kept as they are.
        expect(rest.replace(KEPT, ''), where).not.toMatch(/[A-Za-z]/);
        expect(rest, where).toMatch(SCRIPT[language]);
        // Digits stay Western.
        expect(text, where).not.toMatch(/(?![0-9])\p{Nd}/u);
      }
      expect(said.find((s) => s.key === 'photoProblems.photo_type')!.text).toContain('JPEG, PNG, WebP');
    },
  );
});
