// Where a buyer's name, phone, e-mail and street address are written, table by table, and how a
// row is known to be theirs (issue 52). The register is checked against the database's own
// catalogue (personal-columns.test.ts): a text or JSON column added to any table fails the test
// until it is placed here, as the buyer's or as kept with the reason it holds no buyer.

/** How a row is known to be one buyer's: the column that names what of theirs it belongs to. */
export type Link =
  | { order: string }
  | { shipment: string }
  | { return: string }
  | { request: string }
  /** An event's subject: any of the buyer's orders' shipments, returns, requests, exchanges, refunds. */
  | { subject: string }
  | { awb: string }
  /** Rows holding the buyer's phone or e-mail in these columns, searched through the account's rows (small tables only). */
  | { holds: string[] };

export interface PersonalTable {
  table: string;
  /** The columns that name one row. */
  key: string[];
  links: Link[];
  /** Text columns whose copies of the buyer are replaced by the marker. */
  text?: string[];
  /** JSON columns scrubbed the same way, keys kept. */
  json?: string[];
  /** Sealed copies (bank details, UPI ids): cleared, since they cannot be read to be scrubbed. */
  clear?: string[];
  /** The table's other text and JSON columns, and why they hold no buyer. */
  kept: Record<string, string>;
}

const STATUSES = 'statuses, codes and ids';

