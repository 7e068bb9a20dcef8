import { describe, expect, it } from 'vitest';
import {
  browserLanguage,
  indiaDateTime,
  type LanguageSignals,
  type LanguageSource,
  languageMenu,
  pickLanguage,
} from './page-text.js';

// The buyers' pages' language (issue 46): the buyer's choice (?lang, then the one last picked),
// then the merchant's (order, else store), then the browser's among ours, then the shipping state's.

describe('pickLanguage', () => {
  const MAHARASHTRA = { state: 'Maharashtra' };
  const cases: [string, LanguageSignals, string, LanguageSource][] = [
    ['nothing at all', {}, 'en', 'default'],
    ['only the state', MAHARASHTRA, 'mr', 'state'],
    ['a state spelt oddly', { state: '  tamil   NADU ' }, 'ta', 'state'],
    ['a state we have no language for', { state: 'Goa' }, 'en', 'default'],
    ['a browser asking for en-IN, in Maharashtra', { ...MAHARASHTRA, acceptLanguage: 'en-IN' }, 'en', 'browser'],
    ['en-US then en', { ...MAHARASHTRA, acceptLanguage: 'en-US,en;q=0.9' }, 'en', 'browser'],
    ['a browser set to Tamil', { ...MAHARASHTRA, acceptLanguage: 'ta-IN,ta;q=0.9,en;q=0.8' }, 'ta', 'browser'],
    ['English weighted above Hindi', { ...MAHARASHTRA, acceptLanguage: 'hi;q=0.4, en-GB;q=0.6' }, 'en', 'browser'],
    ['Hindi weighted above English', { ...MAHARASHTRA, acceptLanguage: 'en-GB;q=0.5, hi;q=0.7' }, 'hi', 'browser'],
    ['equal weights: the first', { ...MAHARASHTRA, acceptLanguage: 'kn;q=0.5, te;q=0.5' }, 'kn', 'browser'],
    ['only languages we lack', { ...MAHARASHTRA, acceptLanguage: 'fr-FR,fr;q=0.9,de;q=0.5' }, 'mr', 'state'],
    ['French, then some English', { ...MAHARASHTRA, acceptLanguage: 'fr-FR, en;q=0.1' }, 'en', 'browser'],
    ['a wildcard says nothing', { ...MAHARASHTRA, acceptLanguage: '*' }, 'mr', 'state'],
    ['a language refused (q=0)', { ...MAHARASHTRA, acceptLanguage: 'hi;q=0' }, 'mr', 'state'],
    ['a malformed weight', { ...MAHARASHTRA, acceptLanguage: 'hi;q=abc' }, 'mr', 'state'],
    ['an empty header', { ...MAHARASHTRA, acceptLanguage: '' }, 'mr', 'state'],
    ['the merchant over the browser', { ...MAHARASHTRA, acceptLanguage: 'en-IN', merchant: 'hi' }, 'hi', 'merchant'],
    ['the merchant over the state', { ...MAHARASHTRA, merchant: 'en' }, 'en', 'merchant'],
    ['a merchant value we lack', { ...MAHARASHTRA, acceptLanguage: 'ta', merchant: 'fr' }, 'ta', 'browser'],
    ['no merchant language (null)', { ...MAHARASHTRA, merchant: null }, 'mr', 'state'],
    ['the last pick over the merchant', { ...MAHARASHTRA, merchant: 'hi', cookie: 'gu' }, 'gu', 'cookie'],
    ['a tampered cookie', { ...MAHARASHTRA, cookie: 'xx', acceptLanguage: 'bn' }, 'bn', 'browser'],
    [
      '?lang over everything',
      { ...MAHARASHTRA, merchant: 'hi', cookie: 'gu', acceptLanguage: 'ta', query: 'ml' },
      'ml',
      'query',
    ],
    ['?lang=en over a Marathi state', { ...MAHARASHTRA, query: 'en' }, 'en', 'query'],
    ['?lang we lack: the next that speaks', { ...MAHARASHTRA, query: 'fr', cookie: 'te' }, 'te', 'cookie'],
    ['?lang in capitals is not ours', { ...MAHARASHTRA, query: 'HI' }, 'mr', 'state'],
  ];
  it.each(cases)('%s', (_, signals, language, by) => {
    expect(pickLanguage(signals)).toEqual({ language, by });
  });
});

describe('browserLanguage', () => {
  it.each([
    ['en-IN', 'en'],
    ['mr-IN, mr;q=0.9', 'mr'],
    [' ML ', 'ml'],
    ['zh-Hant-TW, bn-BD;q=0.2', 'bn'],
    ['fr', null],
    [undefined, null],
  ] as const)('%s → %s', (header, language) => {
    expect(browserLanguage(header)).toBe(language);
  });
});

describe('languageMenu', () => {
  it("puts the shipping state's language first, then English, never the page's own", () => {
    expect(languageMenu('en', 'mr')).toEqual(['mr', 'hi', 'bn', 'gu', 'ta', 'te', 'kn', 'ml']);
    expect(languageMenu('hi', 'mr')).toEqual(['mr', 'en', 'bn', 'gu', 'ta', 'te', 'kn', 'ml']);
    expect(languageMenu('mr', 'mr')).toEqual(['en', 'hi', 'bn', 'gu', 'ta', 'te', 'kn', 'ml']);
    expect(languageMenu('ta', null)).toEqual(['en', 'hi', 'mr', 'bn', 'gu', 'te', 'kn', 'ml']);
  });
});

describe('indiaDateTime', () => {
  // 10:00Z is 3:30 in the afternoon in India; 16:00Z is 9:30 at night; 01:00Z is 6:30 in the morning.
  const afternoon = new Date('2026-11-20T10:00:00Z');
  it('says the time of day in the page language', () => {
    expect(indiaDateTime(afternoon, 'en')).toBe('20 Nov 2026, 3:30 pm');
    expect(indiaDateTime(afternoon, 'hi')).toBe('20 नव॰ 2026, दोपहर 3:30');
    expect(indiaDateTime(new Date('2026-11-20T16:00:00Z'), 'hi')).toBe('20 नव॰ 2026, रात 9:30');
    expect(indiaDateTime(new Date('2026-11-20T01:00:00Z'), 'mr')).toBe('२० नोव्हें, २०२६, सकाळ ६:३०');
    expect(indiaDateTime(afternoon, 'kn')).toBe('ನವೆಂ 20,2026, 3:30 ಮಧ್ಯಾಹ್ನ');
    expect(indiaDateTime(afternoon, 'ta')).toBe('20 நவ., 2026, பிற்பகல் 3:30');
    // No Latin AM/PM left in any Indian language.
    for (const language of ['hi', 'mr', 'bn', 'gu', 'ta', 'te', 'kn', 'ml'] as const)
      expect(indiaDateTime(afternoon, language), language).not.toMatch(/[AaPp]\.?[Mm]\.?/);
  });
});
