import { type Static, Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Nullable, Positive, Uuid } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

// The sales channels' bodies and answers (/custom/api/v1/channels).

const Timestamp = Type.String({ format: 'date-time' });

/** The credentials each platform's connection needs. */
export const REQUIRED_CREDENTIALS = {
  shopify: ['shop_domain', 'access_token', 'webhook_secret'],
  woocommerce: ['site_url', 'consumer_key', 'consumer_secret', 'webhook_secret'],
} as const;
/** A token or key goes into a header as it is: printable ASCII, no spaces (tokens and keys are never otherwise). */
const Secret = (max: number, description: string) =>
  Type.String({
    minLength: 1,
    maxLength: max,
    pattern: '^[\\x21-\\x7E]+$',
    'x-error': 'must be printable ASCII without spaces, as the store shows it',
    description,
  });
/** A webhook secret is the text the store signs with, whatever its characters; not blank. */
const WebhookSecret = (description: string) =>
  Type.String({ minLength: 1, maxLength: 256, pattern: '\\S', 'x-error': 'must not be blank', description });

const OnImport = Type.Union([Type.Literal('queue'), Type.Literal('book')], {
  description:
    "What happens to an imported order: `queue` (default) waits for the merchant to book it (the panel, or POST /forward-order-shipment); `book` books it at once through the account's allocation rules.",
});
const NotifyCustomer = Type.Boolean({
  description:
    "Whether the store e-mails the buyer when Dakiya writes the fulfilment back (Shopify's notifyCustomer). Off by default, since Dakiya's own e-mails and messages tell the buyer.",
});
const DefaultWeight = Positive(
  500,
  'kg',
  'The weight (kg) an order ships at when any of its items has no weight in the store; without it such an order is refused (weight unknown) until fixed.',
);
const Side = (what: string) => Positive(500, 'cm', `The parcel's ${what} in centimetres; 10 by default.`);

const Settings = {
  warehouse_id: Type.Optional(
    Type.String({
      maxLength: 64,
      description: "The warehouse the channel's orders ship from. Optional when the account has one warehouse.",
    }),
  ),
  on_import: Type.Optional(OnImport),
  notify_customer: Type.Optional(NotifyCustomer),
  default_weight: Type.Optional(DefaultWeight),
  length: Type.Optional(Side('length')),
  breadth: Type.Optional(Side('breadth')),
  height: Type.Optional(Side('height')),
};

export const ConnectBody = Type.Object(
  {
    channel: Type.Union([Type.Literal('shopify'), Type.Literal('woocommerce')], {
      description: 'The platform: shopify or woocommerce.',
    }),
    store_name: Type.Optional(
      Type.String({ maxLength: 64, description: 'The store (POST /client-stores) whose orders these are, by name.' }),
    ),
    store_id: Type.Optional(
      Type.String({ maxLength: 64, description: 'The same store by id; store_name or store_id.' }),
    ),
    shop_domain: Type.Optional(
      Type.String({
        maxLength: 255,
        ...statedRule({
          pattern: '^(https?://)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+/?$',
        }),
        description:
          'shopify: the shop\'s myshopify.com domain ("acme.myshopify.com"): Settings → Domains in the admin.',
      }),
    ),
    access_token: Type.Optional(
      Secret(
        512,
        "shopify: the custom app's Admin API access token (shpat_…): Settings → Apps and sales channels → Develop apps → the app → API credentials. Scopes: read_orders, write_orders, read_merchant_managed_fulfillment_orders, write_merchant_managed_fulfillment_orders. Stored sealed, never answered.",
      ),
    ),
    site_url: Type.Optional(
      Type.String({
        maxLength: 512,
        ...statedRule({ format: 'uri', pattern: '^https?://[^/?#@\\s]+' }),
        description:
          "woocommerce: the WordPress site's address (https://shop.example.in). It goes through the outbound guard: https, and no private or local address unless the server allows them (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE).",
      }),
    ),
    consumer_key: Type.Optional(
      Secret(
        256,
        'woocommerce: the REST API key (ck_…): WooCommerce → Settings → Advanced → REST API → Add key, with Read/Write permission. Stored sealed, never answered.',
      ),
    ),
    consumer_secret: Type.Optional(Secret(256, "woocommerce: the key's secret (cs_…). Stored sealed, never answered.")),
    webhook_secret: Type.Optional(
      WebhookSecret(
        "The secret the store signs its webhooks with: shopify, the app's API secret key (the same API credentials page); woocommerce, the Secret of each webhook you add (WooCommerce → Settings → Advanced → Webhooks). Stored sealed, never answered.",
      ),
    ),
    register_webhooks: Type.Optional(
      Type.Boolean({
        description:
          "Whether Dakiya subscribes webhook_url to the store's order webhooks itself (Shopify webhookSubscriptionCreate, WooCommerce POST /webhooks), signed with webhook_secret. On by default; where the store will not (Shopify sends to https only), the answer's webhook_error says why and you add them by hand.",
      }),
    ),
    ...Settings,
  },
  {
    additionalProperties: false,
    // Which credentials each platform needs, and that the store is named: checked by the service
    // (every missing field named at once), stated here for clients' validators.
    ...statedRule({
      // if/then rather than anyOf, which the panel's generated types read as `unknown`.
      allOf: [
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
        { if: { not: { required: ['store_id'] } }, then: { required: ['store_name'] } },
        ...Object.entries(REQUIRED_CREDENTIALS).map(([channel, required]) => ({
          if: { properties: { channel: { const: channel } } },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
          then: { required, properties: Object.fromEntries(required.map((field) => [field, { minLength: 1 }])) },
        })),
      ],
    }),
  },
);
export type ConnectInput = Static<typeof ConnectBody>;