export const PERSONAL_TABLES: PersonalTable[] = [
  {
    table: 'orders',
    key: ['id'],
    links: [{ order: 'id' }],
    text: [
      'billing_name',
      'billing_last_name',
      'billing_address',
      'billing_address_2',
      'billing_email',
      'billing_phone',
      'shipping_name',
      'shipping_last_name',
      'shipping_address',
      'shipping_address_2',
      'shipping_email',
      'shipping_phone',
      'shipping_alternate_phone',
    ],
    kept: {
      merchant_order_id: "the merchant's order id",
      channel: STATUSES,
      payment_method: STATUSES,
      billing_city: 'where the parcel went, kept for analytics',
      billing_pincode: 'where the parcel went',
      billing_state: 'where the parcel went',
      billing_country: 'where the parcel went',
      shipping_city: 'where the parcel went',
      shipping_pincode: 'where the parcel went',
      shipping_state: 'where the parcel went',
      shipping_country: 'where the parcel went',
      tags: "the merchant's tags",
      channel_ref: "the merchant's reference",
      company_name: "a business buyer's company, not a person",
      buyer_gstin: "a business buyer's GST registration, not a person",
      vendor_details: "the seller's details",
      language: STATUSES,
      channel_order_id: "the store's order id",
      channel_order_name: "the store's order name (#1001)",
      ewaybill_no: 'a government document number',
      packages: "a multi-piece order's boxes: weights, sizes and the merchant's SKUs",
    },
  },
  {
    table: 'shipments',
    key: ['id'],
    links: [{ shipment: 'id' }],
    text: ['search_text'],
    kept: {
      channel: STATUSES,
      status: STATUSES,
      sub_status: STATUSES,
      zone: STATUSES,
      carrier_id: STATUSES,
      awb: STATUSES,
      ndr_reason: STATUSES,
      rto_reason: STATUSES,
      skus: "the merchant's products",
      tags: "the merchant's tags",
      routing_code: STATUSES,
      track_token: 'a random secret',
      allocation: 'the rule that chose the courier',
      address_validity: STATUSES,
      address_reasons: 'why an address failed its checks, in codes',
      rto_risk: STATUSES,
      rto_risk_reasons: 'codes and points',
      ndr_outcomes: STATUSES,
      courier_barcodes: "the courier's barcodes",
    },
  },
  {
    table: 'events',
    key: ['id'],
    links: [{ subject: 'subject_id' }],
    json: ['data'],
    kept: { type: STATUSES, subject_type: STATUSES },
  },
  {
    table: 'notifications',
    key: ['id'],
    links: [{ shipment: 'shipment_id' }],
    text: ['recipient', 'subject', 'body_text', 'body_html', 'last_error'],
    kept: { event_type: STATUSES, notify_event: STATUSES, channel: STATUSES, status: STATUSES, skip_reason: STATUSES },
  },
  {
    table: 'buyer_messages',
    key: ['id'],
    links: [{ shipment: 'shipment_id' }],
    text: ['recipient', 'last_error'],
    json: ['variables'],
    kept: {
      channel: STATUSES,
      purpose: STATUSES,
      template: "the provider's template",
      language: STATUSES,
      status: STATUSES,
      provider_message_id: STATUSES,
    },
  },
  {
    table: 'order_confirmations',
    key: ['id'],
    links: [{ shipment: 'shipment_id' }],
    text: ['payment_link'],
    kept: {
      outcome: STATUSES,
      channel: STATUSES,
      language: STATUSES,
      answered_via: STATUSES,
      cod_to_prepaid: STATUSES,
      payment_reference: "the payment provider's reference",
    },
  },
  {
    table: 'tracking_events',
    key: ['id'],
    links: [{ shipment: 'shipment_id' }],
    text: ['location', 'description'],
    kept: { status: STATUSES, sub_status: STATUSES, ndr_reason: STATUSES, rto_reason: STATUSES, event_id: STATUSES },
  },
  {
    table: 'shipment_actions',
    key: ['id'],
    links: [{ shipment: 'shipment_id' }],
    json: ['payload'],
    text: ['refusal'],
    kept: { carrier_id: STATUSES, action: STATUSES, requested_by: STATUSES, courier_reference: STATUSES },
  },
  {
    table: 'kept_scans',
    key: ['id'],
    links: [{ awb: 'awb' }],
    json: ['raw'],
    text: ['reason'],
    kept: {
      connector: STATUSES,
      carrier_id: STATUSES,
      awb: STATUSES,
      journey: STATUSES,
      reason_code: STATUSES,
      fingerprint: STATUSES,
    },
  },
  {
    table: 'channel_orders',
    key: ['id'],
    // An order the store sent that was never booked (its address refused) is found by what it holds.
    links: [{ order: 'order_id' }, { shipment: 'shipment_id' }, { holds: ['payload'] }],
    json: ['payload'],
    text: ['reason'],
    kept: {
      channel_order_id: "the store's order id",
      channel_order_name: "the store's order name",
      state: STATUSES,
      fields: 'the names of fields a refusal was about',
      fulfilment_reference: STATUSES,
      fulfilled_awb: STATUSES,
    },
  },
  {
    table: 'channel_writebacks',
    key: ['id'],
    links: [{ shipment: 'shipment_id' }],
    json: ['payload'],
    text: ['last_error'],
    kept: { kind: STATUSES, status: STATUSES },
  },
  {
    table: 'returns',
    key: ['id'],
    links: [{ return: 'id' }],
    json: ['pickup', 'shipping'],
    text: ['qc_note'],
    kept: {
      merchant_order_id: "the merchant's order id",
      channel_ref: "the merchant's reference",
      payment_method: STATUSES,
      status: STATUSES,
      zone: STATUSES,
      carrier_id: STATUSES,
      awb: STATUSES,
      sub_status: STATUSES,
      qc_status: STATUSES,
      qc_reason: STATUSES,
    },
  },
  {
    table: 'return_events',
    key: ['id'],
    links: [{ return: 'return_id' }],
    text: ['location', 'description'],
    kept: { status: STATUSES, sub_status: STATUSES, qc_status: STATUSES, qc_reason: STATUSES, event_id: STATUSES },
  },
  {
    table: 'return_requests',
    key: ['id'],
    links: [{ request: 'id' }],
    json: ['pickup', 'refund_to'],
    text: ['comment', 'decision_note'],
    clear: ['refund_to_sealed'],
    kept: {
      status: STATUSES,
      reason: STATUSES,
      resolution: STATUSES,
      exchange_for: 'the product asked for instead',
      language: STATUSES,
      photos: "the photos' kinds; their bytes go with the request's erasure",
      decided_by: 'the member who decided',
    },
  },
  {
    table: 'refunds',
    key: ['id'],
    links: [{ request: 'request_id' }, { return: 'return_id' }],
    json: ['payee'],
    text: ['failure_reason'],
    clear: ['payee_sealed'],
    kept: { status: STATUSES, method: STATUSES, release_on: STATUSES, utr: "the bank's transfer reference" },
  },
  {
    table: 'idempotency_keys',
    key: ['account_id', 'key'],
    // A booking's first answer, replayed for 24 hours, holds the order as sent.
    links: [{ holds: ['response_body'] }],
    text: ['response_body'],
    kept: { key: "the merchant's key", route: STATUSES, request_hash: 'a hash' },
  },
];

