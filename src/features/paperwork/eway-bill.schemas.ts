import { Type } from 'typebox';
import { GSTIN_FORM } from '../../domain/paperwork/gstin.js';
import { EXAMPLE } from '../../http/examples.js';

// The e-way bill gateway's settings and a generated bill, as the API answers them (docs/paperwork.md,
// "Generation through a GSP").

const credential = (description: string) =>
  Type.String({ minLength: 1, maxLength: 500, description, 'x-error': 'must be 1 to 500 characters' });

export const GATEWAY_EXAMPLE = {
  base_url: 'https://api.gsp.example',
  gstin: '07AAACR5055K1Z9',
  email: 'ops@acme.example',
  client_id: 'EWB-CLIENT-0042',
  client_secret: 'gsp-client-secret',
  username: 'acme_api_07',
  password: 'ewb-password',
};

export const GatewayBody = Type.Object(
  {
    base_url: Type.String({
      format: 'uri',
      // A host, and a path at most: no user name or password, query or fragment (what the outbound guard refuses too).
      pattern: '^https?://[^/?#@\\s]+(/[^?#@\\s]*)?$',
      'x-error': 'must be an http(s) URL of a host and a path, without a user name, password, query or fragment',
      maxLength: 500,
      description:
        "The GSP's API root, before `/ewaybillapi/v1.03` (https; the outbound guard judges it as every URL an account controls).",
    }),
    gstin: Type.String({
      pattern: GSTIN_FORM,
      description:
        "The GSTIN whose e-way bill API user `username` is: each bill's fromGstin, of the State of the warehouse the goods leave.",
      'x-error': 'must be a GSTIN: 15 characters',
    }),
    email: Type.String({
      minLength: 3,
      maxLength: 200,
      pattern: '^[^@\\s]+@[^@\\s]+$',
      description: 'The e-mail the GSP knows the account by (its `email` parameter).',
      'x-error': 'must be an e-mail address',
    }),
    client_id: credential("The GSP's client id (sealed; answered masked)."),
    client_secret: credential("The GSP's client secret (sealed; never answered)."),
    username: credential("The e-way bill API user's name (sealed; answered masked)."),
    password: credential("The e-way bill API user's password (sealed; never answered)."),
  },
  { additionalProperties: false, examples: [GATEWAY_EXAMPLE] },
);

const GatewayView = Type.Object({
  configured: Type.Boolean({ description: 'false: generation is off for the account.' }),
  base_url: Type.Optional(Type.String()),
  gstin: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String({ description: 'Masked: its last four characters.' })),
  client_secret: Type.Optional(Type.String({ description: 'Always ********.' })),
  username: Type.Optional(Type.String({ description: 'Masked: its last four characters.' })),
  password: Type.Optional(Type.String({ description: 'Always ********.' })),
  updated_at: Type.Optional(Type.String({ format: 'date-time' })),
});

export const GatewayEnvelope = Type.Object(
  { data: GatewayView },
  {
    examples: [
      {
        data: {
          configured: true,
          base_url: GATEWAY_EXAMPLE.base_url,
          gstin: GATEWAY_EXAMPLE.gstin,
          email: GATEWAY_EXAMPLE.email,
          client_id: '****0042',
          client_secret: '********',
          username: '****i_07',
          password: '********',
          updated_at: '2026-11-20T06:30:00.000Z',
        },
      },
    ],
  },
);

export const OrderParams = Type.Object({
  order_id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "The merchant's order id (Velocity's order_id).",
    examples: [EXAMPLE.ewayBillOrderId],
  }),
});

export const GeneratedEnvelope = Type.Object(
  {
    data: Type.Object({
      order_id: Type.String(),
      ewaybill_no: Type.String({
        description: "The portal's 12-digit e-way bill number, now the order's ewaybill_no.",
      }),
      ewaybill_date: Type.String({
        format: 'date',
        description: "The day it was generated (India), now the order's ewaybill_date.",
      }),
      generated_at: Type.String({ description: 'When the portal generated it, India time (+05:30).' }),
      valid_upto: Type.Union([Type.String(), Type.Null()], {
        description: 'The end of its validity as the portal gave it, India time; null when it gave none.',
      }),
      doc_no: Type.String({
        description: "The document the bill is of: the shipment's tax invoice number, else the order id.",
      }),
      alert: Type.Union([Type.String(), Type.Null()], { description: "The portal's note, when it gave one." }),
    }),
  },
  {
    examples: [
      {
        data: {
          order_id: EXAMPLE.ewayBillOrderId,
          ewaybill_no: '331009876543',
          ewaybill_date: '2026-11-20',
          generated_at: '2026-11-20T12:00:00+05:30',
          valid_upto: '2026-11-26T23:59:00+05:30',
          doc_no: 'ACME/26-27/00042',
          alert: null,
        },
      },
    ],
  },
);
