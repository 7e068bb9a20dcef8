import { type Static, Type } from 'typebox';
import { Nullable, Timestamp } from './messaging.schemas.js';

// The buyer-messaging channels' bodies and answers (PUT and GET /messaging/channels).

const Languages = (what: string) =>
  Type.Object(
    {
      en: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'English.' })),
      hi: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Hindi.' })),
    },
    {
      additionalProperties: false,
      description: `The ${what}, per language; a language without one is not sent on this channel.`,
    },
  );
const BaseUrl = Type.Union([Type.String({ format: 'uri', pattern: '^https?://', maxLength: 512 }), Type.Null()], {
  description:
    "The provider's API host for this account; null for the server's (WHATSAPP_BASE_URL / SMS_BASE_URL, else the provider's own). " +
    'It goes through the outbound guard when saved and before every send: https only, and no host that is or resolves to a ' +
    'loopback, private, link-local, reserved or IPv6-transition address, nor localhost or an IPv4 address spelt other than as four ' +
    'decimal numbers (400 naming base_url), unless the server allows them (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). Redirects are never followed.',
});

export const ChannelParams = Type.Object({
  channel: Type.Union([Type.Literal('whatsapp'), Type.Literal('sms'), Type.Literal('email')], {
    description: 'whatsapp, sms or email.',
    examples: ['whatsapp'],
  }),
});

const Enabled = Type.Boolean({ description: 'Off by default: nothing is sent on a channel until it is enabled.' });

/** One body for the three channels: each takes its own fields (the service refuses another channel's, naming them). */
export const ChannelBody = Type.Object(
  {
    enabled: Enabled,
    phone_number_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[0-9]+$',
        description: "whatsapp: the WhatsApp Business phone number id (Meta's app dashboard).",
      }),
    ),
    api_version: Type.Optional(
      Type.String({ pattern: '^v[0-9]+\\.[0-9]+$', description: 'whatsapp: the Graph API version; v21.0 unless set.' }),
    ),
    base_url: Type.Optional(BaseUrl),
    access_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'whatsapp: a system user access token; stored sealed, never answered.',
      }),
    ),
    app_secret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description:
          'whatsapp: the app secret: inbound webhooks are refused unless signed with it (X-Hub-Signature-256). Stored sealed.',
      }),
    ),
    verify_token: Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 256,
        description: 'whatsapp: what Meta sends as hub.verify_token when you register the webhook. Stored sealed.',
      }),
    ),
    sender: Type.Optional(
      Type.String({ pattern: '^[A-Z]{6}$', description: 'sms: the DLT-registered sender id (six capital letters).' }),
    ),
    auth_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: "sms: MSG91's authkey; stored sealed, never answered.",
      }),
    ),
    confirmation_template: Type.Optional(
      Languages(
        'template: whatsapp, an approved template name (body {{1}} brand, {{2}} order id, {{3}} amount; quick-reply buttons Confirm and Cancel); sms, a DLT template id (MSG91 template_id) with variables brand, order_id, amount, confirm_url, cancel_url, payment_url',
      ),
    ),
    ndr_template: Type.Optional(
      Languages(
        "NDR message's template: whatsapp, an approved template name (body {{1}} brand, {{2}} order id, {{3}} AWB; buttons: quick reply Reattempt tomorrow, a URL button Change address to PUBLIC_BASE_URL/t/{{1}}, quick reply Cancel order); sms, a DLT template id with variables brand, order_id, awb, tracking_url",
      ),
    ),
    address_template: Type.Optional(
      Languages(
        '"Update your address" message\'s template: whatsapp, an approved template name (body {{1}} brand, {{2}} order id; a URL button Update address to PUBLIC_BASE_URL/t/{{1}}); sms, a DLT template id with variables brand, order_id, update_url',
      ),
    ),
    return_template: Type.Optional(
      Languages(
        "return request update's template, sent when a buyer's request is kept, approved or declined: whatsapp, an approved template name (body {{1}} brand, {{2}} order id, {{3}} what happened: received, approved or declined, in the template's language; a URL button See your request to PUBLIC_BASE_URL/t/{{1}}); sms, a DLT template id with variables brand, order_id, update, return_url",
      ),
    ),
  },
  { additionalProperties: false },
);

export const ChannelView = Type.Object(
  {
    channel: Type.String({ description: 'whatsapp, sms or email.' }),
    enabled: Type.Boolean(),
    settings: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What is not secret, as set (null where not set).',
    }),
    credentials_set: Type.Array(Type.String(), {
      description: 'The secrets stored (sealed, never answered): access_token, app_secret, verify_token, auth_key.',
    }),
    inbound_webhook_url: Nullable(
      Type.String(),
      'WhatsApp: the callback URL to register in the Meta app (GET verification and signed POSTs).',
    ),
    updated_at: Nullable(Timestamp, 'null until first set.'),
  },
  { $id: 'MessagingChannel' },
);
export type ChannelView = Static<typeof ChannelView>;

const CHANNEL_EXAMPLE = {
  channel: 'whatsapp',
  enabled: true,
  settings: {
    phone_number_id: '106540352242922',
    api_version: 'v21.0',
    base_url: null,
    confirmation_template: { en: 'cod_confirm_en', hi: 'cod_confirm_hi' },
    ndr_template: { en: 'ndr_choice_en', hi: 'ndr_choice_hi' },
  },
  credentials_set: ['access_token', 'app_secret', 'verify_token'],
  inbound_webhook_url: 'https://ship.example.in/public/v1/whatsapp/6f1c2a9e-4b7d-4e21-9c3a-1d2e3f4a5b6c/webhook',
  updated_at: '2026-11-20T06:30:00.000Z',
};
export const WHATSAPP_EXAMPLE = {
  enabled: true,
  phone_number_id: '106540352242922',
  access_token: 'EAAG-example-token',
  app_secret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  verify_token: 'kurta-kart-verify',
  confirmation_template: { en: 'cod_confirm_en', hi: 'cod_confirm_hi' },
  ndr_template: { en: 'ndr_choice_en', hi: 'ndr_choice_hi' },
};
export const SMS_EXAMPLE = {
  enabled: true,
  sender: 'KRTKRT',
  auth_key: '412345AbCdEf',
  confirmation_template: { en: '1107168000000000001', hi: '1107168000000000002' },
};

export const ChannelEnvelope = Type.Object(
  { data: Type.Ref('MessagingChannel') },
  { examples: [{ data: CHANNEL_EXAMPLE }] },
);
export const ChannelListEnvelope = Type.Object(
  { data: Type.Array(Type.Ref('MessagingChannel')) },
  { examples: [{ data: [CHANNEL_EXAMPLE] }] },
);
