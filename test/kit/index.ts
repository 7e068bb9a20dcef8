// The test kit, every name once: tsc refuses a name that two of these modules export (TS2308), so a
// second `book` or `createWarehouse` with another signature cannot creep back in. Tests may import
// from here or from the module of the concern.
export * from './couriers.js';
export * from './examples.js';
export * from './exchanges.js';
export * from './http.js';
export * from './labels.js';
export * from './orders.js';
export * from './returns.js';
export * from './rows.js';
export * from './shipments.js';
export * from './stores.js';
export * from './tracking.js';
export * from './uploads.js';
export * from './warehouses.js';
