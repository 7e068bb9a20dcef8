import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';

/**
 * What was done in an account, by whom, from where (issue 51): one row per write, appended in the
 * write's own transaction and never changed or deleted by any route; pruned only by age
 * (AUDIT_LOG_RETENTION_DAYS). `changes` holds a summary of
 * fields before and after, never a secret or a buyer's data in clear.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    at: timestamptz('at').notNull(),
    /** member, account (its own login), api_key, access_token or operator. */
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    /** The member's e-mail, the key's prefix and name, "account login": as it was then. */
    actorName: text('actor_name').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    changes: jsonb('changes'),
  },
  (t) => [
    index('audit_log_account_at_idx').on(t.accountId, t.at, t.id),
    index('audit_log_account_action_idx').on(t.accountId, t.action, t.at),
    // The retention job's pick, over every account, by age (consumers/retention).
    index('audit_log_at_idx').on(t.at),
  ],
);
