import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/permission-guard.js';
import { WAREHOUSE_ERRORS } from './warehouses.errors.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';
import {
  CreateWarehouseBody,
  CreateWarehouseResponse,
  VelocityWarehouseList,
  WAREHOUSE_EXAMPLES,
  WarehouseEnvelope,
  WarehouseIdParams,
  WarehouseListEnvelope,
} from './warehouses.schemas.js';
import { toVelocityWarehouseView, toWarehouseView, type WarehousesService } from './warehouses.service.js';

const tags = ['Warehouses'];

export function warehousesRoutes(warehouses: WarehousesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/warehouse',
      {
        schema: {
          tags,
          summary: 'Create a pickup location (warehouse)',
          description:
            'Names need not be unique, but a name the account already uses (ignoring case and surrounding spaces) is answered ' +
            'with a warning in payload.warnings: pickup_location by that name then names two warehouses, and orders that send it ' +
            'without warehouse_id are refused (422). A gst_no whose state code, State or check character is wrong is kept as ' +
            'sent (it is printed on labels) and named in payload.warnings.',
          body: CreateWarehouseBody,
          response: {
            201: answer(
              CreateWarehouseResponse,
              "The new warehouse's id: send it as warehouse_id on orders and returns.",
              WAREHOUSE_EXAMPLES.created,
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request, reply) => {
        const { row, warnings } = await warehouses.create(actorOf(request), request.body);
        return reply.status(201).send({
          status: 'SUCCESS' as const,
          payload: { warehouse_id: row.id, ...(warnings.length > 0 && { warnings }) },
        });
      },
    );

    app.get(
      '/warehouse',
      {
        schema: {
          tags,
          summary: "List the account's warehouses as Velocity integrations read them",
          description:
            "Velocity's GET /warehouse: each warehouse with address_attributes (as POST /warehouse takes it) and also flat " +
            "(address, city, state, pincode, country), its id also as warehouse_id, beside Dakiya's fields. Only the " +
            "caller's account's warehouses, oldest first. GET /warehouses lists the same warehouses in Dakiya's shape.",
          response: {
            200: answer(VelocityWarehouseList, "The account's warehouses.", WAREHOUSE_EXAMPLES.velocityList),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({
        status: 'SUCCESS' as const,
        data: (await warehouses.list(request.accountId)).map(toVelocityWarehouseView),
      }),
    );

    app.get(
      '/warehouses',
      {
        schema: {
          tags,
          summary: "List the account's warehouses, oldest first",
          response: {
            200: answer(WarehouseListEnvelope, "The account's warehouses.", WAREHOUSE_EXAMPLES.list),
            ...errorResponses(401),
          },
        },
      },
      async (request) => ({ data: (await warehouses.list(request.accountId)).map(toWarehouseView) }),
    );

    app.get(
      '/warehouses/:id',
      {
        config: { resource: 'Warehouse', notFound: WAREHOUSE_ERRORS.warehouse_not_found },
        schema: {
          tags,
          summary: 'Get a warehouse',
          params: WarehouseIdParams,
          response: {
            200: answer(WarehouseEnvelope, 'The warehouse.', WAREHOUSE_EXAMPLES.one),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => ({ data: toWarehouseView(await warehouses.get(request.accountId, request.params.id)) }),
    );
  };
}
