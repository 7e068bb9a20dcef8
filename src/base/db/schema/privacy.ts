import { integer, pgTable, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';

/**
 * An account's own period before a finished shipment's buyer is anonymised (consumers/privacy);
 * without a row, BUYER_DATA_ANONYMISE_DAYS.
 */
export const privacySettings = pgTable('privacy_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  anonymiseAfterDays: integer('anonymise_after_days').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * An account's deletion, asked for by its owner or the operator (consumers/privacy): every row of
 * the account goes once `due_at` passes, unless the owner takes the request back before.
 */
export const accountDeletions = pgTable('account_deletions', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  requestedAt: timestamptz('requested_at').notNull(),
  dueAt: timestamptz('due_at').notNull(),
});
