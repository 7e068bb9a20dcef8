import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';

// Idempotency keys, server secrets and courier tokens.

/** Stripe-style idempotency: the first response to a key is kept for 24 hours and replayed. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    key: text('key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Server-wide secrets (label link signing), made once and shared by every process. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/** A courier's credential for reporting scans; it may only touch shipments booked on that service. */
export const carrierTokens = pgTable(
  'carrier_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    carrierId: text('carrier_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [uniqueIndex('carrier_tokens_token_hash_key').on(t.tokenHash)],
);

/**
 * The import each account has running, on PostgreSQL (decision 134): the account's advisory lock,
 * held by the session `holder_pid` names, is what keeps a second import out; this row is what the
 * second one is told. A row whose session is gone (a process that died mid-import) is overwritten
 * by the next import that takes the lock.
 */
export const runningImports = pgTable('running_imports', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  id: uuid('id').notNull(),
  kind: text('kind').notNull(),
  fileName: text('file_name'),
  startedAt: timestamptz('started_at').notNull(),
  holderPid: integer('holder_pid').notNull(),
});
