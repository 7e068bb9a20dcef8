import { ensureServerSecret } from '../../src/base/db/secrets.js';
import { createCouriers } from '../../src/couriers/couriers.service.js';
import { createLabelLinks } from '../../src/domain/shipment/label-links.js';
import { trackUrlOf } from '../../src/domain/shipment/track-links.js';
import { createAllocationService } from '../../src/features/allocation/allocation.service.js';
import { createAddressCorrection } from '../../src/features/ndr/address-correction.js';
import { createOrderUpdateService } from '../../src/features/orders/order-update.service.js';
import { createOrdersService } from '../../src/features/orders/orders.service.js';
import { createPaperworkSettingsService } from '../../src/features/paperwork/paperwork.service.js';
import { loadEwayBillRules } from '../../src/data-files.js';
import { createTrackingService } from '../../src/features/tracking/tracking.service.js';
import { createStoresService } from '../../src/tenancy/stores/stores.service.js';
import { createWarehousesService } from '../../src/tenancy/warehouses/warehouses.service.js';
import type { UseCaseContext } from './use-cases.js';

/**
 * The orders services as orders.register.ts builds them, from a use-case context's parts and the
 * real services app.ts hands it (warehouses, stores, couriers — every service on the push connector, as the tests' rates have them —, the
 * allocator, the tracking intake's status machine, NDR's address correction); returns are left out
 * (cancel-order's return AWBs are the returns module's rules). With the tracking service, whose
 * scans move a shipment on.
 */
export async function ordersUseCases(ctx: UseCaseContext) {
  const { db, clock, rates, events, settings } = ctx;
  const tracking = createTrackingService({
    db,
    clock,
    catalogue: rates.catalogue,
    directory: rates.directory,
    events,
    earlyScanSeconds: settings.tracking.earlyScanSeconds,
  });
  const labelLinks = createLabelLinks({
    secret: await ensureServerSecret(db, 'label-links'),
    publicBaseUrl: settings.server.publicBaseUrl,
    ttlSeconds: settings.labels.urlTtlSeconds,
    clock,
  });
  const { rtoChecks } = settings.orders;
  const orders = createOrdersService({
    db,
    clock,
    rates,
    events,
    trackUrl: trackUrlOf(settings.server.publicBaseUrl),
    warehouses: createWarehousesService({ db, clock, directory: rates.directory }),
    stores: createStoresService({
      db,
      clock,
      publicBaseUrl: settings.server.publicBaseUrl,
      recordEvent: events.record,
    }),
    couriers: createCouriers({ db, clock, catalogue: rates.catalogue, connectors: new Map(), events }),
    allocator: createAllocationService({ db, clock, rates }).allocator,
    applyShipmentEvents: tracking.applyShipmentEvents,
    labelLinks,
    rtoChecks,
    ewayBill: {
      rules: loadEwayBillRules(rates.directory),
      checkOf: createPaperworkSettingsService({ db, clock }).ewayBillCheckOf,
    },
  });
  const updates = createOrderUpdateService({
    db,
    clock,
    orders,
    events,
    directory: rates.directory,
    rtoChecks,
    correctDeliveryAddress: createAddressCorrection({ events }),
  });
  return { orders, updates, tracking };
}
