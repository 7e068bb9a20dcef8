import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { operatorFor } from '../../domain/access/permissions.js';
import { checkAll, invalid } from '../../domain/errors.js';
import { normalizeIndianPhone } from '../../domain/geo/phone.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { EXAMPLE } from '../../http/examples.js';
import { actorOf } from '../../http/permission-guard.js';
import { ONE_LINE_NOT_BLANK, Phone, Uuid } from '../../http/schemas.js';
import type { BuyerQuery } from './erasure.repository.js';
import type { Erasure } from './erasure.service.js';

const ErasureBody = Type.Object(
  {
    phone: Type.Optional({
      ...Phone,
      description:
        "The buyer's phone, as an order, a return or a request gave it (billing, shipping or alternate phone).",
    }),
    email: Type.Optional(
      Type.String({
        maxLength: 254,
        pattern: '^[^@\\s]+@[^@\\s]+$',
        'x-error': 'must be an email address',
        description: "The buyer's e-mail, in any case.",
      }),
    ),
    order_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: ONE_LINE_NOT_BLANK,
        description:
          "One of the buyer's orders, by the merchant's order id: its buyer is erased from that order and everything of it.",
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    'x-error': 'must name the buyer: at least one of phone, email and order_id',
    description:
      "Who to erase: at least one of phone, email and order_id. Each order, return or request any of them names is the buyer's, and so is a store's order never booked that holds the phone or e-mail.",
    examples: [{ order_id: EXAMPLE.deliveredOrderId }, { phone: '9123456780', email: 'asha@example.com' }],
  },
);

const Count = (what: string) => Type.Integer({ minimum: 0, description: what });
const ErasureAnswer = Type.Object(
  {
    data: Type.Object({
      erasure_id: Uuid,
      found: Type.Object({
        orders: Count("The buyer's orders."),
        shipments: Count('Their shipments.'),
        returns: Count('Returns of them, or with the buyer as pickup.'),
        return_requests: Count("The buyer's return requests."),
        exchanges: Count('Exchanges of them.'),
        refunds: Count('Refunds of those returns and requests.'),
      }),
      erased: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
        description:
          "Rows in which the buyer's name, phone, e-mail and street address were replaced by `[erased]`, by table (orders, shipments' search text, events, customer e-mails, buyer messages, returns, courier scans, store payloads…).",
      }),
      deleted: Type.Object({
        rto_history: Count("RTO history kept by the buyer's phone."),
        return_request_photos: Count('Photos the buyer sent with return requests.'),
        account_exports: Count(
          "The account's export archives, withdrawn with their files: written before the erasure, they hold the buyer.",
        ),
      }),
    }),
  },
  {
    examples: [
      {
        data: {
          erasure_id: '0193a2c4-7b1e-7c3a-9f10-4d2e8b6a1c55',
          found: { orders: 2, shipments: 2, returns: 1, return_requests: 1, exchanges: 0, refunds: 1 },
          erased: {
            orders: 2,
            shipments: 2,
            events: 14,
            notifications: 3,
            buyer_messages: 1,
            returns: 1,
            return_requests: 1,
          },
          deleted: { rto_history: 1, return_request_photos: 2, account_exports: 0 },
        },
      },
    ],
  },
);

/** The body as the service takes it: the phone's ten digits, the e-mail lower-cased; every bad field named. */
function buyerQuery(body: Static<typeof ErasureBody>): BuyerQuery {
  const checks = checkAll();
  const query: BuyerQuery = {};
  if (body.phone !== undefined) {
    checks.check(() => {
      const phone = normalizeIndianPhone(body.phone!);
      if (phone === undefined) throw invalid('phone must be a valid Indian phone number (10 digits)', 'phone');
      query.phone = phone;
    });
  }
  if (body.email !== undefined) query.email = body.email.trim().toLowerCase();
  if (body.order_id !== undefined) query.orderId = body.order_id.trim();
  checks.done();
  return query;
}

const DESCRIPTION =
  "A buyer's request to erase their personal data (India's DPDP Act 2023, section 12): in one transaction, their name, phone, e-mail and street address are replaced by `[erased]` everywhere Dakiya copied them (orders, shipments' search text, events and so webhook bodies, customer e-mails, buyer messages, courier scans, NDR instructions, returns and return requests, refunds' payees, stores' order payloads, idempotent answers), the RTO history kept by their phone and the photos of their return requests are removed, and the audit log records that an erasure happened and by whom, without the data. Orders, shipments and money stay, with pincode, city and state. Refused (409) while a parcel of theirs is on its way. docs/data-lifecycle.md.";

function erasureSchema(security?: Record<string, string[]>[]) {
  return {
    tags: ['Privacy'],
    summary: "Erase a buyer's personal data, named by phone, e-mail or order id",
    description: DESCRIPTION,
    body: ErasureBody,
    ...(security && { security }),
    response: {
      200: answer(ErasureAnswer, 'What was found of the buyer, and what was erased where.'),
      ...errorResponses(400, 401, 404, 409, 413, 415),
    },
  };
}

/** `POST /buyer-erasures`: the account erases one of its buyers. */
export function erasureRoutes(erasure: Erasure): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/buyer-erasures', { schema: erasureSchema(undefined) }, async (request) => ({
      data: await erasure.erase(actorOf(request), buyerQuery(request.body)),
    }));
  };
}

/** The operator's erasure for an account (what `npm run cli -- buyers erase` sends). */
export function erasureAdminRoutes(erasure: Erasure): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/accounts/:id/buyer-erasures',
      {
        schema: {
          ...erasureSchema([{ adminToken: [] }]),
          params: Type.Object({ id: { ...Uuid, description: "The account's id.", examples: [EXAMPLE.accountId] } }),
        },
      },
      async (request) => ({ data: await erasure.erase(operatorFor(request.params.id), buyerQuery(request.body)) }),
    );
  };
}
