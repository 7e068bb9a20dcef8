import type { ShipmentStatus } from './status-machine.js';

/** The languages of the customer's page and e-mails; English first (the default). */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

interface StatusWords {
  /** The headline: what is happening, in plain words. */
  title: string;
  /** One sentence more, for the customer. */
  detail: string;
}

export interface PageText {
  locale: string;
  languageName: string;
  statuses: Record<ShipmentStatus, StatusWords>;
  orderPlaced: string;
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
  reattemptDate: string;
  landmark: string;
  newPhone: string;
  optional: string;
  reattemptSubmit: string;
  reattemptRequested: (day: string) => string;
  reattemptRequestedAnyDay: string;
  otherLanguage: string;
  poweredBy: string;
}

const EN: PageText = {
  locale: 'en-IN',
  languageName: 'English',
  statuses: {
    pending: { title: 'Order confirmed', detail: 'Your order is being packed and will be handed to the courier soon.' },
    in_transit: { title: 'On its way', detail: 'Your parcel is travelling to your city.' },
    out_for_delivery: { title: 'Out for delivery', detail: 'The delivery agent will bring your parcel today.' },
    delivered: { title: 'Delivered', detail: 'Your parcel has been delivered. Enjoy!' },
    ndr_raised: { title: 'Delivery attempt failed', detail: 'The courier could not deliver your parcel. You can ask for another attempt below.' },
    rto_initiated: { title: 'Returning to the seller', detail: 'The parcel could not be delivered and is going back to the seller.' },
    rto_in_transit: { title: 'Returning to the seller', detail: 'The parcel could not be delivered and is on its way back to the seller.' },
    rto_delivered: { title: 'Returned to the seller', detail: 'The parcel has reached the seller again.' },
    cancelled: { title: 'Cancelled', detail: 'This shipment was cancelled and will not be delivered.' },
    others: { title: 'Delayed', detail: 'There is a problem with this parcel. The seller has been told and will contact you.' },
  },
  orderPlaced: 'Order placed',
  shipped: 'Handed to the courier',
  hello: (name) => `Hello ${name}`,
  deliveringTo: (city) => `Delivering to ${city}`,
  expectedDelivery: 'Expected delivery',
  deliveredOn: 'Delivered on',
  courier: 'Courier',
  trackingNumber: 'Tracking number (AWB)',
  timeline: 'Journey',
  noScans: 'No updates from the courier yet.',
  help: 'Need help?',
  email: 'E-mail',
  phone: 'Phone',
  sentBy: (brand) => `Shipped by ${brand}`,
  logoAlt: (brand) => `${brand} logo`,
  notFoundTitle: 'Tracking link not found',
  notFoundDetail: 'Check that the link is complete, or ask the seller for a new one.',
  reattemptTitle: 'Ask for another delivery attempt',
  reattemptIntro: 'Choose a day and, if it helps the courier, add a landmark or another phone number.',
  reattemptDate: 'Delivery day',
  landmark: 'Landmark',
  newPhone: 'Phone number for the courier',
  optional: 'optional',
  reattemptSubmit: 'Request delivery',
  reattemptRequested: (day) => `Another attempt is requested for ${day}.`,
  reattemptRequestedAnyDay: 'Another attempt is requested.',
  otherLanguage: 'हिन्दी में देखें',
  poweredBy: 'Tracking by Dakiya',
};

