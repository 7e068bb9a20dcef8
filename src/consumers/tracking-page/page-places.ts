import type { Language } from '../../domain/buyer-copy/page-words.js';

// The scan locations that are words rather than names: the sandbox courier's (couriers/sandbox-
// scenarios.ts), which every test booking shows. A courier's own locations are places (`Okhla Hub`,
// `Bengaluru_Koramangala_DC`) and are shown as the courier wrote them.

type Place = 'origin hub' | 'destination hub' | 'origin' | 'destination';

const PLACES: Record<Language, Record<Place, string>> = {
  en: {
    'origin hub': 'Origin hub',
    'destination hub': 'Destination hub',
    origin: 'Origin',
    destination: 'Destination',
  },
  hi: { 'origin hub': 'मूल हब', 'destination hub': 'गंतव्य हब', origin: 'मूल स्थान', destination: 'गंतव्य' },
  mr: { 'origin hub': 'मूळ हब', 'destination hub': 'गंतव्य हब', origin: 'मूळ ठिकाण', destination: 'गंतव्य' },
  bn: { 'origin hub': 'উৎস হাব', 'destination hub': 'গন্তব্য হাব', origin: 'উৎস', destination: 'গন্তব্য' },
  gu: { 'origin hub': 'મૂળ હબ', 'destination hub': 'ગંતવ્ય હબ', origin: 'મૂળ સ્થાન', destination: 'ગંતવ્ય' },
  ta: {
    'origin hub': 'தொடக்க மையம்',
    'destination hub': 'சேருமிட மையம்',
    origin: 'தொடக்க இடம்',
    destination: 'சேருமிடம்',
  },
  te: { 'origin hub': 'మూల హబ్', 'destination hub': 'గమ్యస్థాన హబ్', origin: 'మూల స్థానం', destination: 'గమ్యస్థానం' },
  kn: { 'origin hub': 'ಮೂಲ ಹಬ್', 'destination hub': 'ಗಮ್ಯಸ್ಥಾನ ಹಬ್', origin: 'ಮೂಲ ಸ್ಥಳ', destination: 'ಗಮ್ಯಸ್ಥಾನ' },
  ml: {
    'origin hub': 'ഉത്ഭവ ഹബ്',
    'destination hub': 'ലക്ഷ്യസ്ഥാന ഹബ്',
    origin: 'ഉത്ഭവ സ്ഥലം',
    destination: 'ലക്ഷ്യസ്ഥാനം',
  },
};

const isPlace = (key: string): key is Place => Object.hasOwn(PLACES.en, key);

/** A scan's location in the page's language: the known words translated (any case), any other name as written. */
export function placeName(location: string | null, language: Language): string | null {
  if (location === null) return null;
  const key = location.trim().toLowerCase().replace(/\s+/g, ' ');
  return isPlace(key) ? PLACES[language][key] : location;
}
