import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toCsv } from '../../domain/csv.js';
import { answer } from '../../http/answer.js';
import { checkListingDays, csvContent, pageSize, sendCsv } from '../../http/csv.js';
import { errorResponses } from '../../http/errors.js';
import { storesOf } from '../../http/store-guard.js';
import {
  ChargesListEnvelope,
  ChargesListQuery,
  EXAMPLE_CHARGES_LIST,
  EXAMPLE_SHIPPING_CHARGES,
  MAX_AWBS,
  ShippingChargesBody,
  ShippingChargesResponse,
} from './charges.schemas.js';
import type { ChargesService } from './charges.service.js';

const tags = ['Money'];
const COLUMNS = [
  'awb',
  'order_id',
  'carrier_id',
  'status',
  'created_at',
  'forward_freight',
  'cod_fee',
  'rto_freight',
  'weight_adjustment',
  'weight_adjustment_state',
  'total_charges',
  'pending_charges',
];
const money = (rupees: number) => rupees.toFixed(2);

export function chargesRoutes(charges: ChargesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/shipping-charges',
      {
        schema: {
          tags,
          summary: "Each shipment's charge lines and total, by AWB (Velocity's /shipping-charges)",
          description:
            `Up to ${MAX_AWBS} AWBs. Each answers under its own key: found 1 with its lines (forward freight and COD fee from the ` +
            'booking quote, RTO freight once an RTO has begun, the weight adjustment of a weight discrepancy), total_charges (the ' +
            "charged lines) and pending_charges; or found 0 with error, for an AWB this account does not have (another account's " +
            'included). Amounts in rupees, exact to the paisa.',
          body: ShippingChargesBody,
          response: {
            200: answer(ShippingChargesResponse, 'Per AWB, its charges or why not.', EXAMPLE_SHIPPING_CHARGES),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => charges.byAwbs(request.accountId, request.body.awbs),
    );

    app.get(
      '/shipping-charges',
      {
        schema: {
          tags,
          summary:
            "The account's booked shipments with their charges, newest first, with filters and cursor paging; or their CSV",
          description:
            'from and to are days of creation (India time); state keeps the shipments with a line in that state. format=csv answers up to 10,000 rows, the cursor for more in Dakiya-Next-Cursor.',
          querystring: ChargesListQuery,
          response: {
            200: {
              description: 'A page of shipments and their charges (JSON), or a CSV file of them.',
              content: {
                'application/json': { schema: ChargesListEnvelope, example: EXAMPLE_CHARGES_LIST },
                ...csvContent,
              },
            },
            ...errorResponses(400, 401),
          },
        },
      },
      async (request, reply) => {
        checkListingDays(request.query);
        const page = await charges.list(request.accountId, request.query, pageSize(request.query), storesOf(request));
        if (request.query.format !== 'csv') return page;
        const rows = page.data.map((c) => [
          c.awb,
          c.order_id,
          c.carrier_id,
          c.status,
          c.created_at,
          money(c.forward_freight),
          money(c.cod_fee),
          money(c.rto_freight),
          money(c.weight_adjustment),
          c.weight_adjustment_state,
          money(c.total_charges),
          money(c.pending_charges),
        ]);
        return sendCsv(reply, 'shipping-charges', toCsv(COLUMNS, rows), page.next_cursor);
      },
    );
  };
}
