import { EXAMPLE } from '../../http/examples.js';
import { Type } from 'typebox';
import { EVENT_TYPES } from '../../domain/shipment/event-types.js';
import { VELOCITY_WEBHOOK_EVENTS, WEBHOOK_FORMATS } from './velocity-webhooks.js';
import { Uuid } from '../../http/schemas.js';
import { statedRule } from '../../http/stated-rules.js';

const SUBSCRIPTIONS = ['*', ...EVENT_TYPES, ...VELOCITY_WEBHOOK_EVENTS] as const;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  'x-error': 'must be a URL of at most 2048 characters',
  // The outbound guard checks the rest (base/outbound): an absolute http(s) URL without credentials
  // or a fragment; whether it may be http or private is the server's setting.
  ...statedRule({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@]+(?:[/?][^#]*)?$' }),
  description:
    'Where events are POSTed: https (http only when the server sets WEBHOOK_ALLOW_HTTP=true). Redirects are not followed.',
});
const Events = Type.Array(
  Type.Enum([...SUBSCRIPTIONS], {
    'x-error': `must be "*" or one of ${EVENT_TYPES.join(', ')} (format standard) or ${VELOCITY_WEBHOOK_EVENTS.join(', ')} (format velocity)`,
  }),
  {
    minItems: 1,
    maxItems: SUBSCRIPTIONS.length,
    'x-error': 'must list 1 or more event types, or ["*"] for all',
    // "*" stands alone (the service checks it).
    ...statedRule({ anyOf: [{ const: ['*'] }, { items: { not: { const: '*' } } }] }),
    description: `The event types to receive, or ["*"] for every type (including types added later). Format velocity takes Velocity's names: ${VELOCITY_WEBHOOK_EVENTS.join(', ')}.`,
  },
);
const Format = Type.Union(
  WEBHOOK_FORMATS.map((f) => Type.Literal(f)),
  {
    'x-error': `must be ${WEBHOOK_FORMATS.join(' or ')}`,
    description:
      "standard (default): Standard Webhooks, signed with the endpoint's secret. velocity: Velocity's body ({event, event_id, event_timestamp, data}), " +
      'unsigned, with api_key in a header; only a 200 counts as delivered (docs/webhooks.md).',
  },
);
const ApiKey = Type.String({
  minLength: 8,
  maxLength: 512,
  pattern: '^[\\x21-\\x7E](?:[\\x20-\\x7E]*[\\x21-\\x7E])?$',
  'x-error': 'must be 8 to 512 printable ASCII characters, not starting or ending with a space',
  description:
    'Format velocity (required there): your static key, sent as is in api_key_header on every delivery. Answers show only its last 4 characters.',
});
const ApiKeyHeader = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
  'x-error': "must be an HTTP header name (letters, digits and !#$%&'*+-.^_`|~), at most 64 characters",
  description:
    'Format velocity: the header that carries api_key (x-api-key by default). Not Host, Content-*, hop-by-hop or User-Agent.',
});
const Description = Type.Union([
  Type.String({ maxLength: 255, 'x-error': 'must be at most 255 characters' }),
  Type.Null(),
]);

const ENDPOINT_EXAMPLE = {
  id: EXAMPLE.webhookId,
  url: 'https://hooks.chaipoint.in/dakiya',
  events: ['shipment.status_changed', 'shipment.delivered'],
  description: 'Order status sync for the Bengaluru warehouse',
  status: 'enabled',
  disabled_reason: null,
  refused_reason: null,
  created_at: '2026-11-20T06:30:00.000Z',
  updated_at: '2026-11-20T06:30:00.000Z',
};
const SECRET_EXAMPLE = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpointFields = {
  id: Uuid,
  url: Type.String(),
  events: Type.Array(Type.String()),
  format: Type.Optional(
    Type.Literal('velocity', { description: 'Present on Velocity-format endpoints only; absent means standard.' }),
  ),
  api_key: Type.Optional(
    Type.String({ description: 'Format velocity: the key, masked (**** and its last 4 characters).' }),
  ),
  api_key_header: Type.Optional(Type.String({ description: 'Format velocity: the header the key is sent in.' })),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description:
      'disabled by you (PUT), or by Dakiya after 24 h without a successful delivery or 20 failed events in a row.',
  }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why Dakiya disabled it; null otherwise.' }),
  refused_reason: Type.Union([Type.String(), Type.Null()], {
    description:
      "Why this server's settings refuse the URL now (registered while WEBHOOK_ALLOW_HTTP or WEBHOOK_ALLOW_PRIVATE was on, or " +
      'its host now resolving to a private address): every delivery fails, refused, until the URL or the settings change. null when accepted.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const WebhookEndpoint = Type.Object(endpointFields, { $id: 'WebhookEndpoint', examples: [ENDPOINT_EXAMPLE] });

const Warnings = Type.Optional(
  Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
    description:
      "Dakiya's addition, present only when there is something to say: a url whose host does not resolve yet (saved all the same).",
  }),
);

const EndpointWithSecret = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'whsec_ + base64 of 24 random bytes: the key of the webhook-signature HMAC. Shown only here and by rotate-secret.',
    }),
    warnings: Warnings,
  },
  { examples: [{ ...ENDPOINT_EXAMPLE, secret: SECRET_EXAMPLE }] },
);

