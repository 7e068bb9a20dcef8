import type { orderItems, returnItems, returns, shipments } from '../../base/db/schema.js';
import { type ExchangeChargeParts, exchangeCharges, exchangeQcPaise } from '../../domain/exchange-charges.js';
import { type Zone, zoneLabel } from '../../domain/geo/zones.js';
import { paiseToRupees } from '../../domain/money.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { exchangeStatus } from '../../domain/shipment/exchange-status.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import type { ExchangePageRow } from './exchange-listing.repository.js';

// One exchange as POST /exchange-orders shows it (exchange-element.schemas.ts), from its page row
// and its legs' items.

type OrderItemRow = typeof orderItems.$inferSelect;
type ReturnItemRow = typeof returnItems.$inferSelect;

type ChargedLegs = {
  exchange: Pick<ExchangePageRow['exchange'], 'qcChargePaise' | 'exchangeChargePaise'>;
  forward: Pick<ExchangePageRow['forward'], 'freightPaise' | 'codChargesPaise' | 'rtoChargesPaise'>;
  ret: Pick<ExchangePageRow['ret'], 'freightPaise' | 'qcApplied' | 'qcPaise'>;
};

/** The parts of an exchange's charges from what each leg's booking stored; a charge not stored counts 0. */
export function chargeParts({ exchange, forward, ret }: ChargedLegs): ExchangeChargeParts {
  return {
    forwardFreightPaise: forward.freightPaise ?? 0,
    forwardCodPaise: forward.codChargesPaise ?? 0,
    forwardRtoPaise: forward.rtoChargesPaise ?? 0,
    returnPickupPaise: ret.freightPaise ?? 0,
    qcPaise: exchangeQcPaise(
      { qcApplied: ret.qcApplied === true, courierQcPaise: Number(ret.qcPaise ?? 0) },
      exchange.qcChargePaise,
    ),
    exchangePaise: exchange.exchangeChargePaise,
  };
}

const latest = (...dates: Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())));
const iso = (date: Date | null) => date?.toISOString() ?? null;

const itemsOf = (items: (OrderItemRow | ReturnItemRow)[]) =>
  items.map((item) => ({
    id: item.id,
    quantity: item.units,
    price: paiseToRupees(item.sellingPricePaise),
    name: item.name,
    sku: item.sku,
  }));

/** A leg's courier by its catalogue name; one the catalogue no longer lists by its id. */
export const carrierLink = (catalogue: Pick<CourierCatalogue, 'byId'>, id: string | null) =>
  id === null ? null : { id, name: catalogue.byId.get(id)?.name ?? id };

export function elementBuilder(catalogue: CourierCatalogue) {
  const carrier = (id: string | null) => carrierLink(catalogue, id);
  /** A leg's shipment (the replacement's, or the return as its own shipment) in Velocity's nesting. */
  const leg = (
    id: string,
    row: typeof shipments.$inferSelect | typeof returns.$inferSelect,
    warehouseId: string | null,
  ) => ({
    data: {
      id,
      type: 'shipment' as const,
      attributes: {
        unique_id: id,
        tracking_number: row.awb,
        status: row.status,
        sub_status: row.subStatus,
        carrier: carrier(row.carrierId),
        warehouse_id: warehouseId,
        zone: zoneLabel(row.zone as Zone),
        applied_weight: { value: row.appliedWeightGrams, metric_unit: 'g' as const },
        picked_up_at: iso(row.pickedUpAt),
        delivered_at: iso(row.deliveredAt),
      },
    },
  });

  return (row: ExchangePageRow, forwardItems: OrderItemRow[], returnItems: ReturnItemRow[]) => {
    const { exchange, forward, ret, order } = row;
    return {
      id: exchange.id,
      type: 'exchange_order' as const,
      attributes: {
        display_id: exchange.displayId,
        unique_id: exchange.uniqueId,
        // The function itself (the SQL filter mirrors it: exchange-status-sql.ts).
        status: exchangeStatus({
          forward: forward.status as ShipmentStatus,
          return: ret.status as ReturnStatus,
          qcStatus: ret.qcStatus,
          replacementHeld: exchange.replacementHeld,
        }),
        channel: exchange.channel,
        return_reason: exchange.returnReason,
        created_at: exchange.createdAt.toISOString(),
        updated_at: latest(exchange.updatedAt, forward.updatedAt, ret.updatedAt).toISOString(),
        // Flagged as soon as the courier reports the failure, whether or not the exchange's own mark is written yet.
        qc_failed: exchange.qcFailedAt !== null || ret.qcStatus === 'failed',
        qc_failed_at: iso(exchange.qcFailedAt),
        replacement_held: exchange.replacementHeld,
        release_on: exchange.releaseOn,
        fare_breakup: exchangeCharges(chargeParts(row)),
        order: {
          data: {
            id: order.id,
            type: 'order' as const,
            attributes: {
              unique_id: order.id,
              display_id: order.merchantOrderId,
              order_date: order.orderDate.toISOString(),
              channel: order.channel,
              store_name: row.storeName,
              payment_method: order.paymentMethod.toUpperCase(),
              is_cod: forward.isCod,
              cod_amount: paiseToRupees(forward.codAmountPaise),
              total_price: paiseToRupees(forward.totalPricePaise),
              customer: {
                name: [order.shippingName, order.shippingLastName].filter(Boolean).join(' '),
                phone: order.shippingPhone,
                city: order.shippingCity,
                state: order.shippingState,
                zip: order.shippingPincode,
              },
              items: itemsOf(forwardItems.filter((item) => item.orderId === order.id)),
            },
          },
        },
        forward_shipment: leg(forward.id, forward, forward.warehouseId),
        return: {
          data: {
            id: ret.id,
            type: 'return' as const,
            attributes: {
              unique_id: ret.id,
              display_id: ret.merchantOrderId,
              status: ret.status,
              qc_enabled: ret.qcApplied === true,
              qc_status: ret.qcStatus,
              qc_reason: ret.qcReason,
              pickup_address: {
                name: [ret.pickup.name, ret.pickup.last_name].filter(Boolean).join(' '),
                phone: ret.pickup.phone,
                city: ret.pickup.city,
                state: ret.pickup.state,
                zip: ret.pickup.pincode,
              },
              items: itemsOf(returnItems.filter((item) => item.returnId === ret.id)),
            },
          },
        },
        return_shipment: leg(ret.shipmentId, ret, ret.warehouseId),
      },
    };
  };
}
