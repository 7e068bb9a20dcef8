import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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

/**
 * An export of everything an account holds (consumers/privacy): written in the background to
 * `DATA_DIR/exports/<id>.tar.gz`, kept ACCOUNT_EXPORT_KEEP_HOURS once ready. One running export per
 * account; a running one whose `lease_until` has passed (its process ended) is started again.
 */
export const accountExports = pgTable(
  'account_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** running, ready or failed. */
    status: text('status').notNull(),
    tablesTotal: integer('tables_total').notNull(),
    tablesDone: integer('tables_done').notNull().default(0),
    rowsTotal: bigint('rows_total', { mode: 'number' }).notNull(),
    rowsWritten: bigint('rows_written', { mode: 'number' }).notNull().default(0),
    /** The archive's size once ready. */
    bytes: bigint('bytes', { mode: 'number' }),
    /** Why it failed, in words (never a row's data). */
    error: text('error'),
    /** How many times a process started writing it: a crash is taken up again, a few times. */
    attempts: integer('attempts').notNull().default(0),
    /** Until when the process writing it holds it; null before one starts. */
    leaseUntil: timestamptz('lease_until'),
    createdAt: timestamptz('created_at').notNull(),
    finishedAt: timestamptz('finished_at'),
    /** When the archive and this row are deleted: ACCOUNT_EXPORT_KEEP_HOURS after it finished. */
    expiresAt: timestamptz('expires_at'),
  },
  (t) => [
    index('account_exports_account_created_idx').on(t.accountId, t.createdAt),
    uniqueIndex('account_exports_running_key').on(t.accountId).where(sql`${t.status} = 'running'`),
  ],
);
