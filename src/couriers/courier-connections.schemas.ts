import { type Static, type TSchema, Type } from 'typebox';
import { CONNECTOR_NAMES } from '../domain/rates/catalogue.js';

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = (schema: TSchema, description: string) => Type.Union([schema, Type.Null()], { description });

export const ConnectorHealthSchema = Type.Object({
  last_success_at: Nullable(Timestamp, 'The latest call the courier answered (a refusal in its words counts: it answered); null before any.'),
  last_error_at: Nullable(Timestamp, 'The latest call that failed: no answer in time, no connection, HTTP 5xx, an answer that could not be read, 429, or refused credentials.'),
  last_error: Nullable(Type.String(), 'What went wrong then, in our words (HTTP 503, no answer within 10000 ms); never the request or credentials.'),
  token_expires_at: Nullable(Timestamp, 'When the access token the connector holds runs out, for couriers that trade credentials for a token; null for a fixed API key (Delhivery).'),
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
  credentials: Type.Union([Type.Literal('configured'), Type.Literal('not_needed')], {
    description: "configured: the server holds the courier API's credentials (DELHIVERY_API_TOKEN, EKART_*, XPRESSBEES_*, SHADOWFAX_TOKEN); not_needed: push and sandbox call no courier API.",
  }),
  test_bookings: Type.Boolean({ description: 'Its AWBs are issued by no courier (sandbox, or push without an allotted AWB series): bookings are test bookings.' }),
  health: Type.Union([ConnectorHealthSchema, Type.Null()], {
    description: "The connector's calls lately, over every process on this database (shared by the services on one connector); null for push, which Dakiya never calls.",
  }),
});

export type CourierConnectionView = Static<typeof CourierConnection>;

const DELHIVERY = {
  carrier_id: 'CARDELHSURF01',
  name: 'Delhivery Surface',
  code: 'delhivery-surface',
  service_level: 'surface',
  connector: 'delhivery',
  credentials: 'configured',
  test_bookings: false,
  health: {
    last_success_at: '2026-11-22T04:12:09.000Z',
    last_error_at: '2026-11-22T03:58:41.000Z',
    last_error: 'HTTP 503',
    token_expires_at: null,
  },
};
const PUSH = {
  carrier_id: 'CARSHFXSTD001',
  name: 'Shadowfax Standard',
  code: 'shadowfax-standard',
  service_level: 'surface',
  connector: 'push',
  credentials: 'not_needed',
  test_bookings: true,
  health: null,
};

export const CourierConnectionsEnvelope = Type.Object(
  { data: Type.Array(CourierConnection, { description: 'Every courier service of the catalogue, in its order: the account books with any of them.' }) },
  { examples: [{ data: [DELHIVERY, PUSH] }] },
);
