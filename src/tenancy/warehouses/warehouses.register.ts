import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import type { Host } from '../../http/host.js';
import { warehousesRoutes } from './warehouses.routes.js';
import { createWarehousesService } from './warehouses.service.js';

export interface WarehousesContext {
  db: Db;
  clock: Clock;
  rates: { directory: PincodeDirectory };
}

export function registerWarehouses(host: Host, { db, clock, rates }: WarehousesContext) {
  const warehouses = createWarehousesService({ db, clock, directory: rates.directory });
  host.routes?.add('account', warehousesRoutes(warehouses));
  return warehouses;
}
