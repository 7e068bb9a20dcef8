/**
 * The moments a customer is e-mailed about, in the parcel's order. A store chooses among them
 * (`notify_events`); every one is on by default. `shipped` is the booking (courier and AWB).
 */
export const NOTIFY_EVENTS = ['shipped', 'out_for_delivery', 'delivered', 'ndr_raised', 'rto_delivered'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

export const isNotifyEvent = (value: string): value is NotifyEvent => (NOTIFY_EVENTS as readonly string[]).includes(value);
