/**
 * The moments a customer is e-mailed about, in the parcel's order. A store chooses among them
 * (`notify_events`); every one is on by default. `shipped` is the booking (courier and AWB).
 */
export const NOTIFY_EVENTS = ['shipped', 'out_for_delivery', 'delivered', 'ndr_raised', 'rto_delivered'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** Why a notification was not sent; the notifications route shows these. */
export const SKIP_REASONS = ['smtp_not_configured', 'event_turned_off', 'no_email_address'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const isNotifyEvent = (value: string): value is NotifyEvent =>
  (NOTIFY_EVENTS as readonly string[]).includes(value);

/**
 * The moment an event tells the customer of, if any: the booking, or the shipment entering one of
 * the statuses above. Only `shipment.status_changed` is read for statuses (the milestone events,
 * such as shipment.delivered, repeat it), and one that moves only the sub-status tells nothing new.
 */
export function notifyEventOf(event: { type: string; data: Record<string, unknown> }): NotifyEvent | undefined {
  if (event.type === 'shipment.booked') return 'shipped';
  if (event.type !== 'shipment.status_changed') return undefined;
  const { from, to } = event.data;
  return typeof to === 'string' && to !== from && to !== 'shipped' && isNotifyEvent(to) ? to : undefined;
}
