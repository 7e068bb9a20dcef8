import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';

// How a courier is chosen for an order sent without one.

/** An account's courier allocation rules, tried lowest priority first (allocation.ts in the domain). */
export const allocationRules = pgTable(
  'allocation_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    priority: integer('priority').notNull(),
    active: boolean('active').notNull(),
    /** The domain's RuleConditions: internal units (grams, paise), states and store names lower case. */
    conditions: jsonb('conditions').$type<Record<string, unknown>>().notNull(),
    strategy: text('strategy').notNull(),
    carrierIds: text('carrier_ids').array().notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [index('allocation_rules_account_idx').on(t.accountId, t.priority)],
);
