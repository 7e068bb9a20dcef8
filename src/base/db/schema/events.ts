import { sql } from 'drizzle-orm';
import { bigint, customType, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { accounts } from './tenancy.js';

// The transactional outbox and its consumers' cursors.

// PostgreSQL's 64-bit transaction id. Kept on each event so that readers can tell which events
// can no longer be joined by an earlier one still committing (see events.repository.ts).
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });
/** The transactional outbox: one row per state change, written in the change's own transaction. */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    type: text('type').notNull(),
    /** What the event is about: a shipment, a return, a store or (webhook.test) a webhook endpoint. */
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** 1, 2, 3… per subject, in the order its changes committed. */
    sequence: integer('sequence').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    txid: xid8('txid').notNull().default(sql`pg_current_xact_id()`),
    position: bigint('position', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    uniqueIndex('events_subject_sequence_key').on(t.accountId, t.subjectId, t.sequence),
    index('events_account_order_idx').on(t.accountId, t.txid, t.position),
    index('events_order_idx').on(t.txid, t.position),
  ],
);

/** Where each outbox consumer (webhook fan-out, e-mail notifications…) has read up to. */
export const eventConsumers = pgTable('event_consumers', {
  name: text('name').primaryKey(),
  afterTxid: xid8('after_txid').notNull(),
  afterPosition: bigint('after_position', { mode: 'number' }).notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});
