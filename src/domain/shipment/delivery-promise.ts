/**
 * When the delivery date promised at booking is still worth showing a person: while the parcel is
 * on its way to the buyer, or got there. A lost, damaged or held parcel, one going back to the
 * seller, and a cancelled shipment have no date to promise, so the panel and the buyer's tracking
 * page show none (the listing's `expected_delivery_date` stays the record of the booking's quote,
 * as Velocity's does). Imports nothing: the panel imports this file too (scripts/build-web.mjs keys
 * its build on it), so that the two say the same.
 */
const ON_ITS_WAY: ReadonlySet<string> = new Set([
  'pending',
  'in_transit',
  'out_for_delivery',
  'ndr_raised',
  'delivered',
]);

/** Whether a shipment in `status` still has a promised delivery date to show. */
export function promiseStands(status: string): boolean {
  return ON_ITS_WAY.has(status);
}
