import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Uuid } from '../accounts/accounts.schemas.js';

export const STORE_NAME_PATTERN = '^[A-Za-z0-9-]{1,64}$';

const StoreName = Type.String({
  pattern: STORE_NAME_PATTERN,
  description: 'Letters, digits and hyphens, 1 to 64 characters; unique per account, ignoring case.',
  'x-error': 'must be 1 to 64 characters of letters, digits and hyphens only',
  examples: ['acme-apparel'],
});
const BrandName = Type.String({
  // Trimmed, 1 to 100 characters: starts and ends (after outer white space) with a visible character.
  pattern: '^\\s*\\S(?:[\\s\\S]{0,98}\\S)?\\s*$',
  maxLength: 1000,
  description: 'Shown to customers in tracking and delivery messages. Trimmed; 1 to 100 characters.',
  'x-error': 'must be 1 to 100 characters, not blank',
});
const JsonLogo = Type.String({
  description: 'The image as base64 (a data: URL is accepted). PNG, JPEG, WebP or GIF, at most 2 MiB.',
  contentEncoding: 'base64',
});
const FileLogo = Type.String({ format: 'binary', description: 'PNG, JPEG, WebP or GIF, at most 2 MiB.' });

const storeBody = (required: boolean, logo: typeof JsonLogo | typeof FileLogo, nullableLogo: boolean, example?: object) =>
  Type.Object(
    {
      store_name: required ? StoreName : Type.Optional(StoreName),
      brand_name: Type.Optional(nullableLogo ? Type.Union([BrandName, Type.Null()]) : BrandName),
      logo: Type.Optional(nullableLogo ? Type.Union([logo, Type.Null()]) : logo),
    },
    { additionalProperties: false, ...(example && { examples: [example] }) },
  );

// JSON may send null to clear brand_name or logo; a multipart form can only send values.
export const CreateStoreBody = {
  content: {
    'application/json': { schema: storeBody(true, JsonLogo, false, { store_name: EXAMPLE.storeName, brand_name: 'Acme Apparel' }) },
    'multipart/form-data': { schema: storeBody(true, FileLogo, false) },
  },
};
export const UpdateStoreBody = {
  content: {
    'application/json': { schema: storeBody(false, JsonLogo, true, { brand_name: 'Acme Apparel India' }) },
    'multipart/form-data': { schema: storeBody(false, FileLogo, false) },
  },
};

const STORE_EXAMPLE = {
  id: EXAMPLE.storeId,
  store_name: EXAMPLE.storeName,
  brand_name: 'Acme Apparel',
  channel: 'manual_order',
  status: 'connected',
  logo_url: `https://ship.acme.example/public/v1/store-logos/${EXAMPLE.storeId}?v=${EXAMPLE.logoVersion}`,
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
}

export const Store = Type.Object(
  {
    id: Uuid,
    store_name: Type.String(),
    brand_name: Type.Union([Type.String(), Type.Null()]),
    channel: Type.Literal('manual_order'),
    status: Type.Union([Type.Literal('connected'), Type.Literal('disconnected')]),
    logo_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: 'Public URL of the logo (customers see it, so no credential is needed), or null.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Store' },
);

export const StoreEnvelope = Type.Object({ data: Type.Ref('Store') });
export const StoreListEnvelope = Type.Object({ data: Type.Array(Type.Ref('Store')) });
const StoreId = { ...Uuid, description: "The store's id.", examples: [EXAMPLE.storeId] };
export const StoreIdParams = Type.Object({ id: StoreId });
export const LogoParams = Type.Object({ id: StoreId });
// Other query parameters are ignored, not refused: mail tools append tracking parameters to images.
export const LogoQuery = Type.Object({
  v: Type.Optional(Type.String({ maxLength: 64, description: 'Content version; set by logo_url.', examples: [EXAMPLE.logoVersion] })),
});
