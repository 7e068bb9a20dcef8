import { type Static, Type } from 'typebox';
import { PERMISSION_NAMES, PERMISSIONS } from '../../domain/access/permissions.js';
import { EXAMPLE } from '../../http/examples.js';
import { Text, Uuid } from '../../http/schemas.js';

const KEY_EXAMPLE = {
  id: EXAMPLE.apiKeyId,
  prefix: 'dky_Q3v9XkP2',
  name: 'Warehouse label printer',
  scopes: ['shipments:read', 'shipments:write'],
  expires_at: '2027-03-31T18:30:00.000Z',
  created_at: '2026-11-20T06:30:00.000Z',
  revoked_at: null,
  last_used_at: '2026-11-21T08:02:00.000Z',
  stores: null,
};
const REVOKED_EXAMPLE = { ...KEY_EXAMPLE, revoked_at: '2026-11-21T09:15:00.000Z' };

const Permission = Type.String({
  enum: PERMISSION_NAMES,
  'x-error': `must be one of ${PERMISSION_NAMES.join(', ')}`,
  description: PERMISSION_NAMES.map((name) => `${name}: ${PERMISSIONS[name]}`).join(' '),
});
/** Store ids a member or a key is limited to: they see and act on those stores' orders, shipments and reports only. */
export const StoreLimit = Type.Union(
  [Type.Array(Uuid, { minItems: 1, maxItems: 100, uniqueItems: true }), Type.Null()],
  {
    'x-error': 'must be a list of 1 to 100 store ids (GET /client-stores), or null for every store',
    description:
      "The stores it sees and acts on (GET /client-stores): other stores' orders, shipments, returns and reports answer 404, and a route answering for every store at once 403 store_limited. Null: every store.",
  },
);

/** Permissions, each at most once: a key's scopes, a custom role's grants. */
export const Scopes = Type.Array(Permission, { uniqueItems: true, maxItems: PERMISSION_NAMES.length });

const keyFields = {
  id: Uuid,
  prefix: Type.String({
    description: "The key's first 12 characters, to tell keys apart; the rest is stored only as a hash.",
  }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'What the key is for, as its maker named it.' }),
  scopes: Type.Union([Scopes, Type.Null()], {
    description:
      'The permissions it holds; a route needing another answers 403 naming it. Null: every permission, as every key made before scopes.',
  }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When it stops working by itself (401 from then); null: never.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When it stopped working; null while live.',
  }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a request last came with it, to within a minute; null if it never has.',
  }),
  stores: StoreLimit,
};

export const ApiKeyListEnvelope = Type.Object(
  { data: Type.Array(Type.Object(keyFields), { description: 'Newest first, revoked ones included.' }) },
  { examples: [{ data: [KEY_EXAMPLE, REVOKED_EXAMPLE] }] },
);

export const CreatedApiKeyEnvelope = Type.Object(
  {
    data: Type.Object({
      ...keyFields,
      api_key: Type.String({
        description: 'The key itself, shown only in this answer: send it as the Authorization header.',
      }),
    }),
  },
  {
    examples: [
      { data: { ...KEY_EXAMPLE, last_used_at: null, api_key: 'dky_Q3v9XkP2n8tR4wQ1zX6cV3bM9kL2pS7dF5gJ0aE4yU8' } },
    ],
  },
);

export const NewApiKeyBody = Type.Object(
  {
    name: Type.Optional(Text(100, 'What the key is for (a printer, an ERP, a 3PL).')),
    scopes: Type.Optional({
      ...Scopes,
      description:
        "The permissions it holds, each at most once. Absent: what the credential making it holds (every one for a key without scopes or the panel). Never more than that: a permission beyond the maker's is 403 permission_denied.",
    }),
    expires_at: Type.Optional(
      Type.String({
        format: 'date-time',
        'x-error': 'must be an ISO 8601 instant, e.g. 2027-03-31T18:30:00Z',
        description: 'When it stops working by itself; in the future. Absent: never.',
      }),
    ),
    stores: Type.Optional({
      ...StoreLimit,
      description:
        "The stores it reaches. Absent: its maker's (every one for the account's login or an unlimited member). Never beyond the maker's: a store outside them is 403 permission_denied.",
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Warehouse label printer',
        scopes: ['shipments:read', 'shipments:write'],
        expires_at: '2027-03-31T18:30:00Z',
      },
    ],
  },
);
export type NewApiKeyInput = Static<typeof NewApiKeyBody>;

export const RevokedApiKeyEnvelope = Type.Object(
  { data: Type.Object(keyFields) },
  { examples: [{ data: REVOKED_EXAMPLE }] },
);

export const OwnApiKeyParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The key's id (GET /api-keys).", examples: [EXAMPLE.apiKeyId] }),
});
