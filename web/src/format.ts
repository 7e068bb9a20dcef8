const INDIA = 'Asia/Kolkata';

const dateTime = new Intl.DateTimeFormat('en-IN', {
  timeZone: INDIA,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dateOnly = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA, day: 'numeric', month: 'short', year: 'numeric' });
const rupees = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** The API writes some times in India time without an offset (as Velocity does), others in UTC with one. */
function instant(value: string): Date {
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) || !value.includes('T') ? value : `${value}+05:30`);
}

/** A moment as a merchant in India reads it, e.g. "20 Nov 2026, 12:00 pm". */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const at = instant(value);
  return Number.isNaN(at.getTime()) ? value : dateTime.format(at);
}

/** A calendar date in India, e.g. "24 Nov 2026"; a bare "2026-11-24" is already one. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const at = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00+05:30`) : instant(value);
  return Number.isNaN(at.getTime()) ? value : dateOnly.format(at);
}

/** Rupees with paise, Indian digit grouping: ₹1,29,900.50. */
export function formatRupees(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : rupees.format(value);
}

/** Statuses whose words are not their API names: SPEC's "others" holds lost, damaged and held parcels. */
const STATUS_WORDS: Record<string, string> = {
  others: 'Lost, damaged or held',
  on_hold: 'On hold',
  box_exception: 'A box went another way',
};

/** "ndr_raised" → "NDR raised"; "others" → "Lost, damaged or held". */
export function statusLabel(status: string): string {
  const known = STATUS_WORDS[status];
  if (known) return known;
  const words = status
    .replace(/_/g, ' ')
    .replace(/\bndr\b/, 'NDR')
    .replace(/\brto\b/, 'RTO')
    .replace(/\bcod\b/, 'COD');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A shipment's status as a merchant reads it: a lost or damaged parcel is named so, not "others". */
export function shipmentStatusLabel(status: string, subStatus: string | null | undefined): string {
  return status === 'others' && subStatus ? statusLabel(subStatus) : statusLabel(status);
}

/** Why a delivery failed (the API's ndr_reason), in words. */
export const NDR_REASON_WORDS: Record<string, string> = {
  customer_unavailable: 'Customer not available',
  address_incomplete: 'Address incomplete or not found',
  refused: 'Customer refused the parcel',
  cod_not_ready: 'Customer did not have the cash (COD)',
  premises_closed: 'Premises closed',
  future_delivery_requested: 'Customer asked for a later delivery',
  contact_unreachable: "Customer's phone unreachable",
  other: "Another reason (the courier's words say which)",
};

export function ndrReasonLabel(reason: string | null | undefined): string {
  if (!reason) return 'The courier gave no reason';
  return NDR_REASON_WORDS[reason] ?? statusLabel(reason);
}

const LOWER_IN_NAMES = new Set(['and', 'of', 'the']);
/** A state or city name as written ("tamil nadu" → "Tamil Nadu", "jammu and kashmir" → "Jammu and Kashmir"). */
export function placeName(name: string): string {
  return name
    .split(/\s+/)
    .map((word, i) =>
      i > 0 && LOWER_IN_NAMES.has(word.toLowerCase())
        ? word.toLowerCase()
        : word.charAt(0).toUpperCase() + word.slice(1),
    )
    .join(' ');
}

/** A sales channel's platform by its name (an order's channel, a connected store's). */
const CHANNEL_NAMES: Record<string, string> = {
  shopify: 'Shopify',
  woocommerce: 'WooCommerce',
  manual_order: 'Manual',
};

export function channelName(channel: string): string {
  return CHANNEL_NAMES[channel] ?? statusLabel(channel);
}
