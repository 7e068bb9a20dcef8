const INDIA = 'Asia/Kolkata';

const dateTime = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA, day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });
const dateOnly = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA, day: 'numeric', month: 'short', year: 'numeric' });
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: 2 });

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

/** "ndr_raised" → "NDR raised". */
export function statusLabel(status: string): string {
  const words = status.replace(/_/g, ' ').replace(/\bndr\b/, 'NDR').replace(/\brto\b/, 'RTO').replace(/\bcod\b/, 'COD');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
