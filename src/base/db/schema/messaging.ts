import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { shipments } from './shipments.js';
import { accounts } from './tenancy.js';

// Buyer messaging: each account's channels (WhatsApp, SMS, e-mail), its order-confirmation policy,
// the confirmations asked of buyers, and every message sent to them.

/** One channel of one account: off until the merchant turns it on. */
export const messagingChannels = pgTable(
  'messaging_channels',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** whatsapp | sms | email */
    channel: text('channel').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    /** What is not secret: ids, template names, sender, base URL (snake_case keys, as the API shows them). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    /** The credentials (access token and app secret, or auth key) as JSON sealed by base/secret-box.ts; null for e-mail. */
    sealedSecret: text('sealed_secret'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.channel] })],
);

/** An account's order-confirmation policy; no row reads as `mode: off`. */
export const confirmationPolicies = pgTable('confirmation_policies', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  /** off | all_cod | above_value | by_risk */
  mode: text('mode').notNull(),
  /** above_value: COD orders whose amount to collect is at least this. */
  minValuePaise: bigint('min_value_paise', { mode: 'number' }).notNull().default(0),
  /** by_risk: the rto_risk levels that are asked. */
  riskLevels: text('risk_levels').array().notNull(),
  /** Channels tried in this order: the first enabled one that can reach the buyer sends. */
  channels: text('channels').array().notNull(),
  /** en | hi */
  language: text('language').notNull(),
  /** Minutes the buyer has to answer before the outcome is no_response. */
  windowMinutes: integer('window_minutes').notNull(),
  /** Whether an order without a confirmation is held (awaiting, and after no_response) or shipped anyway. */
  holdUnconfirmed: boolean('hold_unconfirmed').notNull(),
  /** The merchant's payment link with {amount} and {order_id}; the confirmation offers it when set. */
  paymentLinkTemplate: text('payment_link_template'),
  /** The address validities that ask the buyer to update the address (incomplete, suspicious); empty: never. */
  addressUpdateFor: text('address_update_for').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** The confirmation asked for one COD shipment, its outcome and whether it turned prepaid. */
export const orderConfirmations = pgTable(
  'order_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    /** pending | confirmed | cancelled | no_response */
    outcome: text('outcome').notNull(),
    /** Held back from the courier (the account's hold policy) until confirmed. */
    held: boolean('held').notNull(),
    /** The channel that asked, or null when no enabled channel could reach the buyer. */
    channel: text('channel'),
    language: text('language').notNull(),
    dueAt: timestamptz('due_at').notNull(),
    answeredAt: timestamptz('answered_at'),
    /** whatsapp | link | merchant */
    answeredVia: text('answered_via'),
    /** The payment link offered (COD to prepaid), if any. */
    paymentLink: text('payment_link'),
    /** null | offered | paid */
    codToPrepaid: text('cod_to_prepaid'),
    paymentReference: text('payment_reference'),
    paidAt: timestamptz('paid_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('order_confirmations_shipment_key').on(t.accountId, t.shipmentId),
    // Led by the foreign key: each shipment deleted (an account's deletion, issue 52) looks its rows up by it.
    index('order_confirmations_shipment_fk_idx').on(t.shipmentId),
    index('order_confirmations_due_idx').on(t.dueAt).where(sql`${t.outcome} = 'pending'`),
  ],
);

/** One message to a buyer: a durable job, retried on the MESSAGE_RETRY_DELAYS schedule. */
export const buyerMessages = pgTable(
  'buyer_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    shipmentId: uuid('shipment_id')
      .notNull()
      .references(() => shipments.id),
    confirmationId: uuid('confirmation_id').references(() => orderConfirmations.id),
    /** whatsapp | sms | email */
    channel: text('channel').notNull(),
    /** What it says: order_confirmation, ndr or address_update. */
    purpose: text('purpose').notNull(),
    /** The provider's template (WhatsApp name, MSG91 DLT template id) or e-mail subject line's kind. */
    template: text('template').notNull(),
    language: text('language').notNull(),
    recipient: text('recipient').notNull(),
    /** pending | sent | failed */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at'),
    lockedUntil: timestamptz('locked_until'),
    providerMessageId: text('provider_message_id'),
    lastError: text('last_error'),
    /** The values the template is filled with, as sent. */
    variables: jsonb('variables').$type<Record<string, string>>().notNull(),
    sentAt: timestamptz('sent_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    index('buyer_messages_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // The retention job's pick: finished messages by age (consumers/retention).
    index('buyer_messages_finished_idx').on(t.updatedAt).where(sql`${t.status} <> 'pending'`),
    index('buyer_messages_shipment_idx').on(t.accountId, t.shipmentId, t.createdAt),
    // Led by the foreign keys: each shipment or confirmation deleted (an account's deletion, issue
    // 52) looks its messages up by them; the account's own reads keep the index above.
    index('buyer_messages_shipment_fk_idx').on(t.shipmentId),
    index('buyer_messages_confirmation_fk_idx').on(t.confirmationId).where(sql`${t.confirmationId} is not null`),
  ],
);
