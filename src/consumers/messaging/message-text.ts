import type { AddressUpdateVariables, MessageLanguage, MessageVariables, NdrVariables } from './channel.js';

/** The confirmation in words, for e-mail and the answer page; WhatsApp and SMS use the merchant's approved templates. */
const TEXT: Record<
  MessageLanguage,
  {
    subject: (v: MessageVariables) => string;
    body: (v: MessageVariables) => string[];
    confirm: string;
    cancel: string;
    pay: string;
    thanks: Record<'confirmed' | 'cancelled', string>;
    closed: string;
    question: (v: MessageVariables) => string;
  }
> = {
  en: {
    subject: (v) => `${v.brand}: please confirm your order ${v.order_id}`,
    body: (v) => [
      `Your ${v.brand} order ${v.order_id} is cash on delivery: ₹${v.amount} to pay when it arrives.`,
      'Please confirm it so we can ship it, or cancel it if you did not mean to order.',
    ],
    question: (v) => `Confirm your ${v.brand} order ${v.order_id} (₹${v.amount}, cash on delivery)?`,
    confirm: 'Confirm order',
    cancel: 'Cancel order',
    pay: 'Pay online now instead',
    thanks: {
      confirmed: 'Thank you: your order is confirmed and will be shipped.',
      cancelled: 'Your order is cancelled. Nothing will be delivered.',
    },
    closed: 'This order can no longer be confirmed or cancelled here.',
  },
  hi: {
    subject: (v) => `${v.brand}: कृपया अपना ऑर्डर ${v.order_id} कन्फ़र्म करें`,
    body: (v) => [
      `आपका ${v.brand} ऑर्डर ${v.order_id} कैश ऑन डिलीवरी है: डिलीवरी पर ₹${v.amount} देने होंगे।`,
      'कृपया इसे कन्फ़र्म करें ताकि हम इसे भेज सकें, या अगर आपने गलती से ऑर्डर किया है तो कैंसल करें।',
    ],
    question: (v) => `क्या आप अपना ${v.brand} ऑर्डर ${v.order_id} (₹${v.amount}, कैश ऑन डिलीवरी) कन्फ़र्म करते हैं?`,
    confirm: 'ऑर्डर कन्फ़र्म करें',
    cancel: 'ऑर्डर कैंसल करें',
    pay: 'अभी ऑनलाइन भुगतान करें',
    thanks: {
      confirmed: 'धन्यवाद: आपका ऑर्डर कन्फ़र्म हो गया है और भेजा जाएगा।',
      cancelled: 'आपका ऑर्डर कैंसल हो गया है। कुछ भी डिलीवर नहीं होगा।',
    },
    closed: 'यह ऑर्डर अब यहाँ कन्फ़र्म या कैंसल नहीं किया जा सकता।',
  },
};

export const textOf = (language: MessageLanguage) => TEXT[language];

const safe = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The confirmation e-mail: plain text and HTML, with the links to the answer page (and the payment link when offered). */
export function confirmationMail(language: MessageLanguage, v: MessageVariables) {
  const t = TEXT[language];
  const links = [
    [t.confirm, v.confirm_url],
    [t.cancel, v.cancel_url],
    ...(v.payment_url ? [[t.pay, v.payment_url]] : []),
  ] as [string, string][];
  const text = [...t.body(v), '', ...links.map(([label, url]) => `${label}: ${url}`), '', v.brand].join('\n');
  const html =
    `<!doctype html><html lang="${language}"><body style="font-family:sans-serif">` +
    t
      .body(v)
      .map((line) => `<p>${safe(line)}</p>`)
      .join('') +
    links.map(([label, url]) => `<p><a href="${safe(url)}">${safe(label)}</a></p>`).join('') +
    `<p>${safe(v.brand)}</p></body></html>`;
  return { subject: t.subject(v), text, html };
}