export const SettingsBody = Type.Object(
  { ...Settings, default_weight: Type.Optional(Nullable(DefaultWeight)) },
  { additionalProperties: false },
);
export type ChannelSettingsInput = Static<typeof SettingsBody>;

const ChannelId = Type.String({ maxLength: 64, description: 'The sales channel id.', examples: [EXAMPLE.channelId] });
export const ChannelParams = Type.Object({ id: ChannelId });
export const ChannelOrderParams = Type.Object({
  id: ChannelId,
  channel_order_id: Type.String({
    maxLength: 64,
    description: "The store's id of the order.",
    examples: [EXAMPLE.channelOrderId],
  }),
});
const STATES = ['pending', 'imported', 'refused', 'skipped', 'cancelled', 'cancel_flagged'] as const;
export const LedgerQuery = Type.Object({
  state: Type.Optional(
    Type.Union(
      STATES.map((state) => Type.Literal(state)),
      { description: 'Only the orders in this state; `refused` lists the import problems.' },
    ),
  ),
});

export const ChannelView = Type.Object({
  id: Uuid,
  channel: Type.String({ description: 'shopify or woocommerce.' }),
  store_id: Uuid,
  store_name: Nullable(Type.String()),
  shop_name: Type.String({ description: 'The name the store gave when its credentials were checked.' }),
  shop_domain: Nullable(Type.String({ description: 'shopify: the shop.' })),
  site_url: Nullable(Type.String({ description: 'woocommerce: the site.' })),
  warehouse_id: Uuid,
  status: Type.String({ description: 'connected, or disconnected (takes no more orders; imported ones stay).' }),
  on_import: OnImport,
  notify_customer: NotifyCustomer,
  default_weight: Nullable(Type.Number({ description: 'kg.' })),
  length: Type.Number(),
  breadth: Type.Number(),
  height: Type.Number(),
  webhook_url: Type.String({
    description:
      "Where the store posts its webhooks: paste it into the store (Shopify: Settings → Notifications → Webhooks, topics orders/create, orders/updated, orders/cancelled, JSON; WooCommerce: Settings → Advanced → Webhooks, topics Order created, updated and deleted, with the webhook secret above). A post without the store's signature is a 401 and changes nothing.",
  }),
  webhook_topics: Type.Array(Type.String()),
  webhooks_registered: Type.Boolean({
    description: 'Whether Dakiya subscribed webhook_url to those topics in the store itself; if not, add them by hand.',
  }),
  webhook_error: Nullable(
    Type.String({ description: "Why the store would not take Dakiya's webhook subscriptions, when it would not." }),
  ),
  last_synced_at: Nullable(Timestamp),
  last_error: Nullable(
    Type.String({ description: 'The last failure talking to the store (a pull, a write-back), for the health view.' }),
  ),
  last_error_at: Nullable(Timestamp),
  counts: Type.Object(
    {
      imported: Type.Integer(),
      refused: Type.Integer(),
      pending: Type.Integer(),
      skipped: Type.Integer(),
      cancelled: Type.Integer(),
      cancel_flagged: Type.Integer(),
    },
    { description: 'The store orders the channel has seen, by what became of them.' },
  ),
  created_at: Timestamp,
  disconnected_at: Nullable(Timestamp),
});
export type ChannelViewBody = Static<typeof ChannelView>;

