import type { Executor } from '../../base/db/client.js';
import type { ReturnAddress } from '../../base/db/schema.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { serviceableCarriers } from '../../domain/rates/engine.js';
import type { ReturnRequestAsk, ReturnRequestFacts } from '../../domain/return-requests/return-request-rules.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import type { RefundToFacts } from '../../domain/return-requests/refund-payee.js';
import * as policies from './return-policy.repository.js';
import * as repo from './return-requests.repository.js';

// What the rules (domain/return-requests) judge a request by, read from the database: the buyer's
// form shows the same facts the request is then judged by.

/** What the rules judge a request of this shipment by, as of `now`. */
export async function factsOf(
  ex: Executor,
  accountId: string,
  { shipment, order }: repo.FoundShipment,
  now: Date,
): Promise<ReturnRequestFacts & { refund: Pick<RefundToFacts, 'cod' | 'storeCredit'> }> {
  // One after another: `ex` may be a transaction, whose one connection takes one query at a time.
  const policy = shipment.storeId === null ? undefined : await policies.findPolicy(ex, accountId, shipment.storeId);
  const items = await repo.findOrderItems(ex, accountId, shipment.orderId);
  const asked = await repo.findAskedItems(ex, accountId, shipment.id);
  const returnUnderWay = await repo.hasReturnUnderWay(ex, accountId, shipment.id);
  return {
    status: shipment.status as ShipmentStatus,
    deliveredAt: shipment.deliveredAt,
    items: items.map((item) => ({ sku: item.sku, name: item.name, units: item.units, category: item.category })),
    unitsAsked: new Map(asked.map((a) => [a.sku, Number(a.units)])),
    openSkus: new Set(asked.filter((a) => a.open).map((a) => a.sku)),
    returnUnderWay,
    policy: {
      windowDays: policy?.windowDays ?? 0,
      reasons: policy?.reasons ?? [],
      nonReturnableSkus: policy?.nonReturnableSkus ?? [],
      nonReturnableCategories: policy?.nonReturnableCategories ?? [],
    },
    now,
    // How a refund may be paid: a COD order has no method of its own to refund to.
    refund: { cod: order.paymentMethod.toLowerCase() !== 'prepaid', storeCredit: policy?.storeCredit ?? false },
  };
}

/** Where the order was delivered: the pickup address unless the buyer gives another. */
export const deliveryAddress = ({ order }: repo.FoundShipment): ReturnAddress => ({
  name: order.shippingName,
  last_name: order.shippingLastName,
  address: order.shippingAddress,
  address_2: order.shippingAddress2,
  city: order.shippingCity,
  state: order.shippingState,
  country: order.shippingCountry,
  pincode: order.shippingPincode,
  email: order.shippingEmail,
  phone: order.shippingPhone,
});

/**
 * A pickup address the buyer gave, as the rules judge it: its pincode in the directory, and some
 * courier collecting returns from it for the warehouse the order left (the return goes back there).
 */
export function pickupFacts(
  rates: Pick<RatesContext, 'directory' | 'regions' | 'catalogue'>,
  pickup: ReturnAddress,
  warehousePincode: string,
): ReturnRequestAsk['pickup'] {
  const from = rates.directory.lookup(pickup.pincode);
  const to = rates.directory.lookup(warehousePincode);
  if (!from) return { pincodeKnown: false, reverseServiceable: false };
  const served =
    to !== undefined &&
    serviceableCarriers({ from, to, paymentMode: 'prepaid', shipmentType: 'return' }, rates).carriers.length > 0;
  return { pincodeKnown: true, reverseServiceable: served };
}
