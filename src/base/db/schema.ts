// The database schema, one file per table group under schema/. drizzle-kit reads this file
// (drizzle.config.ts); migrations/ holds what it generated.
export * from './schema/tenancy.js';
export * from './schema/audit.js';
export * from './schema/allocation.js';
export * from './schema/shipments.js';
export * from './schema/boxes.js';
export * from './schema/shipment-counters.js';
export * from './schema/platform.js';
export * from './schema/tracking.js';
export * from './schema/returns.js';
export * from './schema/events.js';
export * from './schema/couriers.js';
export * from './schema/consumers.js';
export * from './schema/charges.js';
export * from './schema/messaging.js';
export * from './schema/rto.js';
export * from './schema/cod.js';
export * from './schema/pickups.js';
export * from './schema/channels.js';
export * from './schema/exchanges.js';
export * from './schema/return-requests.js';
export * from './schema/paperwork.js';
export * from './schema/privacy.js';
