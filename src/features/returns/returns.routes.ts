import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { EXAMPLE } from '../../http/examples.js';
import { actorOf } from '../../http/permission-guard.js';
import { RETURN_ANSWERS, RETURN_REQUESTS } from './returns.examples.js';
import { errorResponses } from '../../http/errors.js';
import { AssignReturnCourierBody, CreateReturnBody, ReturnResponse } from './returns.schemas.js';
import type { ReturnsService } from './returns.service.js';
import { IdempotencyHeaders } from '../../http/schemas.js';

const tags = ['Returns'];
// Handlers of these routes pass `request.transaction` to the service (see http/idempotency.ts).
const idempotent = { idempotent: true };
const returnErrors = errorResponses(400, 401, 409, 413, 415, 422);
// Routes that book a courier, which a connector may find unreachable.
const bookingErrors = errorResponses(400, 401, 409, 413, 415, 422, 502, 503);

const qcNote =
  'Items with qc_enable (and a qc_product_image URL) are quality-checked at pickup by a QC-capable courier ' +
  '(Delhivery, Shadowfax). More than 2 QC SKUs, or no QC-capable courier on the lane: booked as non-QC, and qc_message says why.';

export function returnsRoutes(returns: ReturnsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/reverse-order',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Create a return (reverse pickup) order, no courier yet',
          description:
            'Pickup at the customer (pickup_*), delivery to the warehouse (warehouse_id, or shipping_*). Refused when no courier ' +
            `serves the lane. ${qcNote} Nothing is written when the request is refused.`,
          headers: IdempotencyHeaders,
          body: { ...CreateReturnBody, examples: [RETURN_REQUESTS.reverseOrder] },
          response: {
            200: answer(
              ReturnResponse,
              'The return, waiting for a courier (POST /reverse-order-shipment books one).',
              RETURN_ANSWERS.created,
            ),
            ...returnErrors,
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await returns.createReturn(actorOf(request), request.body, request.transaction),
      }),
    );

    app.post(
      '/reverse-order-shipment',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Book a courier for a return: AWB and pickup',
          description: `Books carrier_id when given and serviceable, else the cheapest serviceable service. Charges as /rates quotes with journey_type "return". ${qcNote}`,
          headers: IdempotencyHeaders,
          body: { ...AssignReturnCourierBody, examples: [{ return_id: EXAMPLE.returnId, carrier_id: '' }] },
          response: {
            200: answer(
              ReturnResponse,
              'The return, booked: AWB, courier, pickup date and charges.',
              RETURN_ANSWERS.booked,
            ),
            ...bookingErrors,
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await returns.assignCourier(actorOf(request), request.body, request.transaction),
      }),
    );

    app.post(
      '/reverse-order-orchestration',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Create a return and book its courier in one step',
          description: `reverse-order and reverse-order-shipment in one transaction: all of it happens, or none. ${qcNote}`,
          headers: IdempotencyHeaders,
          body: { ...CreateReturnBody, examples: [RETURN_REQUESTS.orchestration] },
          response: {
            200: answer(
              ReturnResponse,
              'The return, booked: AWB, courier, pickup date and charges.',
              RETURN_ANSWERS.orchestrated,
            ),
            ...bookingErrors,
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await returns.orchestrate(actorOf(request), request.body, request.transaction),
      }),
    );
  };
}