/** The answer page a link opens: the question and a form per answer (a GET never answers: link scanners open links). */
export function answerPage(
  language: MessageLanguage,
  v: MessageVariables,
  action: string,
  state: 'open' | 'confirmed' | 'cancelled' | 'closed',
  chosen?: 'confirm' | 'cancel',
) {
  const t = TEXT[language];
  // The link's own answer first; the other stays one tap away, for a buyer who tapped the wrong link.
  const answers = chosen === 'cancel' ? (['cancel', 'confirm'] as const) : (['confirm', 'cancel'] as const);
  const form = (answer: 'confirm' | 'cancel') =>
    `<form method="post" action="${safe(action)}"><input type="hidden" name="answer" value="${answer}"><button>${safe(answer === 'confirm' ? t.confirm : t.cancel)}</button></form>`;
  const body =
    state === 'open'
      ? `<p>${safe(t.question(v))}</p>` +
        answers.map(form).join('') +
        (v.payment_url ? `<p><a href="${safe(v.payment_url)}">${safe(t.pay)}</a></p>` : '')
      : `<p>${safe(state === 'closed' ? t.closed : t.thanks[state])}</p>`;
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${safe(v.brand)}</title></head><body style="font-family:sans-serif;max-width:32rem;margin:2rem auto"><h1>${safe(v.brand)}</h1>${body}</body></html>`;
}

/** A failed delivery, in words: what the buyer can do on the tracking page (SMS and WhatsApp use the merchant's templates). */
const NDR_TEXT: Record<
  MessageLanguage,
  { subject: (v: NdrVariables) => string; body: (v: NdrVariables) => string[]; link: string }
> = {
  en: {
    subject: (v) => `${v.brand}: we could not deliver your order ${v.order_id}`,
    body: (v) => [
      `The courier could not deliver your ${v.brand} order ${v.order_id} (AWB ${v.awb}).`,
      'Tell us what to do: choose a day to try again, and correct the address or phone if they need it.',
    ],
    link: 'Choose on the tracking page',
  },
  hi: {
    subject: (v) => `${v.brand}: आपका ऑर्डर ${v.order_id} डिलीवर नहीं हो सका`,
    body: (v) => [
      `कूरियर आपका ${v.brand} ऑर्डर ${v.order_id} (AWB ${v.awb}) डिलीवर नहीं कर सका।`,
      'बताइए क्या करें: फिर से डिलीवरी का दिन चुनें, और ज़रूरत हो तो पता या फ़ोन सही करें।',
    ],
    link: 'ट्रैकिंग पेज पर चुनें',
  },
};

/** The NDR e-mail: plain text and HTML, with the link to the store's tracking page. */
export function ndrMail(language: MessageLanguage, v: NdrVariables) {
  const t = NDR_TEXT[language];
  const text = [...t.body(v), '', `${t.link}: ${v.tracking_url}`, '', v.brand].join('\n');
  const html =
    `<!doctype html><html lang="${language}"><body style="font-family:sans-serif">` +
    t
      .body(v)
      .map((line) => `<p>${safe(line)}</p>`)
      .join('') +
    `<p><a href="${safe(v.tracking_url)}">${safe(t.link)}</a></p><p>${safe(v.brand)}</p></body></html>`;
  return { subject: t.subject(v), text, html };
}

/** An address the courier may not find, in words: the buyer completes it on the tracking page's form. */
const ADDRESS_TEXT: Record<
  MessageLanguage,
  { subject: (v: AddressUpdateVariables) => string; body: (v: AddressUpdateVariables) => string[]; link: string }
> = {
  en: {
    subject: (v) => `${v.brand}: please complete the address of your order ${v.order_id}`,
    body: (v) => [
      `The courier may not find the address of your ${v.brand} order ${v.order_id}.`,
      'Add your house or flat number, street and a landmark before it ships, so it reaches you the first time.',
    ],
    link: 'Update your address',
  },
  hi: {
    subject: (v) => `${v.brand}: कृपया अपने ऑर्डर ${v.order_id} का पता पूरा करें`,
    body: (v) => [
      `हो सकता है कूरियर आपके ${v.brand} ऑर्डर ${v.order_id} का पता न ढूँढ पाए।`,
      'भेजे जाने से पहले अपना मकान या फ़्लैट नंबर, गली और कोई पास की पहचान (लैंडमार्क) जोड़ दें, ताकि ऑर्डर पहली बार में ही पहुँचे।',
    ],
    link: 'अपना पता अपडेट करें',
  },
};

/** The "update your address" e-mail: plain text and HTML, with the link to the form. */
export function addressMail(language: MessageLanguage, v: AddressUpdateVariables) {
  const t = ADDRESS_TEXT[language];
  const text = [...t.body(v), '', `${t.link}: ${v.update_url}`, '', v.brand].join('\n');
  const html =
    `<!doctype html><html lang="${language}"><body style="font-family:sans-serif">` +
    t
      .body(v)
      .map((line) => `<p>${safe(line)}</p>`)
      .join('') +
    `<p><a href="${safe(v.update_url)}">${safe(t.link)}</a></p><p>${safe(v.brand)}</p></body></html>`;
  return { subject: t.subject(v), text, html };
}
