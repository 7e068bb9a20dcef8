import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { Uuid } from '../../http/schemas.js';

const KEY_EXAMPLE = {
  id: EXAMPLE.apiKeyId,
  prefix: 'dky_Q3v9XkP2',
  created_at: '2026-11-20T06:30:00.000Z',
  revoked_at: null,
  last_used_at: '2026-11-21T08:02:00.000Z',
};
const REVOKED_EXAMPLE = { ...KEY_EXAMPLE, revoked_at: '2026-11-21T09:15:00.000Z' };

const keyFields = {
  id: Uuid,
  prefix: Type.String({
    description: "The key's first 12 characters, to tell keys apart; the rest is stored only as a hash.",
  }),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When it stopped working; null while live.',
  }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When a request last came with it, to within a minute; null if it never has.',
  }),
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

export const RevokedApiKeyEnvelope = Type.Object(
  { data: Type.Object(keyFields) },
  { examples: [{ data: REVOKED_EXAMPLE }] },
);

export const OwnApiKeyParams = Type.Object({
  id: Type.String({ format: 'uuid', description: "The key's id (GET /api-keys).", examples: [EXAMPLE.apiKeyId] }),
});
