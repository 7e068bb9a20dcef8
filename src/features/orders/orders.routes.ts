import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { ORDER_ANSWERS, ORDER_REQUESTS, PREVIEW_ANSWER } from './orders.examples.js';
import { errorResponses } from '../../http/errors.js';
import { actorOf } from '../../http/permission-guard.js';
import { invalid } from '../../domain/errors.js';
import { CancelResponse, CheckedOrderResponse, OrderResponse } from './order-answers.schemas.js';
import { AssignCourierBody, CancelBody, CreateOrderBody, UpdateOrderBody } from './orders.schemas.js';
import type { OrderUpdateService } from './order-update.service.js';
import type { OrdersService } from './orders.service.js';
import { IdempotencyHeaders } from '../../http/schemas.js';
import { PreviewResponse } from './allocation-preview.schemas.js';

const tags = ['Orders'];
// Handlers of these routes pass `request.transaction` to the service (see http/idempotency.ts).
const idempotent = { idempotent: true };
const orderErrors = errorResponses(400, 401, 409, 413, 415, 422);
// Routes that book a courier, which a connector may find unreachable.
const bookingErrors = errorResponses(400, 401, 409, 413, 415, 422, 502, 503);

export function ordersRoutes(orders: OrdersService, orderUpdates: OrderUpdateService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/forward-order',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Create a forward order and its pending shipment (no courier yet)',
          description:
            'Links the order to the store named by store_name (case-insensitive) when given. ' +
            'Weight in kg, dimensions in cm, amounts in rupees. Nothing is written when the request is refused. An order in ' +
            "several boxes sends packages (Dakiya's addition, the second example): its answer lists them in boxes.",
          headers: IdempotencyHeaders,
          body: { ...CreateOrderBody, examples: [ORDER_REQUESTS.forwardOrder, ORDER_REQUESTS.multiPiece] },
          response: {
            200: answer(
              OrderResponse,
              'The order and its pending shipment (no courier, AWB or label yet).',
              ORDER_ANSWERS.created,
            ),
            ...orderErrors,
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await orders.createOrder(actorOf(request), request.body, request.transaction),
      }),
    );

    app.post(
      '/forward-order-shipment',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Book a courier for a pending shipment: AWB and label',
          description:
            "Books carrier_id when given and serviceable, else the courier the account's allocation rules choose (the cheapest " +
            "serviceable service when no rule matches); the answer's allocation says which rule and why.",
          headers: IdempotencyHeaders,
          body: { ...AssignCourierBody, examples: [ORDER_REQUESTS.assign] },
          response: {
            200: answer(
              OrderResponse,
              'The shipment, booked: courier, AWB, charges, pickup date and label link.',
              ORDER_ANSWERS.assigned,
            ),
            ...bookingErrors,
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await orders.assignCourier(
          actorOf(request),
          request.body.shipment_id,
          request.body.carrier_id,
          request.transaction,
        ),
      }),
    );

    app.post(
      '/forward-order-orchestration',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Create an order and book its courier in one step',
          description: 'forward-order and forward-order-shipment in one transaction: all of it happens, or none.',
          headers: IdempotencyHeaders,
          body: { ...CreateOrderBody, examples: [ORDER_REQUESTS.orchestration] },
          response: {
            200: answer(
              OrderResponse,
              'The order, booked: courier, AWB, charges, pickup date and label link.',
              ORDER_ANSWERS.booked,
            ),
            ...bookingErrors,
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await orders.orchestrate(actorOf(request), request.body, request.transaction),
      }),
    );

    app.post(
      '/forward-order/check',
      {
        schema: {
          tags,
          summary: "Check an order as forward-order-orchestration would, writing nothing (Dakiya's addition)",
          description:
            'The same body and the same refusals (400 naming every bad field, 422 for an unknown warehouse or store, an unserviceable ' +
            'lane, or an order_id already used), without booking: a bulk import checks every row before booking any.',
          body: { ...CreateOrderBody, examples: [ORDER_REQUESTS.orchestration] },
          response: {
            200: answer(CheckedOrderResponse, 'The order would be accepted; the courier it would get now.'),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request) => ({ data: await orders.check(request.accountId, request.body) }),
    );

    app.post(
      '/allocation/preview',
      {
        schema: {
          tags: ['Courier allocation'],
          summary: 'Which courier the allocation rules would choose for an order, and why, writing nothing',
          description:
            'Takes the forward-order-orchestration body and answers the courier a booking of it would get now, by the same ' +
            "choice (carrier_id, when sent, wins; allocation is then null), and what each of the account's active rules makes of " +
            'the order: whether it matches, what it would choose and why. Refused as the booking would refuse it (400 naming ' +
            'every bad field, 422 for an unknown warehouse or store or an unserviceable lane); an order_id already used is no ' +
            'refusal here.',
          body: { ...CreateOrderBody, examples: [ORDER_REQUESTS.preview] },
          response: {
            200: answer(PreviewResponse, "The courier a booking would get, and each rule's verdict.", PREVIEW_ANSWER),
            ...errorResponses(400, 401, 413, 415, 422),
          },
        },
      },
      async (request) => orders.previewAllocation(request.accountId, request.body),
    );

    app.put(
      '/order',
      {
        config: idempotent,
        schema: {
          tags,
          summary: "Update an order not yet picked up (Velocity's Order Update)",
          description:
            "Keyed by order_id (the merchant's order id). Takes the whole forward-order body, which **replaces** the order: " +
            'an optional field left out is cleared, as forward-order would have stored it. Or only the fields that change: a ' +
            'body without every field forward-order requires is **merged** into the stored order (order_items, vendor_details ' +
            'and tags replaced whole; shipping_* sent to an order shipped to its billing address ships it to the new address; ' +
            'pickup_location without warehouse_id chooses the warehouse by name), then checked as a whole order. Before an AWB ' +
            'exists anything may change and the shipment is priced again (zone, applied weight). Once an AWB exists, the address, ' +
            'phone, e-mail, names, items, store and tags may change, but not what the courier booked and priced (warehouse, ' +
            'delivery pincode, weight, dimensions, payment_method, cod_collectible, carrier_id): 422 naming each field; cancel ' +
            'and book again. While a failed delivery waits (ndr_raised) the delivery address lines, phone, names, e-mail, ' +
            'store and tags may change: a changed address or phone is recorded and passed to the courier as an address ' +
            "correction, the instruction a reattempt's updated_address is (it counts as this failed delivery's reattempt; " +
            'ndr_actions in order-tracking show it, details.address_correction true); the delivery pincode, city and state, ' +
            'warehouse, weight, dimensions, payment_method, cod_collectible, order_items, sub_total and carrier_id cannot ' +
            'change then (422 naming each), nor an address naming another pincode, a phone that is not a mobile number, or a ' +
            'correction once both reattempts are used. In any other status after pickup (or cancellation) every update is a ' +
            '422 naming the status. An order_id of another ' +
            'account is a 404. Answers like forward-order, with the updated values. Nothing is written when the request is refused.',
          headers: IdempotencyHeaders,
          body: { ...UpdateOrderBody, examples: [ORDER_REQUESTS.update, ORDER_REQUESTS.partialUpdate] },
          response: {
            200: answer(
              OrderResponse,
              'The order as updated (same ids; AWB and charges as booked).',
              ORDER_ANSWERS.updated,
            ),
            ...errorResponses(400, 401, 404, 409, 413, 415, 422),
          },
        },
      },
      async (request) => ({
        status: 1 as const,
        payload: await orderUpdates.update(actorOf(request), request.body, request.transaction),
      }),
    );

    app.post(
      '/cancel-order',
      {
        config: idempotent,
        schema: {
          tags,
          summary: 'Cancel shipments that have not been picked up',
          description:
            'Two forms. `{awbs}` (at most 50): answers per AWB; takes forward and return AWBs (a return is cancellable until ' +
            'its pickup); unknown AWBs, and AWBs of other accounts, are reported as not found. `{shipment_id, shipment_awb}`: ' +
            'one shipment by its shipment_id, also one without an AWB yet (a draft of forward-order, or a return not yet ' +
            'booked), answered in the same shape; shipment_awb may be "", null or absent, and when sent must be that ' +
            "shipment's AWB or, while it has none, its shipment_id repeated (else a 422 naming both fields). An unknown shipment_id, or another account's, is answered " +
            '"Shipment not found" like an unknown AWB. Sending both forms is a 400. A multi-piece shipment\'s box AWB (box 2 on) ' +
            'cancels nothing: its answer says which shipment the box is of, cancelled whole by its master AWB or shipment_id.',
          headers: IdempotencyHeaders,
          body: { ...CancelBody, examples: [ORDER_REQUESTS.cancel, ORDER_REQUESTS.cancelShipment] },
          response: {
            200: answer(
              CancelResponse,
              'Per AWB, in the order sent, or for the one shipment: cancelled, or why not.',
              ORDER_ANSWERS.cancelled,
            ),
            ...errorResponses(400, 401, 409, 413, 415, 422),
          },
        },
      },
      async (request) => {
        const body = request.body;
        if (body.awbs !== undefined && body.shipment_id !== undefined) {
          throw invalid('Send awbs, or shipment_id (with shipment_awb), not both', 'shipment_id');
        }
        const results =
          body.shipment_id !== undefined
            ? [
                await orders.cancelShipment(
                  actorOf(request),
                  body.shipment_id.trim(),
                  body.shipment_awb?.trim() || undefined,
                  request.transaction,
                ),
              ]
            : await orders.cancel(actorOf(request), body.awbs!, request.transaction);
        const cancelled = results.filter((r) => r.cancelled).length;
        return {
          message: `${cancelled} of ${results.length} ${results.length === 1 ? 'shipment' : 'shipments'} cancelled`,
          results,
        };
      },
    );
  };
}
