import type { Host } from '../http/host.js';
import { registerChargesReader } from './charges/charges.register.js';
import { registerCodReports } from './cod-reports/cod-reports.register.js';
import { registerEventFeed } from './event-feed/event-feed.register.js';
import { registerExchangeListing } from './exchange-listing/exchange-listing.register.js';
import { registerHealth } from './health/health.register.js';
import { registerOrderTracking } from './order-tracking/order-tracking.register.js';
import { registerReports } from './reports/reports.register.js';
import { registerReturnReports } from './return-reports/return-reports.register.js';
import { registerReturnsListing } from './returns-listing/returns-listing.register.js';
import { registerShipments, type ShipmentsContext } from './shipments/shipments.register.js';

/**
 * The read models' routes, one layer: listings, reports, tracking, the event feed and health read
 * what the features wrote and write nothing, so they need no feature's service and none another's.
 */
export function registerReaders(host: Host, ctx: ShipmentsContext & Parameters<typeof registerCodReports>[1]) {
  registerHealth(host, ctx);
  registerShipments(host, ctx);
  registerReturnsListing(host, ctx);
  registerExchangeListing(host, ctx);
  registerOrderTracking(host, ctx);
  registerReports(host, ctx);
  registerReturnReports(host, ctx);
  registerEventFeed(host, ctx);
  registerChargesReader(host, ctx);
  registerCodReports(host, ctx);
}
