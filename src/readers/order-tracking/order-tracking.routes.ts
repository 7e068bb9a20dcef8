import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  OrderTrackingBody,
  OrderTrackingResponse,
  STATUS_CATALOGUE,
  StatusCatalogueResponse,
} from './order-tracking.schemas.js';
import type { OrderTracking } from './order-tracking.service.js';

export function orderTrackingRoutes(tracking: OrderTracking): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/order-tracking',
      {
        schema: {
          tags: ['Tracking'],
          summary: 'Tracking history of shipments by AWB',
          description:
            "Velocity's answer, keyed by AWB: shipment_track (one entry per shipment; its id is the shipment id) and " +
            "shipment_track_activities, newest first, labelled with Velocity's upper-case activity words. Dates are India " +
            'time written YYYY-MM-DD HH:mm:ss, as Velocity writes them. The label table is in docs/tracking.md. ' +
            'Return AWBs answer the same shape with is_return: 1, the return statuses, RETURN … labels and the QC result ' +
            "(origin: the customer; destination and consignee: the warehouse). A multi-piece shipment's box AWB (box 2 on) " +
            'answers its shipment, as its master AWB does, adding asked_awb and box_no.',
          body: OrderTrackingBody,
          response: {
            200: answer(OrderTrackingResponse, "Each AWB's status, shipment details and scans, keyed by AWB."),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => tracking.track(request.accountId, request.body.awbs),
    );

    app.get(
      '/meta/statuses',
      {
        schema: {
          tags: ['Tracking'],
          summary:
            'Shipment statuses, their granular sub-statuses, NDR and RTO reasons, and allowed transitions; the same for returns',
          response: {
            200: answer(
              StatusCatalogueResponse,
              'The status vocabulary of forward shipments and returns.',
              STATUS_CATALOGUE,
            ),
            ...errorResponses(401),
          },
        },
      },
      async () => STATUS_CATALOGUE,
    );
  };
}