const VELOCITY_ONLY = { required: ['format'], properties: { format: { const: 'velocity' } } };
export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Events,
    description: Type.Optional(Description),
    format: Type.Optional(Format),
    api_key: Type.Optional(ApiKey),
    api_key_header: Type.Optional(ApiKeyHeader),
  },
  {
    additionalProperties: false,
    // What endpoint-format.ts checks of the format's fields: api_key and api_key_header belong to
    // the velocity format, which needs an api_key and takes Velocity's event names.
    ...statedRule({
      dependentSchemas: { api_key: VELOCITY_ONLY, api_key_header: VELOCITY_ONLY },
      if: VELOCITY_ONLY,
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable.
      then: { required: ['api_key'], properties: { events: { items: { enum: ['*', ...VELOCITY_WEBHOOK_EVENTS] } } } },
      else: { properties: { events: { items: { enum: ['*', ...EVENT_TYPES] } } } },
    }),
    examples: [
      {
        url: 'https://hooks.chaipoint.in/dakiya',
        events: ['shipment.status_changed', 'shipment.delivered'],
        description: 'Order status sync for the Bengaluru warehouse',
      },
      {
        url: 'https://erp.chaipoint.in/velocity/webhook',
        events: ['*'],
        format: 'velocity',
        api_key: 'cp-live-7f3a9c2e41b8',
      },
    ],
  },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    format: Type.Optional(Format),
    api_key: Type.Optional(ApiKey),
    api_key_header: Type.Optional(ApiKeyHeader),
    status: Type.Optional(
      Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
        'x-error': 'must be enabled or disabled',
        description: '"enabled" re-enables an endpoint Dakiya disabled, forgetting its failures.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ events: ['*'] }, { status: 'enabled' }] },
);

const EndpointId = Type.String({ format: 'uuid', description: 'The endpoint id.', examples: [EXAMPLE.webhookId] });
export const WebhookParams = Type.Object({ id: EndpointId });
export const DeliveryParams = Type.Object({
  id: EndpointId,
  delivery_id: Type.String({ format: 'uuid', description: 'The delivery id.', examples: [EXAMPLE.webhookDeliveryId] }),
});

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9]\\d?|100)$',
        'x-error': 'must be 1 to 100',
        description: 'At most this many (1–100; 50).',
      }),
    ),
    before: Type.Optional(
      Type.String({
        format: 'uuid',
        'x-error': 'must be a delivery id',
        description: 'meta.next_before of the previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);

const DELIVERY_EXAMPLE = {
  id: EXAMPLE.webhookDeliveryId,
  event_id: '3f6c1e2a-9b8d-4c7e-a5f4-1d2e3c4b5a69',
  event_type: 'shipment.delivered',
  status: 'pending',
  attempt_count: 1,
  next_attempt_at: '2026-11-21T09:15:05.000Z',
  created_at: '2026-11-21T09:15:00.000Z',
  attempts: [{ status_code: 503, duration_ms: 212, error: 'HTTP 503', attempted_at: '2026-11-21T09:15:00.300Z' }],
};

export const Delivery = Type.Object(
  {
    id: Uuid,
    event_id: Type.String({ format: 'uuid', description: 'Also the webhook-id header of every attempt.' }),
    event_type: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description: 'pending until a 2xx (succeeded) or the last retry (failed).',
    }),
    attempt_count: Type.Integer(),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the next retry is due; null once finished.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    attempts: Type.Array(
      Type.Object({
        status_code: Type.Union([Type.Integer(), Type.Null()], {
          description: "The receiver's status; null when no answer came.",
        }),
        duration_ms: Type.Integer(),
        error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed; null on a 2xx.' }),
        attempted_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'Oldest first.' },
    ),
  },
  { $id: 'WebhookDelivery', examples: [DELIVERY_EXAMPLE] },
);

export const EndpointEnvelope = Type.Object(
  { data: Type.Ref('WebhookEndpoint') },
  { examples: [{ data: ENDPOINT_EXAMPLE }] },
);
/** PUT's answer: the endpoint, and a warning when a new url's host does not resolve yet. */
export const UpdatedEndpointEnvelope = Type.Object(
  { data: Type.Object({ ...endpointFields, warnings: Warnings }) },
  { examples: [{ data: { ...ENDPOINT_EXAMPLE, events: ['*'], updated_at: '2026-11-21T09:15:00.000Z' } }] },
);
export const EndpointSecretEnvelope = Type.Object(
  { data: EndpointWithSecret },
  { examples: [{ data: { ...ENDPOINT_EXAMPLE, secret: SECRET_EXAMPLE } }] },
);
export const EndpointListEnvelope = Type.Object(
  { data: Type.Array(Type.Ref('WebhookEndpoint')) },
  { examples: [{ data: [ENDPOINT_EXAMPLE] }] },
);
export const DeletedEnvelope = Type.Object(
  { data: Type.Object({ id: Uuid, deleted: Type.Literal(true) }) },
  { examples: [{ data: { id: ENDPOINT_EXAMPLE.id, deleted: true } }] },
);
export const DeliveryEnvelope = Type.Object(
  { data: Type.Ref('WebhookDelivery') },
  { examples: [{ data: DELIVERY_EXAMPLE }] },
);
export const DeliveryListEnvelope = Type.Object(
  {
    data: Type.Array(Type.Ref('WebhookDelivery'), { description: 'Newest first.' }),
    meta: Type.Object({
      next_before: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
        description: 'Send as before for the next page; null on the last.',
      }),
    }),
  },
  { examples: [{ data: [DELIVERY_EXAMPLE], meta: { next_before: null } }] },
);
