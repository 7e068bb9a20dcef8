import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bytea, timestamptz } from './columns.js';

// Accounts and their credentials, stores (brands) and warehouses.

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    // Login names are global (the token endpoint has no account context), compared case-insensitively.
    username: text('username'),
    passwordHash: text('password_hash'),
    /** Owners (its own login, owner members) sign in to the panel only with two-factor on (issue 51). */
    ownersNeedTwoFactor: boolean('owners_need_two_factor').notNull().default(false),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [uniqueIndex('accounts_username_key').on(sql`lower(${t.username})`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    // The first characters of the key, kept in clear so an operator can name a key to revoke it.
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    // Kept to the minute (LAST_USED_PRECISION_MS): a key in use writes its row once a minute, not per request.
    lastUsedAt: timestamptz('last_used_at'),
    /** What the key is for, as its maker named it. */
    name: text('name'),
    /** The permissions it holds (domain/access/permissions.ts); null: all of them, as every key made before scopes. */
    scopes: text('scopes').array(),
    /** When it stops working by itself; null: never. */
    expiresAt: timestamptz('expires_at'),
    /** The member who made it: it ends when they are suspended or removed. Null: the account's own login or the operator. */
    memberId: uuid('member_id').references(() => members.id),
    /** The stores it may see and act on (issue 51); null: every store of the account. */
    storeIds: uuid('store_ids').array(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    uniqueIndex('api_keys_prefix_key').on(t.prefix),
    index('api_keys_account_idx').on(t.accountId),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('access_tokens_token_hash_key').on(t.tokenHash),
    index('access_tokens_account_idx').on(t.accountId, t.expiresAt),
  ],
);

/**
 * The panel's sign-ins (/app): a random token in an HttpOnly cookie, kept here as its hash so a
 * session survives a restart and works on every API process. Signing out expires the row.
 */
export const panelSessions = pgTable(
  'panel_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The member signed in; null for the account's own login. */
    memberId: uuid('member_id').references(() => members.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('panel_sessions_token_hash_key').on(t.tokenHash),
    index('panel_sessions_account_idx').on(t.accountId),
  ],
);

/**
 * The people of an account beside its own login, which is its first owner (issue 51). A member is
 * invited by e-mail, which is then their login: unique among members still on an account, and
 * never an account's username. The invitation's token is kept hashed until it is used or replaced.
 */
export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    email: text('email').notNull(),
    name: text('name'),
    /** domain/access/roles.ts */
    role: text('role').notNull(),
    /** invited, active, suspended or removed; a removed member's row stays, its e-mail freed. */
    status: text('status').notNull(),
    passwordHash: text('password_hash'),
    inviteTokenHash: text('invite_token_hash'),
    inviteExpiresAt: timestamptz('invite_expires_at'),
    invitedBy: uuid('invited_by'),
    /** A password reset asked by e-mail: its token, hashed, until used or an hour old. */
    resetTokenHash: text('reset_token_hash'),
    resetExpiresAt: timestamptz('reset_expires_at'),
    /** The stores they may see and act on (a 3PL, a brand manager); null: every store of the account. */
    storeIds: uuid('store_ids').array(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('members_email_key').on(sql`lower(${t.email})`).where(sql`${t.status} <> 'removed'`),
    uniqueIndex('members_invite_token_key').on(t.inviteTokenHash),
    uniqueIndex('members_reset_token_key').on(t.resetTokenHash),
    index('members_account_idx').on(t.accountId, t.createdAt),
  ],
);

/**
 * An account's own roles beside the built-in ones (domain/access/roles.ts): a name members hold in
 * `members.role`, never a built-in's, and the permissions it grants.
 */
export const customRoles = pgTable(
  'custom_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    permissions: text('permissions').array().notNull(),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [uniqueIndex('custom_roles_account_name_key').on(t.accountId, t.name)],
);

/**
 * A login's second factor (issue 51): a TOTP secret, sealed, for the account's own login (member
 * null) or one member. Null `enabled_at` while being set up; `last_time_step` keeps a code from
 * working twice; the recovery codes are kept hashed and each struck out when used.
 */
export const twoFactorLogins = pgTable(
  'two_factor_logins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    memberId: uuid('member_id').references(() => members.id),
    secretSealed: text('secret_sealed').notNull(),
    enabledAt: timestamptz('enabled_at'),
    lastTimeStep: integer('last_time_step'),
    recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [unique('two_factor_logins_login_key').on(t.accountId, t.memberId).nullsNotDistinct()],
);

export const stores = pgTable(
  'stores',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    storeName: text('store_name').notNull(),
    brandName: text('brand_name'),
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    // Hash of the current logo (hex SHA-256), null when the store has none; the bytes live in store_logos.
    logoSha256: text('logo_sha256'),
    /** The merchant's contact shown to customers on the tracking page and in e-mails. */
    supportEmail: text('support_email'),
    supportPhone: text('support_phone'),
    /** The language the store's buyers read its pages in, over their browsers' (domain/buyer-copy/page-text.ts); null: no preference. */
    language: text('language'),
    /** The customer e-mails this store sends (notifications/notify-events.ts); every one by default. */
    notifyEvents: text('notify_events')
      .array()
      .notNull()
      .default(
        sql`'{shipped,out_for_delivery,delivered,ndr_raised,rto_delivered,return_requested,return_approved,return_rejected}'::text[]`,
      ),
    /**
     * The seller on the buyer's tax invoice (docs/paperwork.md): legal name, GSTIN, registered
     * address and the invoice numbers' prefix. All four or none: a store without them numbers no invoices.
     */
    invoiceLegalName: text('invoice_legal_name'),
    invoiceGstin: text('invoice_gstin'),
    invoiceAddress: text('invoice_address'),
    invoicePrefix: text('invoice_prefix'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    // Names stay reserved after a store is disconnected, and differ only in case count as one.
    uniqueIndex('stores_account_name_key').on(t.accountId, sql`lower(${t.storeName})`),
    index('stores_account_created_idx').on(t.accountId, t.createdAt, t.id),
  ],
);

export const storeLogos = pgTable('store_logos', {
  storeId: uuid('store_id')
    .primaryKey()
    .references(() => stores.id),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  contentType: text('content_type').notNull(),
  sha256: text('sha256').notNull(),
  bytes: bytea('bytes').notNull(),
  /**
   * What labels draw: a small PNG made from the logo at upload (tenancy/stores/logo.ts), or, for a
   * logo stored before every upload got one, at its first label. Null until made; empty when none
   * can be made (an old logo over the pixel limits, or damaged): its labels show the brand alone.
   */
  labelPng: bytea('label_png'),
});

export const warehouses = pgTable(
  'warehouses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    contactPerson: text('contact_person'),
    streetAddress: text('street_address').notNull(),
    pincode: text('pincode').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull(),
    /** GSTIN, printed on labels as the shipper's. */
    gstNo: text('gst_no'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('warehouses_account_created_idx').on(t.accountId, t.createdAt, t.id)],
);