/** What goes whole rather than scrubbed: the buyer is the row's key, or its bytes cannot be read for them. */
export const DELETED_TABLES: Record<string, string> = {
  rto_history: "a buyer's RTO history is kept under their phone (kind phone): the row goes",
  return_request_photos: 'the photos a buyer sent with a return request: their bytes go',
};

/** Tables whose text and JSON hold no buyer, and why. */
export const NOT_PERSONAL: Record<string, string> = {
  access_tokens: 'hashes of credentials',
  account_exports:
    "the progress of the account's exports: counts and codes (the archives are files, deleted as they expire)",
  accounts: "the merchant's account",
  allocation_rules: "the merchant's rules",
  api_keys: "the merchant's keys",
  audit_log: "who in the merchant's team did what: never a buyer's data (tenancy/audit)",
  awb_counters: 'counters',
  carrier_tokens: 'hashes of credentials',
  channel_webhook_receipts: "ids of stores' webhooks",
  cod_discrepancies: 'AWBs and codes',
  cod_receivables: 'AWBs, codes and bank references',
  cod_remittance_imports: "a courier's file's name and format",
  cod_remittances: 'AWBs and bank references',
  confirmation_policies: "the merchant's settings",
  courier_credentials: "the merchant's courier credentials, sealed",
  courier_health: "couriers' errors",
  courier_polls: 'AWBs and codes',
  custom_roles: "the merchant's roles",
  dakiya_migrations: 'hashes',
  event_consumers: "consumers' names",
  eway_bill_gateways: "the merchant's GST Suvidha Provider's address, GSTIN and e-mail, and its credentials, sealed",
  exchange_settings: "the merchant's settings",
  exchanges: 'ids and codes (the buyer is on its orders and return)',
  members: "the merchant's team",
  messaging_channels: "the merchant's provider settings",
  ndr_rule_runs: "the merchant's rules and their outcomes",
  order_items: "the merchant's products",
  panel_sessions: 'hashes of credentials',
  paperwork_settings: "the merchant's settings",
  pickups: "couriers' references",
  return_items: "the merchant's products and their checks",
  return_policies: "the merchant's settings",
  return_request_items: "the merchant's products",
  rto_settings: "the merchant's settings",
  running_imports: "the merchant's file's name",
  sales_channels: "the merchant's stores' addresses and names",
  sandbox_parcels: 'AWBs and test scenarios',
  server_secrets: "the server's own secrets",
  shipment_boxes: "a multi-piece shipment's boxes: AWBs, couriers' references, sizes, the merchant's SKUs and statuses",
  shipment_counts: 'counts by status, zone and courier',
  shipment_daily_totals: 'counts and order values by day, store and status',
  shipment_facet_counts: 'counts by facet',
  shipment_invoices: "the merchant's invoice numbers (their prefix and sequence)",
  shipment_milestones: 'milestone names',
  shipment_monthly_totals: 'counts and order values by month, store and status',
  store_logos: "the merchant's logos",
  stores: "the merchant's brands, support contacts and seller details for tax invoices",
  two_factor_logins: "the merchant's team's second factors, sealed",
  warehouses: "the merchant's warehouses",
  webhook_attempts: "the merchant's endpoints' errors",
  webhook_deliveries: 'statuses (the body is built from the event when sent)',
  webhook_endpoints: "the merchant's endpoints",
  weight_discrepancies: "the merchant's and courier's words on a weight",
  weight_dispute_evidence: "the merchant's evidence of a parcel's weight",
};
