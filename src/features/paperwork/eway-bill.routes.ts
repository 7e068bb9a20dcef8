import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import type { EwayBillGeneration } from './eway-bill-generation.service.js';
import type { GatewaySettings } from './eway-bill-gateway-settings.service.js';
import { GatewayBody, GatewayEnvelope, GeneratedEnvelope, OrderParams } from './eway-bill.schemas.js';

/** The e-way bill gateway's settings, and Part A generated through it (docs/paperwork.md, "Generation through a GSP"). */
export function ewayBillRoutes(gateways: GatewaySettings, generation: EwayBillGeneration): FastifyPluginAsyncTypebox {
  const tags = ['Paperwork'];
  const path = '/paperwork-settings/eway-bill-gateway';
  return async (app) => {
    // Generation first: the fuzz suite walks the operations in this order, and reaches it while a gateway is set.
    app.post(
      '/orders/:order_id/ewaybill',
      {
        config: { resource: 'Order' },
        schema: {
          tags,
          summary: "Generate Part A of an order's e-way bill through the account's GSP",
          description:
            "Builds the e-way bill API request from the order (its items with HSN, the warehouse, the buyer, the tax invoice number when its shipment has one, the distance between the pincodes), sends it through the GSP and keeps the number and day on the order as ewaybill_no and ewaybill_date. 422 `eway_bill_gateway_missing` (no gateway), `eway_bill_not_needed`, `eway_bill_order_incomplete` and `eway_bill_refused` (the portal's codes, by field); 409 `eway_bill_exists` and `eway_bill_duplicate`; 502 `eway_bill_gateway_auth_failed` and `eway_bill_gateway_unreadable`; 503 `eway_bill_gateway_unavailable`. Nothing is stored unless a bill came back.",
          params: OrderParams,
          response: {
            200: answer(GeneratedEnvelope, 'The bill, now on the order.'),
            ...errorResponses(400, 401, 404, 409, 422, 502, 503),
          },
        },
      },
      async (request) => ({ data: await generation.generate(actorOf(request), request.params.order_id) }),
    );
    app.get(
      path,
      {
        schema: {
          tags,
          summary: "Read the account's e-way bill gateway (GSP credentials, masked)",
          response: {
            200: answer(GatewayEnvelope, 'The gateway, its secrets masked; configured false when none.'),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: await gateways.read(request.accountId) }),
    );
    app.put(
      path,
      {
        schema: {
          tags,
          summary: "Set the account's e-way bill gateway: a GST Suvidha Provider's URL and credentials",
          description:
            "Turns on POST /orders/{order_id}/ewaybill. The client id and secret and the e-way bill user's name and password are sealed and never answered again; the base_url passes the outbound guard. A GSTIN whose state code or check character is wrong is a 400 naming `gstin`.",
          body: GatewayBody,
          response: {
            200: answer(GatewayEnvelope, 'The gateway as set, masked.'),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => ({ data: await gateways.set(actorOf(request), request.body) }),
    );
    app.delete(
      path,
      {
        schema: {
          tags,
          summary: "Remove the account's e-way bill gateway: generation is off",
          response: { 200: answer(GatewayEnvelope, 'configured false.'), ...errorResponses(401) },
        },
      },
      async (request) => ({ data: await gateways.remove(actorOf(request)) }),
    );
  };
}
