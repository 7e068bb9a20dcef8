// What an account's export leaves out (issue 52): credentials never leave Dakiya, not even to the
// account's owner, who can make new ones. Every table with an `account_id` is exported, and the
// account's own row; these tables and columns are not, each with its reason. The register is held
// against the database's catalogue (export-secrets.once.test.ts): a column whose name speaks of a
// secret (hash, secret, token, password, sealed, credential, otp) fails the test until it is placed
// here, as left out or as safe with the reason it holds no secret.

/** Tables left out whole, and why. */
export const EXCLUDED_TABLES: Record<string, string> = {
  access_tokens: "hashes of the account login's access tokens: credentials",
  panel_sessions: "hashes of the panel's sign-in tokens: credentials",
  account_exports: 'the exports themselves: their progress, not the account’s data',
};

/** Columns left out of the tables that are exported, by table, and why. */
export const EXCLUDED_COLUMNS: Record<string, Record<string, string>> = {
  accounts: { password_hash: "the account login's password, hashed: a credential" },
  api_keys: { key_hash: "the key's hash: a credential (its prefix, name and scopes are kept)" },
  members: {
    password_hash: "the member's password, hashed: a credential",
    invite_token_hash: "an open invitation's token, hashed: a credential",
    reset_token_hash: "a password reset's token, hashed: a credential",
  },
  two_factor_logins: {
    secret_sealed: "the second factor's secret, sealed: a credential",
    recovery_code_hashes: 'the recovery codes, hashed: credentials',
  },
  webhook_endpoints: {
    secret: "the endpoint's signing secret: whoever holds it can sign webhooks as Dakiya",
    api_key: "the static key a Velocity-format receiver checks: the receiver's credential",
  },
  courier_credentials: { sealed: "the account's own courier API credentials, sealed: credentials" },
  eway_bill_gateways: {
    sealed: "the GST Suvidha Provider's client secret and e-way bill password, sealed: credentials",
  },
  messaging_channels: { sealed_secret: "the messaging provider's access token, app secret or auth key, sealed" },
  sales_channels: { sealed: "the store's API credentials (Shopify token, WooCommerce keys), sealed" },
  return_requests: {
    refund_to_sealed:
      "the buyer's bank or UPI details in full, sealed under the server's key (refund_to keeps them masked)",
  },
  refunds: {
    payee_sealed: "the payee's bank or UPI details in full, sealed under the server's key (payee keeps them masked)",
  },
};

/** Columns whose names speak of a secret but which hold none, and why they are exported. */
export const SAFE_COLUMNS: Record<string, Record<string, string>> = {
  shipments: {
    track_token:
      "the buyer's tracking link's token: in every booking answer and customer e-mail, the merchant's already",
  },
  idempotency_keys: { request_hash: 'a hash of the request a key was first sent with: no credential' },
};

/** What a column's name says when it may hold a secret. */
export const SECRET_NAME = /hash|secret|token|password|sealed|credential|otp|totp/;

/** Whether the export leaves out `column` of `table`. */
export const excludedColumn = (table: string, column: string): boolean =>
  Object.hasOwn(EXCLUDED_COLUMNS[table] ?? {}, column);
