import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { NOTIFY_EVENTS } from '../../domain/shipment/notify-events.js';
import { EMAIL_ADDRESS, NO_HIDDEN, NO_HIDDEN_ERROR, ONE_LINE, Uuid } from '../../http/schemas.js';
import { LOGO_MAX_SIDE } from './logo.js';
import { statedRule } from '../../http/stated-rules.js';
import { LANGUAGES } from '../../domain/buyer-copy/page-words.js';

export const STORE_NAME_PATTERN = '^[A-Za-z0-9-]{1,64}$';

const StoreName = Type.String({
  pattern: STORE_NAME_PATTERN,
  description: 'Letters, digits and hyphens, 1 to 64 characters; unique per account, ignoring case.',
  'x-error': 'must be 1 to 64 characters of letters, digits and hyphens only',
  examples: [EXAMPLE.storeName],
});
const BrandName = Type.String({
  // Trimmed, 1 to 100 characters: starts and ends (after outer white space) with a visible
  // character; on one line and without hidden characters (it is an e-mail's sender name and a page's heading).
  pattern: `(?=${ONE_LINE})(?=${NO_HIDDEN})^\\s*\\S(?:[\\s\\S]{0,98}\\S)?\\s*$`,
  maxLength: 1000,
  description:
    "Shown to customers in tracking and delivery messages and as the e-mails' sender. Trimmed; 1 to 100 characters on one line, " +
    'without bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) or zero-width characters (U+200B–U+200D, U+2060, U+FEFF).',
  'x-error': `must be 1 to 100 characters on one line, not blank, ${NO_HIDDEN_ERROR}`,
});
const LOGO_RULES = `PNG, JPEG, WebP or GIF, at most 2 MiB and ${LOGO_MAX_SIDE}x${LOGO_MAX_SIDE} pixels; it must decode.`;
const JsonLogo = Type.String({
  description: `The image as base64 (a data: URL is accepted). ${LOGO_RULES}`,
  contentEncoding: 'base64',
});
const FileLogo = Type.String({ format: 'binary', description: LOGO_RULES });
const SupportEmail = Type.String({
  maxLength: 254,
  // Spaces around are trimmed; the address itself is Email's (http/schemas.ts), as it becomes a Reply-To header.
  pattern: `^ *${EMAIL_ADDRESS} *$`,
  'x-error': 'must be an e-mail address',
  description: "The merchant's support address, shown to customers on the tracking page and in e-mails.",
  examples: ['help@acmeapparel.in'],
});
const SupportPhone = Type.String({
  // 8 to 15 digits, with the spaces, hyphens, brackets and leading + people write numbers with.
  pattern: '^\\+?[0-9][0-9 ()-]{6,22}[0-9]$',
  maxLength: 24,
  // The digits' count, which the service checks (stores.service.ts), stated for clients.
  ...statedRule({ pattern: '^(?=(?:[^0-9]*[0-9]){8,15}[^0-9]*$)\\+?[0-9][0-9 ()-]{6,22}[0-9]$' }),
  'x-error': 'must be a phone number: 8 to 15 digits, with spaces, hyphens, brackets or a leading + allowed',
  description: "The merchant's support number, shown to customers (a mobile, landline or toll-free number).",
  examples: ['1800-123-4567'],
});
const NotifyEventName = Type.Union(
  NOTIFY_EVENTS.map((event) => Type.Literal(event)),
  { 'x-error': `must name only ${NOTIFY_EVENTS.join(', ')}` },
);
const JsonNotifyEvents = Type.Array(NotifyEventName, {
  maxItems: NOTIFY_EVENTS.length,
  uniqueItems: true,
  'x-error': `must list distinct values among ${NOTIFY_EVENTS.join(', ')}`,
  description: 'Which e-mails customers of this store get; [] sends none. Default: all of them.',
  examples: [['shipped', 'out_for_delivery', 'delivered', 'ndr_raised', 'rto_delivered']],
});
const FormNotifyEvents = Type.String({
  maxLength: 200,
  pattern: `^\\s*((${NOTIFY_EVENTS.join('|')})\\s*(,\\s*(${NOTIFY_EVENTS.join('|')})\\s*)*)?$`,
  'x-error': `must be a comma-separated list of ${NOTIFY_EVENTS.join(', ')} (empty for none)`,
  description: 'Comma-separated (a form field is text): "shipped,delivered"; empty sends none.',
  examples: ['shipped,out_for_delivery,delivered'],
});

