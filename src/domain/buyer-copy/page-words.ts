import type { ShipmentStatus } from '../shipment/status-machine.js';

/** The languages of the customer's page, English first (the default). */
export const LANGUAGES = ['en', 'hi', 'mr', 'bn', 'gu', 'ta', 'te', 'kn', 'ml'] as const;
export type Language = (typeof LANGUAGES)[number];

interface StatusWords {
  /** The headline: what is happening, in plain words. */
  title: string;
  /** One sentence more, for the customer. */
  detail: string;
}

/** Every string of the customer's page, in one language. */
export interface PageText {
  locale: string;
  /** The language's own name for itself, in its script. */
  languageName: string;
  /** The same name in English, beside it in the language list for a reader whose device lacks the script. */
  englishName: string;
  languageLabel: string;
  statuses: Record<ShipmentStatus, StatusWords>;
  orderPlaced: string;
  /** The booking milestone: a courier and AWB assigned, not yet a pickup. */
  shipped: string;
  hello: (firstName: string) => string;
  deliveringTo: (city: string) => string;
  expectedDelivery: string;
  deliveredOn: string;
  courier: string;
  trackingNumber: string;
  timeline: string;
  noScans: string;
  help: string;
  email: string;
  phone: string;
  sentBy: (brand: string) => string;
  logoAlt: (brand: string) => string;
  notFoundTitle: string;
  notFoundDetail: string;
  reattemptTitle: string;
  reattemptIntro: string;
  /** After the failed-delivery detail, only while the page offers the form. */
  reattemptOffer: string;
  reattemptDate: string;
  landmark: string;
  newPhone: string;
  optional: string;
  reattemptSubmit: string;
  reattemptRequested: (day: string) => string;
  reattemptRequestedAnyDay: string;
  formExpired: string;
  poweredBy: string;
}
