import { Type } from 'typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'UUID.' });

export const AccountName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', 'x-error': 'must be 1 to 200 characters, not blank' });
export const Username = Type.String({
  minLength: 3,
  maxLength: 64,
  pattern: '^[A-Za-z0-9._@-]+$',
  'x-error': 'must be 3 to 64 letters, digits or . _ @ -',
});
export const Password = Type.String({ minLength: 8, maxLength: 200, 'x-error': 'must be 8 to 200 characters' });

export const AuthTokenBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const AuthTokenResponse = Type.Object({
  token: Type.String({ description: 'Send as "Authorization: Bearer <token>". Valid for 24 hours.' }),
  expires_at: Type.String({ format: 'date-time' }),
});

export const CreateAccountBody = Type.Object(
  {
    name: AccountName,
    username: Type.Optional(Username),
    password: Type.Optional(Password),
  },
  { additionalProperties: false },
);

export const AccountResponse = Type.Object({
  id: Uuid,
  name: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
});

export const CreateAccountResponse = Type.Object({
  data: AccountResponse,
  api_key: Type.String({ description: 'Shown once; only its hash is stored.' }),
  api_key_id: Uuid,
});

export const ApiKeyResponse = Type.Object({
  api_key: Type.String({ description: 'Shown once; only its hash is stored.' }),
  api_key_id: Uuid,
});

export const RevokedKeyResponse = Type.Object({
  data: Type.Object({
    id: Uuid,
    prefix: Type.String({ description: 'The first characters of the key.' }),
    revoked_at: Type.String({ format: 'date-time' }),
  }),
});

export const AccountIdParams = Type.Object({ id: Uuid });
export const ApiKeyParams = Type.Object({
  key_prefix_or_id: Type.String({ minLength: 1, maxLength: 64, description: "The key's id, or its first 12 characters." }),
});
