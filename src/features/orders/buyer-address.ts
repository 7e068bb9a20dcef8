import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { type AddressProblem, type AddressUpdateForm, readAddressUpdate } from '../../domain/rto/address-update.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import type { EventLog } from '../../events/event-log.js';
import { DomainError } from '../../domain/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { ORDER_ERRORS } from './orders.errors.js';
import { orderInputOf } from './order-input.js';
import { searchText } from './order-rows.js';
import * as repo from './orders.repository.js';
import { reassess } from './reassess.js';

export type BuyerAddressUpdate = ReturnType<typeof createBuyerAddressUpdate>;

/** Refused fields, for the page to name in the buyer's language. */
export class AddressUpdateRefused extends DomainError {
  constructor(readonly problems: AddressProblem[]) {
    const refusal = ORDER_ERRORS.address_update_refused;
    super(
      refusal.kind,
      problems.map((p) => `${p.field}: ${p.code}`),
      problems.map((p) => ({ field: p.field, message: p.code })),
      refusal.code,
    );
  }
}

/** What the form shows before the buyer edits it: the address as it stands. */
export interface AddressFormValues {
  address: string;
  landmark: string;
  pincode: string;
  city: string;
  state: string;
  alternate_phone: string;
}

/**
 * The buyer's own correction of the shipping address, from the tracking page's form (decision 94):
 * before pickup only (409 after), the order's shipping address replaced (the landmark as its second
 * line), the address checks and the RTO risk run again, and `shipment.address_updated` recorded
 * with the verdict before and now, in one transaction. A courier whose connector has an address
 * edit (Delhivery) is told; the event says how it answered (`told`, `refused`) or `not_supported`;
 * the label, drawn when fetched, shows the new address either way.
 */
interface Deps {
  db: Db;
  clock: Clock;
  directory: PincodeDirectory;
  events: EventLog;
  catalogue: CourierCatalogue;
  couriers: Couriers;
  rtoChecks?: boolean;
}

export function createBuyerAddressUpdate({
  db,
  clock,
  directory,
  events,
  catalogue,
  couriers,
  rtoChecks = true,
}: Deps) {
  return {
    /** The shipment's address as the form starts from it. */
    async current(accountId: string, shipmentId: string): Promise<AddressFormValues | undefined> {
      const found = await repo.findShipmentWithOrder(db, accountId, shipmentId);
      if (!found) return undefined;
      const { order } = found;
      return {
        address: order.shippingAddress,
        landmark: order.shippingAddress2 ?? '',
        pincode: order.shippingPincode,
        city: order.shippingCity,
        state: order.shippingState,
        alternate_phone: order.shippingAlternatePhone ?? '',
      };
    },

    async update(accountId: string, shipmentId: string, form: AddressUpdateForm) {
      return db.transaction(async (tx) => {
        const found = await repo.findShipmentWithOrder(tx, accountId, shipmentId, true);
        if (!found) throw SHIPMENT_ERRORS.tracking_link_not_found.error('Tracking link not found');
        const { shipment, order } = found;
        if (shipment.status !== 'pending')
          throw SHIPMENT_ERRORS.shipment_past_pickup.error(
            `The parcel was already picked up (${shipment.status}): its address can no longer change here`,
          );
        const { update, problems } = readAddressUpdate(form, directory, shipment.awb ? order.shippingPincode : null);
        if (!update) throw new AddressUpdateRefused(problems);
        const before = orderInputOf(order, []);
        const changes: [string, boolean][] = [
          ['address', update.address !== order.shippingAddress],
          ['landmark', (update.landmark ?? null) !== order.shippingAddress2],
          ['pincode', update.pincode !== order.shippingPincode],
          ['city', update.city !== order.shippingCity],
          ['state', update.state !== order.shippingState],
          ['alternate_phone', update.alternatePhone !== null],
        ];
        const changed = changes.filter(([, c]) => c).map(([field]) => field);
        const shipping = {
          ...before.shipping,
          address: update.address,
          address2: update.landmark,
          pincode: update.pincode,
          city: update.city,
          state: update.state,
        };
        const after = { ...before, shippingIsBilling: false, shipping };
        const now = clock.now();
        // The billing address stays the buyer's: only where the parcel goes changes.
        await repo.updateOrder(tx, accountId, order.id, {
          shippingIsBilling: false,
          shippingName: shipping.name,
          shippingLastName: shipping.lastName,
          shippingAddress: shipping.address,
          shippingAddress2: shipping.address2,
          shippingCity: shipping.city,
          shippingPincode: shipping.pincode,
          shippingState: shipping.state,
          shippingCountry: shipping.country,
          shippingEmail: shipping.email,
          shippingPhone: shipping.phone,
          // Kept until the buyer gives another: a form sent without one does not erase it.
          ...(update.alternatePhone !== null && { shippingAlternatePhone: update.alternatePhone }),
        });
        const recheck = rtoChecks ? await reassess(tx, accountId, shipment, after, directory) : null;
        await repo.updateShipment(tx, accountId, shipment.id, {
          ...recheck?.columns,
          searchText: searchText(after, order.id, shipment.awb, order.channelOrderName),
          updatedAt: now,
        });
        const service = shipment.carrierId ? catalogue.byId.get(shipment.carrierId) : undefined;
        // The courier first, in the transaction, as a cancellation is: its answer goes in the event.
        const told =
          service && shipment.awb
            ? await couriers.changeAddress(
                accountId,
                service,
                shipment.awb,
                [update.address, update.landmark, update.city, update.state].filter(Boolean).join(', '),
              )
            : null;
        const courier = !told
          ? {
              outcome: 'not_supported' as const,
              message: 'No courier is booked yet: it will be booked with the new address',
            }
          : told.outcome === 'not_supported'
            ? {
                outcome: told.outcome,
                message: `${service!.name}'s connector has no address-change call: the new address is on the shipment and its label; reprint a label printed before`,
              }
            : told;
        const change = {
          ...recheck?.change,
          updated_by: 'buyer',
          changed,
          alternate_phone: update.alternatePhone,
          courier,
        };
        await events.shipment(tx, accountId, shipment.id, [{ type: 'shipment.address_updated', change }], now);
        return {
          address_validity: recheck?.columns.addressValidity ?? null,
          rto_risk: recheck?.columns.rtoRisk ?? null,
        };
      });
    },
  };
}