const BuyerLanguage = Type.String({
  enum: [...LANGUAGES],
  'x-error': `must be one of ${LANGUAGES.join(', ')}`,
  description:
    "The language this store's buyers read its tracking pages in (en, hi, mr, bn, gu, ta, te, kn or ml), over their browsers' " +
    "and their shipping state's; a buyer's own choice on the page (?lang, or the one they last picked) still wins, and an " +
    "order's own `language` wins over it. Unset (null): no preference.",
  examples: ['hi'],
});

const Restore = Type.Literal('connected', {
  description: '"connected" restores a disconnected store: it is listed and takes orders again. DELETE disconnects.',
  'x-error': 'must be "connected" (DELETE /client-stores/:id disconnects a store)',
});

const orNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, nullable: boolean) =>
  nullable ? Type.Union([schema, Type.Null()]) : schema;

const storeBody = (
  required: boolean,
  logo: typeof JsonLogo | typeof FileLogo,
  notifyEvents: typeof JsonNotifyEvents | typeof FormNotifyEvents,
  nullable: boolean,
  examples: object[],
) =>
  Type.Object(
    {
      store_name: required ? StoreName : Type.Optional(StoreName),
      brand_name: Type.Optional(orNull(BrandName, nullable)),
      logo: Type.Optional(orNull(logo, nullable)),
      support_email: Type.Optional(orNull(SupportEmail, nullable)),
      support_phone: Type.Optional(orNull(SupportPhone, nullable)),
      notify_events: Type.Optional(notifyEvents),
      language: Type.Optional(orNull(BuyerLanguage, nullable)),
      // Only an update restores: a new store is connected.
      ...(!required && { status: Type.Optional(Restore) }),
    },
    { additionalProperties: false, examples },
  );

// JSON may send null to clear brand_name or logo; a multipart form can only send values.
const CREATE_EXAMPLE = {
  store_name: EXAMPLE.storeName,
  brand_name: 'Acme Apparel',
  support_email: 'help@acmeapparel.in',
  support_phone: '1800-123-4567',
  notify_events: [...NOTIFY_EVENTS],
};
export const CreateStoreBody = {
  content: {
    'application/json': { schema: storeBody(true, JsonLogo, JsonNotifyEvents, false, [CREATE_EXAMPLE]) },
    'multipart/form-data': {
      schema: storeBody(true, FileLogo, FormNotifyEvents, false, [
        { ...CREATE_EXAMPLE, notify_events: 'shipped,delivered' },
      ]),
    },
  },
};
export const UpdateStoreBody = {
  content: {
    'application/json': {
      schema: storeBody(false, JsonLogo, JsonNotifyEvents, true, [
        { support_phone: null, notify_events: ['delivered', 'ndr_raised'], language: 'hi' },
      ]),
    },
    'multipart/form-data': { schema: storeBody(false, FileLogo, FormNotifyEvents, false, [{ notify_events: '' }]) },
  },
};

const STORE_EXAMPLE = {
  id: EXAMPLE.storeId,
  store_name: EXAMPLE.storeName,
  brand_name: 'Acme Apparel',
  channel: 'manual_order',
  status: 'connected',
  logo_url: `https://ship.acme.example/public/v1/store-logos/${EXAMPLE.storeId}?v=${EXAMPLE.logoVersion}`,
  tracking_page_url: `https://ship.acme.example/track/${EXAMPLE.storeId}`,
  support_email: 'help@acmeapparel.in',
  support_phone: '1800-123-4567',
  notify_events: [...NOTIFY_EVENTS],
  language: null,
  created_at: '2026-11-20T06:30:00.000Z',
  updated_at: '2026-11-20T06:30:00.000Z',
};
export const STORE_EXAMPLES = {
  one: { data: STORE_EXAMPLE },
  list: { data: [STORE_EXAMPLE] },
  created: { data: { ...STORE_EXAMPLE, logo_url: null } },
  updated: { data: { ...STORE_EXAMPLE, brand_name: 'Acme Apparel India', updated_at: '2026-11-21T09:15:00.000Z' } },
  disconnected: { data: { ...STORE_EXAMPLE, status: 'disconnected', updated_at: '2026-11-21T09:15:00.000Z' } },
};

