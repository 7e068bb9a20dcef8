import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';

/**
 * An account's paperwork settings (docs/paperwork.md): whether booking an order that needs an
 * e-way bill and has none is refused (the default) or only warned of.
 */
export const paperworkSettings = pgTable('paperwork_settings', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  ewayBillCheck: text('eway_bill_check').$type<'refuse' | 'warn'>().notNull().default('refuse'),
  updatedAt: timestamptz('updated_at').notNull(),
});
