import { html } from '../../http/html.js';
import { dayName, PAGE_TEXT, firstNameOf } from '../../domain/buyer-copy/page-text.js';
import type { ShipmentMoment } from '../../domain/shipment/notify-events.js';

export interface Brand {
  name: string;
  logoUrl: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
}

/** What an e-mail reads of the shipment its event recorded (the listing's view, events.schemas.ts). */
export interface MailShipment {
  attributes: {
    tracking_number: string | null;
    track_url: string | null;
    expected_delivery_date: string | null;
    carrier: { name: string } | null;
    order: { display_id: string };
    shipping_address: { name: string };
  };
}

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const WORDS = PAGE_TEXT.en;

/** Why an attempt failed, in the customer's words (the courier's NDR reasons). */
const NDR_REASONS: Readonly<Record<string, string>> = {
  customer_unavailable: 'nobody was available to receive it',
  address_incomplete: 'the address was incomplete',
  refused: 'it was refused at the door',
  cod_not_ready: 'the cash-on-delivery amount was not ready',
  premises_closed: 'the premises were closed',
  future_delivery_requested: 'a later delivery was asked for',
  contact_unreachable: 'your phone could not be reached',
  other: 'the courier could not complete it',
};

interface Copy {
  subject: (brand: string, order: string) => string;
  headline: string;
  lines: (shipment: MailShipment['attributes'], change: Record<string, unknown>) => (string | null)[];
  button: string;
}

const TRACK = 'Track your parcel';

const COPY: Record<ShipmentMoment, Copy> = {
  shipped: {
    subject: (brand, order) => `Your ${brand} order ${order} has shipped`,
    headline: 'Your order has shipped',
    lines: (s) => [
      s.carrier && s.tracking_number
        ? `${s.carrier.name} is bringing it. Tracking number (AWB): ${s.tracking_number}.`
        : null,
      s.expected_delivery_date ? `Expected delivery: ${dayName(s.expected_delivery_date, 'en')}.` : null,
    ],
    button: TRACK,
  },
  out_for_delivery: {
    subject: (brand, order) => `Your ${brand} order ${order} is out for delivery`,
    headline: WORDS.statuses.out_for_delivery.title,
    lines: () => [WORDS.statuses.out_for_delivery.detail],
    button: TRACK,
  },
  delivered: {
    subject: (brand, order) => `Your ${brand} order ${order} has been delivered`,
    headline: WORDS.statuses.delivered.title,
    lines: () => [WORDS.statuses.delivered.detail],
    button: 'See the delivery details',
  },
  ndr_raised: {
    subject: (brand, order) => `We could not deliver your ${brand} order ${order}`,
    headline: WORDS.statuses.ndr_raised.title,
    lines: (_s, change) => {
      const reason = typeof change.ndr_reason === 'string' ? NDR_REASONS[change.ndr_reason] : undefined;
      return [
        `The courier could not deliver your parcel${reason ? `: ${reason}` : ''}.`,
        'Choose a day for another attempt on the tracking page, and add a landmark or another phone number if it helps the courier.',
      ];
    },
    button: 'Choose a new delivery day',
  },
  rto_delivered: {
    subject: (brand, order) => `Your ${brand} order ${order} was returned to the seller`,
    headline: WORDS.statuses.rto_delivered.title,
    lines: () => [
      'The parcel could not be delivered and has reached the seller again. Contact them about a refund or a new delivery.',
    ],
    button: 'See what happened',
  },
};

// E-mail clients ignore <style> and most CSS: tables and inline styles, one column, 560 px at most.
const FONT = 'font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif';
const MUTED = 'color:#52606d;font-size:14px';
// A URL has no spaces to wrap at: without these it widens its cell past a phone's screen. A fixed
// table layout keeps a cell from growing with its content; Gmail, Apple Mail and Outlook.com honour
// word-break and overflow-wrap inline, and word-wrap is the older name some clients still read.
const BREAK_ANYWHERE = 'word-break:break-all;overflow-wrap:anywhere;word-wrap:break-word';
const BUTTON =
  'display:inline-block;background:#1f4e8c;color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:8px';

