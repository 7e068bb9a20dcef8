import { type Static, type TSchema, Type } from 'typebox';
import { CONNECTOR_NAMES } from '../domain/rates/catalogue.js';
import { EXAMPLE } from '../http/examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = (schema: TSchema, description: string) => Type.Union([schema, Type.Null()], { description });

export const ConnectorHealthSchema = Type.Object({
  last_success_at: Nullable(
    Timestamp,
    'The latest call the courier answered (a refusal in its words counts: it answered); null before any.',
  ),
  last_error_at: Nullable(
    Timestamp,
    'The latest call that failed: no answer in time, no connection, HTTP 5xx, an answer that could not be read, 429, or refused credentials.',
  ),
  last_error: Nullable(
    Type.String(),
    'What went wrong then, in our words (HTTP 503, no answer within 10000 ms); never the request or credentials.',
  ),
  token_expires_at: Nullable(
    Timestamp,
    'When the access token the connector holds runs out, for couriers that trade credentials for a token; null for a fixed API key (Delhivery).',
  ),
});

export const CourierConnection = Type.Object({
  carrier_id: Type.String({ description: 'The courier service, as /carriers lists it and bookings name it.' }),
  name: Type.String(),
  code: Type.String(),
  service_level: Type.Union([Type.Literal('surface'), Type.Literal('air')]),
  connector: Type.Enum([...CONNECTOR_NAMES], {
    description:
      'How Dakiya talks to the courier: push (the courier posts its scans to /carrier/v1; Dakiya never calls it), sandbox (simulated ' +
      'by Dakiya itself, test bookings), delhivery, ekart, xpressbees, shadowfax (each courier\'s API). docs/couriers.md, "Connectors".',
  }),
  credentials: Type.Union([Type.Literal('account'), Type.Literal('configured'), Type.Literal('not_needed')], {
    description:
      "account: your own credentials for the courier's API (PUT /courier-connections/{connector}/credentials) are used for your parcels; " +
      "configured: the server's (DELHIVERY_API_TOKEN, EKART_*, XPRESSBEES_*, SHADOWFAX_TOKEN); not_needed: push and sandbox call no courier API.",
  }),
  credentials_updated_at: Nullable(
    Timestamp,
    "When you last set your own credentials for this connector; null on the server's.",
  ),
  test_bookings: Type.Boolean({
    description:
      'Its AWBs are issued by no courier (sandbox, push without an allotted AWB series, or a courier API connector the operator ' +
      "pointed at a local simulator of the courier's API, as npm run demo does): bookings are test bookings.",
  }),
  health: Type.Union([ConnectorHealthSchema, Type.Null()], {
    description:
      "The calls lately made with these credentials (yours, or the server's shared by every account on them), over every process on this " +
      'database and shared by the services on one connector; null for push, which Dakiya never calls.',
  }),
  kept_scans: Type.Integer({
    minimum: 0,
    description:
      'Scans this courier sent for your parcels that Dakiya could not apply (a code no table reads, a move the status machine does not take, a time too long before the booking), kept as sent: GET /kept-scans lists them, POST /kept-scans/replay reads them again.',
  }),
});

export type CourierConnectionView = Static<typeof CourierConnection>;

const DELHIVERY = {
  carrier_id: 'CARDELHSURF01',
  name: 'Delhivery Surface',
  code: 'delhivery-surface',
  service_level: 'surface',
  connector: 'delhivery',
  credentials: 'account',
  credentials_updated_at: '2026-11-21T09:30:00.000Z',
  test_bookings: false,
  health: {
    last_success_at: '2026-11-22T04:12:09.000Z',
    last_error_at: '2026-11-22T03:58:41.000Z',
    last_error: 'HTTP 503',
    token_expires_at: null,
  },
  kept_scans: 2,
};
const PUSH = {
  carrier_id: 'CARSHFXSTD001',
  name: 'Shadowfax Standard',
  code: 'shadowfax-standard',
  service_level: 'surface',
  connector: 'push',
  credentials: 'not_needed',
  credentials_updated_at: null,
  test_bookings: true,
  health: null,
  kept_scans: 0,
};

export const CourierConnectionsEnvelope = Type.Object(
  {
    data: Type.Array(CourierConnection, {
      description: 'Every courier service of the catalogue, in its order: the account books with any of them.',
    }),
  },
  { examples: [{ data: [DELHIVERY, PUSH] }] },
);

export const ConnectorParams = Type.Object({
  connector: Type.String({
    maxLength: 32,
    description: 'The courier API: delhivery, ekart, xpressbees or shadowfax.',
    examples: [EXAMPLE.courierApi],
  }),
});

const Secret = (description: string) => Type.Optional(Type.String({ maxLength: 500, description }));

export const CredentialsBody = Type.Object(
  {
    api_token: Secret('Delhivery: the API token; Shadowfax: the API key (sent as Token <key>).'),
    client_id: Secret('Ekart: the client id it gave you.'),
    username: Secret('Ekart: the API user.'),
    email: Secret('Xpressbees: the login e-mail.'),
    password: Secret("Ekart's or Xpressbees' password."),
    order_type: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          "Shadowfax, optional: warehouse or marketplace, the order type Shadowfax set this account up for; absent, the server's SHADOWFAX_ORDER_TYPE.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "The connector's own fields, each required for it and no other: delhivery and shadowfax api_token; ekart client_id, username, password; xpressbees email, password. Shadowfax also takes an optional order_type.",
    examples: [{ client_id: 'EKART_68a1f2c3', username: 'ops@chaipoint.example', password: 'ek-pass-7c21d9e04b' }],
  },
);

export const CredentialsEnvelope = Type.Object(
  {
    data: Type.Object({
      connector: Type.String(),
      credentials: Type.Literal('account'),
      fields: Type.Array(Type.String(), {
        description: 'The fields stored, sealed; their values are never shown again.',
      }),
      updated_at: Timestamp,
    }),
  },
  {
    examples: [
      {
        data: {
          connector: 'ekart',
          credentials: 'account',
          fields: ['client_id', 'username', 'password'],
          updated_at: '2026-11-21T09:30:00.000Z',
        },
      },
    ],
  },
);

export const ForgottenEnvelope = Type.Object(
  { data: Type.Object({ connector: Type.String(), credentials: Type.Literal('configured') }) },
  { examples: [{ data: { connector: 'ekart', credentials: 'configured' } }] },
);
