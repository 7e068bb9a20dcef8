import type { Clock } from '../../base/clock.js';
import type { Executor } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import { quoteBoxes } from '../../domain/rates/engine-boxes.js';
import { quoteRates, type RateQuote, type RateRequest } from '../../domain/rates/engine.js';
import type { StoresService } from '../../tenancy/stores/stores.service.js';
import type { WarehouseRow, WarehousesService } from '../../tenancy/warehouses/warehouses.service.js';
import { type OrderInput, readOrderInput } from './order-input.js';
import type { PreparedOrder } from './order-rows.js';
import type { CreateOrderInput } from './orders.schemas.js';
import { type Assessment, assessOrder } from './rto-assessment.js';

// An order's body read, checked against the account (warehouse, store) and priced, before any
// booking, check, preview or update decides anything on it.

/** A prepared order whose address checks and risk are being read (null with RTO_CHECKS off). */
export type AssessedOrder = PreparedOrder & { assessment: Promise<Assessment | null> };

export type OrderPreparation = ReturnType<typeof createOrderPreparation>;

interface Deps {
  clock: Clock;
  rates: RatesContext;
  warehouses: WarehousesService;
  stores: StoresService;
  /** RTO_CHECKS: address checks and RTO risk at booking; off, the shipment's are null. */
  rtoChecks: boolean;
}

export function createOrderPreparation({ clock, rates, warehouses, stores, rtoChecks }: Deps) {
  /** `courierAllowed`: as readOrderInput takes it. */
  const prepare = (ex: Executor, accountId: string, body: CreateOrderInput, courierAllowed: boolean) =>
    prepareWith(ex, accountId, readOrderInput(body, rates.directory, courierAllowed));

  async function prepareWith(ex: Executor, accountId: string, input: OrderInput): Promise<PreparedOrder> {
    const { warehouse, warning } = await warehouses.resolveForOrder(
      accountId,
      input.warehouseId,
      input.pickupLocation,
      ex,
    );
    const store =
      input.storeName === undefined ? null : await stores.requireActiveForOrder(accountId, input.storeName, ex);
    return { input, warehouse, store, quote: priceShipment(input, warehouse), warnings: warning ? [warning] : [] };
  }

  /**
   * A booking's order, prepared, with its address checks and risk under way beside it: their
   * history read starts with the warehouse's, so outside a transaction it runs on a second pooled
   * connection while the booking reads, prices and allocates, and adds no round trip of its own.
   */
  async function prepareAssessed(
    ex: Executor,
    accountId: string,
    body: CreateOrderInput,
    courierAllowed: boolean,
  ): Promise<AssessedOrder> {
    const input = readOrderInput(body, rates.directory, courierAllowed);
    const assessment = rtoChecks ? assessOrder(ex, accountId, input, rates.directory) : Promise.resolve(null);
    assessment.catch(() => undefined); // awaited by insertOrder; not unhandled when refused before
    return { ...(await prepareWith(ex, accountId, input)), assessment };
  }

  /** The shipment's quote; a multi-piece order's charged box by box as its courier charges boxes (quoteBoxes). */
  function priceShipment(input: OrderInput, warehouse: WarehouseRow): RateQuote {
    const request: RateRequest = {
      journeyType: 'forward',
      origin: rates.directory.lookup(warehouse.pincode)!,
      destination: rates.directory.lookup(input.shipping.pincode)!,
      deadWeightGrams: input.weightGrams,
      lengthCm: input.lengthCm,
      widthCm: input.breadthCm,
      heightCm: input.heightCm,
      paymentMethod: input.paymentMethod,
      ...(input.paymentMethod === 'cod' && { shipmentValuePaise: input.codPaise }),
      qcApplicable: false,
    };
    return input.packages
      ? quoteBoxes(request, input.packages, clock.now(), rates)
      : quoteRates(request, clock.now(), rates);
  }

  return { prepare, prepareAssessed, priceShipment };
}
