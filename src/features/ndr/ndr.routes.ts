import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { EXAMPLE } from '../../http/examples.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import {
  ActionIdParams,
  CarrierActionEnvelope,
  CarrierActionsQuery,
  CarrierActionsResponse,
  InitiateRtoBody,
  InitiateRtoResponse,
  ReattemptBody,
  ReattemptResponse,
} from './ndr.schemas.js';
import type { NdrService } from './ndr.service.js';
import { IdempotencyHeaders } from '../../http/schemas.js';

const tags = ['NDR actions'];
const idempotent = { idempotent: true };

/** The merchant's instructions after a failed delivery, under /custom/api/v1. */
export function ndrRoutes(ndr: NdrService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/reattempt',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Ask the courier to attempt delivery again',
          description:
            'Only for a shipment in ndr_raised; at most 2 reattempts per shipment, one per failed delivery. The address line, ' +
            'landmark and phone may be corrected; the pincode, city and state cannot (422: initiate an RTO and re-book). ' +
            'reattempt_date, when given, must be one of the next 3 working days, India time. The status does not change: the ' +
            'courier reports the next attempt. The request is recorded as an action shown in order-tracking and the listing, ' +
            'and handed to the courier at GET /carrier/v1/actions. An AWB of one of your returns is a 422 saying so; of another account, a 404. ' +
            "A multi-piece shipment's box AWB acts on its shipment: NDR is the consignment's, its instruction goes under the master AWB.",
          headers: IdempotencyHeaders,
          body: ReattemptBody,
          response: {
            200: answer(
              ReattemptResponse,
              'The reattempt is recorded for the courier; the shipment stays ndr_raised until its next scan.',
            ),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ndr.reattempt(actorOf(request), request.body, request.transaction),
    );

    app.post(
      '/initiate-rto',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Return a shipment to its origin (RTO)',
          description:
            'Allowed where the status machine lets a shipment move to rto_initiated: in_transit, ndr_raised and others. A pending ' +
            'shipment is cancelled instead; an out_for_delivery one waits for the attempt; delivered, cancelled and rto_* ' +
            'shipments are refused (422, naming why). The shipment is rto_initiated (reason merchant_requested) from the request ' +
            'on, and the instruction is handed to the courier at GET /carrier/v1/actions. An AWB of one of your returns is a 422 saying so; of another account, a 404. ' +
            "A multi-piece shipment's box AWB returns its whole shipment (every box), under the master AWB.",
          headers: IdempotencyHeaders,
          body: InitiateRtoBody,
          response: {
            200: answer(
              InitiateRtoResponse,
              'The parcel is on its way back: the shipment is rto_initiated from now on.',
            ),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ndr.initiateRto(actorOf(request), request.body.awb, request.transaction),
    );
  };
}

/** The courier's side, under /carrier/v1 (the carrier-token hook is the scope's). */
export function carrierActionRoutes(ndr: NdrService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/actions',
      {
        schema: {
          tags,
          summary: 'Open NDR instructions on your shipments (couriers only)',
          description:
            'Reattempt and RTO instructions not yet acknowledged, on shipments booked on your courier service only, oldest ' +
            'first. Page with limit and cursor (next_cursor). Acknowledge each with POST /carrier/v1/actions/{id}/ack.',
          security: [{ carrierToken: [] }],
          querystring: CarrierActionsQuery,
          response: {
            200: answer(CarrierActionsResponse, 'A page of open instructions, oldest first.'),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => ndr.openForCarrier(request.carrierId, request.query),
    );

    app.post(
      '/actions/:id/ack',
      {
        config: { resource: 'Action' },
        schema: {
          tags,
          summary: 'Acknowledge an NDR instruction (couriers only)',
          description:
            'Idempotent: acknowledging again answers the same acknowledged_at. Another courier’s action, or an unknown id, is a 404.',
          security: [{ carrierToken: [] }],
          params: ActionIdParams,
          response: {
            200: answer(
              CarrierActionEnvelope,
              "The instruction, acknowledged (the first acknowledgement's time stays).",
              {
                data: {
                  id: EXAMPLE.actionId,
                  awb: EXAMPLE.ndrAwb,
                  action: 'reattempt',
                  requested_by: 'merchant',
                  requested_at: '2026-11-22T06:30:00.000Z',
                  acknowledged_at: '2026-11-22T07:05:00.000Z',
                  courier_status: 'done',
                  refusal: null,
                  details: { updated_phone_number: '+919123456780', comments: 'Customer available after 6 pm' },
                },
              },
            ),
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => ndr.acknowledge(request.carrierId, request.params.id),
    );
  };
}
