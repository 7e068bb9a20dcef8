import { Type } from 'typebox';
import { EXAMPLE } from '../../http/examples.js';
import { INDIAN_MOBILE_PATTERN } from '../../domain/geo/phone.js';
import { SenderName, Uuid } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

/** Customers' e-mails come from it where a store has no brand_name. */
export const AccountName = SenderName(200);
export const Username = Type.String({
  minLength: 3,
  maxLength: 64,
  pattern: `^(?:[A-Za-z0-9._@-]+|${INDIAN_MOBILE_PATTERN})$`,
  'x-error': 'must be an Indian mobile number (+919876543210) or 3 to 64 letters, digits or . _ @ -',
  description:
    "Velocity's username is the mobile number with its country code. An Indian mobile number written as " +
    '`+919876543210`, `919876543210`, `09876543210` or `9876543210` (spaces and hyphens allowed) is stored as ' +
    '`+919876543210`; any other username is 3 to 64 letters, digits or `. _ @ -`, unique ignoring case.',
  examples: ['+919876543210', 'acme.ops'],
});
export const Password = Type.String({ minLength: 8, maxLength: 200, 'x-error': 'must be 8 to 200 characters' });

export const AuthTokenBody = Type.Object(
  {
    username: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "The account's username. A mobile number may be sent as `+919876543210`, `919876543210`, `09876543210` or " +
        '`9876543210`: all four name the same account.',
      examples: ['+919876543210'],
    }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false, examples: [{ username: EXAMPLE.username, password: EXAMPLE.password }] },
);

export const AuthTokenResponse = Type.Object(
  {
    token: Type.String({
      description: 'Send as "Authorization: Bearer <token>" (or bare). Valid for 24 hours.',
      examples: ['dkt_0Fq3m9yXo1c2Vb7Qe4rT6uI8pA5sD3fG1hJ9kL2zX0w'],
    }),
    expires_at: Type.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$',
      description: 'When the token expires, in India time without an offset, as Velocity writes it.',
      examples: ['2026-11-21T12:00:00'],
    }),
    expires_at_utc: Type.String({
      format: 'date-time',
      description: 'The same instant in UTC (ISO 8601), for clients that want an unambiguous time.',
      examples: ['2026-11-21T06:30:00.000Z'],
    }),
  },
  {
    description: "A new access token, answered as Velocity's `{token, expires_at}` with the UTC instant added.",
    examples: [
      {
        token: 'dkt_0Fq3m9yXo1c2Vb7Qe4rT6uI8pA5sD3fG1hJ9kL2zX0w',
        expires_at: '2026-11-21T12:00:00',
        expires_at_utc: '2026-11-21T06:30:00.000Z',
      },
    ],
  },
);

export const CreateAccountBody = Type.Object(
  {
    name: AccountName,
    username: Type.Optional(Username),
    password: Type.Optional(Password),
  },
  {
    additionalProperties: false,
    // A panel login is both or neither (accounts.service.ts checks it).
    ...statedRule({ dependentRequired: { username: ['password'], password: ['username'] } }),
    examples: [{ name: 'Acme Retail', username: EXAMPLE.username, password: EXAMPLE.password }],
  },
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

export const RevokedTokenResponse = Type.Object(
  {
    message: Type.String(),
    revoked_at: Type.String({ format: 'date-time', description: 'When the token stopped working (UTC).' }),
  },
  { examples: [{ message: 'Access token revoked', revoked_at: '2026-11-20T06:30:00.000Z' }] },
);

export const AccountIdParams = Type.Object({
  id: { ...Uuid, description: "The account's id.", examples: [EXAMPLE.accountId] },
});
export const ApiKeyParams = Type.Object({
  key_prefix_or_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "The key's id, or its first 12 characters.",
    examples: [EXAMPLE.apiKeyId, 'dky_Q3v9XkP2'],
  }),
});

const API_KEY = 'dky_Q3v9XkP2mL7sT1wZ4rY8uN6bC0dF5gH2jK9aE3xV7q';
export const CREATED_ACCOUNT_EXAMPLE = {
  data: { id: EXAMPLE.accountId, name: 'Acme Retail', username: EXAMPLE.username },
  api_key: API_KEY,
  api_key_id: EXAMPLE.apiKeyId,
};
export const API_KEY_EXAMPLE = {
  api_key: 'dky_Hn4tR8wQ1zX6cV3bM9kL2pS7dF5gJ0aE4yU8iO1rT6',
  api_key_id: '1c9e7a5b-3d2f-4e8a-9b6c-0d4f2a8e6c1b',
};
export const REVOKED_KEY_EXAMPLE = {
  data: { id: EXAMPLE.apiKeyId, prefix: 'dky_Q3v9XkP2', revoked_at: '2026-11-20T06:30:00.000Z' },
};