/** What every customer e-mail says, in its frame: the brand, the greeting, what happened, the button to the page. */
export interface MailParts {
  subject: string;
  firstName: string;
  headline: string;
  lines: string[];
  order: string;
  button: string;
  url: string | null;
}

/**
 * The e-mail for one moment of a shipment, as the event recorded it: the brand in the subject, the
 * logo and name at the top, what happened, and the tracking page (which offers the reattempt after
 * an NDR). The plain-text part says the same for clients that show no HTML.
 */
export function composeMail(
  event: ShipmentMoment,
  shipment: MailShipment,
  change: Record<string, unknown>,
  brand: Brand,
): MailContent {
  const copy = COPY[event];
  const s = shipment.attributes;
  const order = s.order.display_id;
  return mailOf(
    {
      subject: copy.subject(brand.name, order),
      firstName: firstNameOf(s.shipping_address.name),
      headline: copy.headline,
      lines: copy.lines(s, change).filter((line): line is string => line !== null),
      order,
      button: copy.button,
      url: s.track_url,
    },
    brand,
  );
}

/** The e-mail of these parts, in the brand's frame, as HTML and as plain text. */
export function mailOf(parts: MailParts, brand: Brand): MailContent {
  const { subject, headline, lines, order, url: trackUrl } = parts;
  const hello = `${WORDS.hello(parts.firstName)},`;
  const copy = { headline, button: parts.button };
  const support = [
    brand.supportEmail && `e-mail ${brand.supportEmail}`,
    brand.supportPhone && `call ${brand.supportPhone}`,
  ]
    .filter(Boolean)
    .join(' or ');
  const footer = `You are receiving this e-mail about your order ${order} from ${brand.name}.`;

  const text = [
    brand.name,
    '',
    hello,
    '',
    copy.headline,
    '',
    ...lines,
    '',
    ...(trackUrl ? [`${copy.button}: ${trackUrl}`, ''] : []),
    ...(support ? [`Questions? Please ${support}.`, ''] : []),
    footer,
  ].join('\n');

  const body = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${subject}</title></head>
<body style="margin:0;padding:0;background:#f5f7fa;${FONT};color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f7fa"><tr><td align="center" style="padding:16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:12px;table-layout:fixed">
<tr><td style="padding:24px 24px 0">${brand.logoUrl && html`<img src="${brand.logoUrl}" alt="${WORDS.logoAlt(brand.name)}" height="48" style="display:block;max-height:48px;max-width:160px;border:0">`}<p style="margin:8px 0 0;font-size:18px;font-weight:600">${brand.name}</p></td></tr>
<tr><td style="padding:16px 24px;font-size:16px;line-height:1.5"><p style="margin:0 0 12px">${hello}</p>
<h1 style="margin:0 0 12px;font-size:22px">${copy.headline}</h1>
${lines.map((line) => html`<p style="margin:0 0 12px">${line}</p>`)}
<p style="margin:0 0 16px;${MUTED}">Order ${order}</p>
${trackUrl && html`<p style="margin:0 0 16px"><a href="${trackUrl}" style="${BUTTON}">${copy.button}</a></p><p style="margin:0;${MUTED};${BREAK_ANYWHERE}">Or open <a href="${trackUrl}" style="color:#1f4e8c;${BREAK_ANYWHERE}">${trackUrl}</a></p>`}</td></tr>
${
  support &&
  html`<tr><td style="padding:0 24px 16px;${MUTED};overflow-wrap:break-word;word-wrap:break-word">Questions? ${brand.supportEmail && html`E-mail <a href="mailto:${brand.supportEmail}" style="color:#1f4e8c">${brand.supportEmail}</a>`}${brand.supportEmail && brand.supportPhone && ' or '}${brand.supportPhone && html`call <a href="tel:${brand.supportPhone.replace(/[^+\d]/g, '')}" style="color:#1f4e8c">${brand.supportPhone}</a>`}.</td></tr>`
}
<tr><td style="padding:16px 24px 24px;border-top:1px solid #e4e7eb;${MUTED}">${footer}</td></tr>
</table></td></tr></table></body></html>`;
  return { subject, text, html: body.value };
}