export interface StoreInput {
  store_name?: string;
  brand_name?: string | null;
  logo?: string | null;
  support_email?: string | null;
  support_phone?: string | null;
  /** An array in JSON, comma-separated text in a form. */
  notify_events?: string[] | string;
  language?: string | null;
  /** Update only: restores a disconnected store. */
  status?: 'connected';
}

export const Store = Type.Object(
  {
    id: Uuid,
    store_name: Type.String(),
    brand_name: Type.Union([Type.String(), Type.Null()]),
    channel: Type.Union([Type.Literal('manual_order'), Type.Literal('shopify'), Type.Literal('woocommerce')], {
      description:
        'manual_order, or the sales channel connected to the store (POST /channels): shopify or woocommerce.',
    }),
    status: Type.Union([Type.Literal('connected'), Type.Literal('disconnected')]),
    logo_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: 'Public URL of the logo (customers see it, so no credential is needed), or null.',
    }),
    tracking_page_url: Type.String({
      format: 'uri',
      description:
        "The store's tracking page (PUBLIC_BASE_URL/track/<id>): its brand and logo, where a buyer enters an AWB, or an order id " +
        "and the order's phone number, to reach that shipment's page. Public, like the logo; 404 while the store is disconnected.",
    }),
    support_email: Type.Union([Type.String(), Type.Null()], { description: 'Shown to customers; null when not set.' }),
    support_phone: Type.Union([Type.String(), Type.Null()], { description: 'Shown to customers; null when not set.' }),
    notify_events: Type.Array(Type.String(), {
      description: `The customer e-mails this store sends, in the order ${NOTIFY_EVENTS.join(', ')}.`,
    }),
    language: Type.Union([Type.String({ enum: [...LANGUAGES] }), Type.Null()], {
      description: "The language of the store's tracking pages over the buyer's browser; null when not set.",
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'Store',
    examples: [
      {
        id: '3b9e2f4a-7c1d-4e8b-9a6f-2d5c8b1e0f37',
        store_name: EXAMPLE.storeName,
        brand_name: 'Acme Apparel',
        channel: 'manual_order',
        status: 'connected',
        logo_url:
          'https://ship.example.in/public/v1/store-logos/3b9e2f4a-7c1d-4e8b-9a6f-2d5c8b1e0f37?v=9f86d081884c7d65',
        tracking_page_url: 'https://ship.example.in/track/3b9e2f4a-7c1d-4e8b-9a6f-2d5c8b1e0f37',
        support_email: 'help@acmeapparel.in',
        support_phone: '1800-123-4567',
        notify_events: [...NOTIFY_EVENTS],
        language: null,
        created_at: '2026-11-20T06:30:00.000Z',
        updated_at: '2026-11-20T06:30:00.000Z',
      },
    ],
  },
);

export const StoreEnvelope = Type.Object({ data: Type.Ref('Store') });
export const StoreListEnvelope = Type.Object({ data: Type.Array(Type.Ref('Store')) });
const StoreId = { ...Uuid, description: "The store's id.", examples: [EXAMPLE.storeId] };
export const StoreIdParams = Type.Object({ id: StoreId });
export const LogoParams = Type.Object({ id: StoreId });
// Other query parameters are ignored, not refused: mail tools append tracking parameters to images.
export const LogoQuery = Type.Object({
  v: Type.Optional(
    Type.String({ maxLength: 64, description: 'Content version; set by logo_url.', examples: [EXAMPLE.logoVersion] }),
  ),
});