const HI: PageText = {
  locale: 'hi-IN',
  languageName: 'हिन्दी',
  statuses: {
    pending: { title: 'ऑर्डर की पुष्टि हो गई', detail: 'आपका ऑर्डर पैक हो रहा है और जल्द ही कूरियर को सौंपा जाएगा।' },
    in_transit: { title: 'रास्ते में है', detail: 'आपका पार्सल आपके शहर की ओर आ रहा है।' },
    out_for_delivery: { title: 'डिलीवरी के लिए निकला', detail: 'डिलीवरी एजेंट आज आपका पार्सल लाएगा।' },
    delivered: { title: 'डिलीवर हो गया', detail: 'आपका पार्सल डिलीवर हो गया है।' },
    ndr_raised: { title: 'डिलीवरी नहीं हो सकी', detail: 'कूरियर आपका पार्सल डिलीवर नहीं कर सका। नीचे दोबारा डिलीवरी का अनुरोध करें।' },
    rto_initiated: { title: 'विक्रेता को वापस जा रहा है', detail: 'पार्सल डिलीवर नहीं हो सका और विक्रेता को वापस भेजा जा रहा है।' },
    rto_in_transit: { title: 'विक्रेता को वापस जा रहा है', detail: 'पार्सल डिलीवर नहीं हो सका और विक्रेता के पास लौट रहा है।' },
    rto_delivered: { title: 'विक्रेता को लौटा दिया गया', detail: 'पार्सल विक्रेता के पास वापस पहुँच गया है।' },
    cancelled: { title: 'रद्द कर दिया गया', detail: 'यह शिपमेंट रद्द हो गया है और डिलीवर नहीं होगा।' },
    others: { title: 'देरी हो रही है', detail: 'इस पार्सल में कोई समस्या है। विक्रेता को सूचना दे दी गई है, वे आपसे संपर्क करेंगे।' },
  },
  orderPlaced: 'ऑर्डर दिया गया',
  shipped: 'कूरियर को सौंपा गया',
  hello: (name) => `नमस्ते ${name}`,
  deliveringTo: (city) => `डिलीवरी: ${city}`,
  expectedDelivery: 'अनुमानित डिलीवरी',
  deliveredOn: 'डिलीवरी की तारीख',
  courier: 'कूरियर',
  trackingNumber: 'ट्रैकिंग नंबर (AWB)',
  timeline: 'पार्सल का सफ़र',
  noScans: 'कूरियर से अभी कोई अपडेट नहीं आया है।',
  help: 'मदद चाहिए?',
  email: 'ई-मेल',
  phone: 'फ़ोन',
  sentBy: (brand) => `${brand} द्वारा भेजा गया`,
  logoAlt: (brand) => `${brand} का लोगो`,
  notFoundTitle: 'ट्रैकिंग लिंक नहीं मिला',
  notFoundDetail: 'देखें कि लिंक पूरा है, या विक्रेता से नया लिंक माँगें।',
  reattemptTitle: 'दोबारा डिलीवरी का अनुरोध करें',
  reattemptIntro: 'एक दिन चुनें और चाहें तो कूरियर के लिए कोई लैंडमार्क या दूसरा फ़ोन नंबर जोड़ें।',
  reattemptDate: 'डिलीवरी का दिन',
  landmark: 'लैंडमार्क',
  newPhone: 'कूरियर के लिए फ़ोन नंबर',
  optional: 'वैकल्पिक',
  reattemptSubmit: 'डिलीवरी का अनुरोध भेजें',
  reattemptRequested: (day) => `${day} को दोबारा डिलीवरी का अनुरोध दर्ज है।`,
  reattemptRequestedAnyDay: 'दोबारा डिलीवरी का अनुरोध दर्ज है।',
  otherLanguage: 'View in English',
  poweredBy: 'Dakiya द्वारा ट्रैकिंग',
};

export const PAGE_TEXT: Record<Language, PageText> = { en: EN, hi: HI };

/**
 * The page's language: `?lang=` when it names one we have, else the first of ours the browser's
 * Accept-Language ranks highest (q-values honoured, `hi-IN` counts as `hi`), else English.
 */
export function chooseLanguage(query: string | undefined, acceptLanguage: string | undefined): Language {
  if (query === 'en' || query === 'hi') return query;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { language: tag.split('-')[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.weight > 0 && (entry.language === 'en' || entry.language === 'hi'))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return (ranked[0]?.language as Language | undefined) ?? 'en';
}

const INDIA = 'Asia/Kolkata';

/** `20 Nov 2026, 3:30 pm` (or its Hindi form), India time. */
export function indiaDateTime(at: Date, language: Language): string {
  return new Intl.DateTimeFormat(PAGE_TEXT[language].locale, { timeZone: INDIA, dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/** A calendar day (YYYY-MM-DD, already an India date): `Wednesday, 25 November`. */
export function dayName(day: string, language: Language): string {
  return new Intl.DateTimeFormat(PAGE_TEXT[language].locale, { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}
