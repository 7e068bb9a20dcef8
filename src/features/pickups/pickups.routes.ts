import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { Type } from 'typebox';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import { storesOf } from '../../http/store-guard.js';
import { IdempotencyHeaders } from '../../http/schemas.js';
import {
  PICKUP_BODY_EXAMPLE,
  PickupBody,
  PickupEnvelope,
  PickupListEnvelope,
  PickupListQuery,
  PickupParams,
} from './pickups.schemas.js';
import type { PickupsService } from './pickups.service.js';

const tags = ['Pickups'];
const ManifestPdf = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The manifest: an A4 PDF.' });

/** Pickups and their manifests, under /custom/api/v1 (docs/couriers.md, "Pickups and manifests"). */
export function pickupsRoutes(pickups: PickupsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/pickups',
      {
        config: { idempotent: true },
        schema: {
          tags,
          summary: 'Ask a courier to collect parcels at a warehouse, and make their manifest',
          description:
            "The courier is asked through its API where it has one (Delhivery's pickup request; the answer's courier_reference), " +
            'else the pickup is recorded for the rider who comes by. Its shipments are then manifested (the listing filters ' +
            '`manifested` and `pickup_id` find them). Every bad field is named in one 400 or 422; AWBs that cannot go on it ' +
            "(unknown or another account's, another warehouse or courier, picked up, cancelled, held, or on a pickup already) " +
            'are each named, and nothing is written. A courier that refuses answers 422 in its words, one that fails 502/503: ' +
            'nothing is written either. With an Idempotency-Key, a retry answers the first pickup. The hourly check flags a pickup whose day ended (India time) with parcels not picked up. ' +
            "A multi-piece shipment's box AWB puts its whole shipment on the pickup (once, listed by its master AWB).",
          headers: IdempotencyHeaders,
          body: { ...PickupBody, examples: [PICKUP_BODY_EXAMPLE] },
          response: {
            201: answer(PickupEnvelope, 'The pickup and its manifest.'),
            ...errorResponses(400, 401, 409, 413, 415, 422, 502, 503),
          },
        },
      },
      // Answered by returning it (not reply.send): the Idempotency-Key's wrapper keeps what the handler returns.
      async (request, reply) => {
        const data = await pickups.create(actorOf(request), request.body, request.transaction);
        reply.status(201);
        return { data };
      },
    );

    app.get(
      '/pickups',
      {
        schema: {
          tags,
          summary: "List the account's pickups, newest first",
          querystring: PickupListQuery,
          response: {
            200: answer(PickupListEnvelope, 'A page of pickups with their shipments.'),
            ...errorResponses(400, 401, 422),
          },
        },
      },
      async (request) => pickups.list(request.accountId, request.query, storesOf(request)),
    );

    app.get(
      '/pickups/:id',
      {
        config: { resource: 'Pickup' },
        schema: {
          tags,
          summary: 'Get a pickup: its status, shipments and the parcels it missed',
          params: PickupParams,
          response: { 200: answer(PickupEnvelope, 'The pickup.'), ...errorResponses(401, 404) },
        },
      },
      async (request) => ({ data: await pickups.get(request.accountId, request.params.id) }),
    );

    app.get(
      '/pickups/:id/manifest.pdf',
      {
        config: { resource: 'Pickup' },
        schema: {
          tags,
          summary: "Print a pickup's manifest",
          description:
            'An A4 PDF for the rider to sign: courier, warehouse, date, and a row per parcel with its AWB as a Code 128 ' +
            'barcode, the order id, weight and cash to collect; the totals and two signature lines. The same document every time.',
          params: PickupParams,
          response: {
            200: { description: 'The manifest PDF.', content: { 'application/pdf': { schema: ManifestPdf } } },
            ...errorResponses(401, 404),
          },
        },
      },
      async (request, reply) =>
        reply
          .type('application/pdf')
          .header('cache-control', 'private, no-cache')
          .header('content-disposition', `inline; filename="manifest-${request.params.id}.pdf"`)
          .send(await pickups.manifest(request.accountId, request.params.id)),
    );
  };
}