export const LedgerView = Type.Object({
  channel_order_id: Type.String({ description: "The store's id of the order." }),
  channel_order_name: Type.String({ description: 'What the store calls it ("#1001").' }),
  state: Type.String({ description: `One of ${STATES.join(', ')}.` }),
  reason: Nullable(Type.String({ description: 'Why it was refused, skipped or flagged.' })),
  fields: Nullable(
    Type.Array(Type.String(), { description: 'The order fields a refusal named: fix them in the store.' }),
  ),
  order_id: Nullable(Uuid),
  shipment_id: Nullable(Uuid),
  cancelled_in_store: Type.Boolean(),
  first_seen_at: Timestamp,
  updated_at: Timestamp,
});
export type LedgerViewBody = Static<typeof LedgerView>;

export const ChannelEnvelope = Type.Object({ data: ChannelView });
export const ChannelListEnvelope = Type.Object({ data: Type.Array(ChannelView) });
export const LedgerEnvelope = Type.Object({ data: Type.Array(LedgerView) });
export const LedgerRowEnvelope = Type.Object({ data: LedgerView });

export const SHOPIFY_CONNECT_EXAMPLE = {
  channel: 'shopify',
  store_name: EXAMPLE.storeName,
  shop_domain: 'acme-online.myshopify.com',
  access_token: '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',
  webhook_secret: '7d1f3b5a9c2e4f6a8b0c1d2e3f4a5b6c',
  warehouse_id: EXAMPLE.warehouseId,
};
export const WOOCOMMERCE_CONNECT_EXAMPLE = {
  channel: 'woocommerce',
  store_name: EXAMPLE.storeName,
  site_url: EXAMPLE.wooSiteUrl,
  consumer_key: 'ck_4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b1a2f3e',
  consumer_secret: 'cs_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b',
  webhook_secret: 'Wc5-webhook-secret-9f8e7d',
  warehouse_id: EXAMPLE.warehouseId,
  on_import: 'book',
  default_weight: 0.5,
};

/** The Shopify example's channel, as POST /channels answers it. */
export const CHANNEL_EXAMPLE = {
  id: EXAMPLE.channelId,
  channel: 'shopify',
  store_id: EXAMPLE.storeId,
  store_name: EXAMPLE.storeName,
  shop_name: 'Acme Online',
  shop_domain: 'acme-online.myshopify.com',
  site_url: null,
  warehouse_id: EXAMPLE.warehouseId,
  status: 'connected',
  on_import: 'queue',
  notify_customer: false,
  default_weight: null,
  length: 10,
  breadth: 10,
  height: 10,
  webhook_url: `https://dakiya.example.in/public/v1/channels/${EXAMPLE.channelId}/webhook`,
  webhook_topics: ['orders/create', 'orders/updated', 'orders/cancelled'],
  webhooks_registered: true,
  webhook_error: null,
  last_synced_at: '2026-11-20T06:31:04.000Z',
  last_error: null,
  last_error_at: null,
  counts: { imported: 41, refused: 1, pending: 0, skipped: 3, cancelled: 2, cancel_flagged: 0 },
  created_at: '2026-11-20T06:30:00.000Z',
  disconnected_at: null,
};
/** A store order the channel refused, as the ledger lists it. */
export const LEDGER_ROW_EXAMPLE = {
  channel_order_id: EXAMPLE.channelOrderId,
  channel_order_name: '#1042',
  state: 'refused',
  reason: 'billing_phone is required',
  fields: ['billing_phone'],
  order_id: null,
  shipment_id: null,
  cancelled_in_store: false,
  first_seen_at: '2026-11-20T06:31:02.000Z',
  updated_at: '2026-11-20T06:31:02.000Z',
};
