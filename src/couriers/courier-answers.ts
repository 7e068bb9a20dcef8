/**
 * Couriers answer loose JSON: an object may be an array or null, a string may be blank. These read
 * a value the way every connector needs it, never throwing on a shape the courier did not promise.
 */
export const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
export const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** Couriers take amounts in rupees; Dakiya keeps paise. */
export const rupees = (paise: number) => Math.round(paise) / 100;
