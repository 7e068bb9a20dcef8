import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { Host } from '../../http/host.js';
import { allocationRoutes } from './allocation.routes.js';
import { createAllocationService } from './allocation.service.js';

/** The allocation rules: their routes, and the allocator orders books with. */
export function registerAllocation(host: Host, ctx: { db: Db; clock: Clock; rates: RatesContext }) {
  const allocation = createAllocationService(ctx);
  host.routes?.add('account', allocationRoutes(allocation));
  return allocation.allocator;
}
