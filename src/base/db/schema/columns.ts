import { customType, timestamp } from 'drizzle-orm/pg-core';

// PGlite hands bytea back as Uint8Array and pg as Buffer; normalise to Buffer at the boundary.
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
