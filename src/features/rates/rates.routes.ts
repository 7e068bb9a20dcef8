import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/errors.js';
import { answer } from '../../http/answer.js';
import { RATES_ANSWERS } from './rates.examples.js';
import { PincodeAnswer, PincodeParams, RatesBody, ServiceabilityBody } from './rates.schemas.js';
import type { RatesService } from './rates.service.js';
import { CarriersResponseSchema, RatesResponseSchema, ServiceabilityResponseSchema } from './response.js';
import { JSON_CONTENT_TYPE } from '../../http/json-reply.js';

const tags = ['Rates'];

export function ratesRoutes(rates: RatesService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/rates',
      {
        schema: {
          tags,
          summary: 'Courier rate quotes for a forward or return shipment',
          description:
            'Lists the courier services that can carry the shipment, cheapest total first, with charges in rupees ' +
            'and expected pickup and delivery dates (India time). An unserviceable lane answers 200 with an empty list. ' +
            'Weights in grams, dimensions in cm; volumetric weight = L x W x H / 5.',
          body: RatesBody,
          response: {
            200: answer(
              RatesResponseSchema,
              'The serviceable courier services, cheapest first, with charges and dates.',
              RATES_ANSWERS.rates,
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      (request, reply) => {
        // The 200 schema documents the body, which the service hands over already written as JSON
        // bytes; the typed reply only knows the object form.
        reply.type(JSON_CONTENT_TYPE).send(rates.quoteJson(request.body) as never);
      },
    );

    app.post(
      '/serviceability',
      {
        schema: {
          tags,
          summary: 'Which courier services can carry a lane, and its zone',
          body: ServiceabilityBody,
          response: {
            200: answer(
              ServiceabilityResponseSchema,
              'The courier services that serve the lane, and its zone.',
              RATES_ANSWERS.serviceability,
            ),
            ...errorResponses(400, 401, 413, 415),
          },
        },
      },
      async (request) => rates.serviceability(request.body),
    );

    app.get(
      '/carriers',
      {
        schema: {
          tags,
          summary: 'The courier service catalogue (ids, names, codes, service levels, flags)',
          response: {
            200: answer(CarriersResponseSchema, 'Every courier service in the catalogue.', RATES_ANSWERS.carriers),
            ...errorResponses(401),
          },
        },
      },
      async () => rates.carriers(),
    );

    app.get(
      '/pincodes/:pincode',
      {
        config: { resource: 'Pincode' },
        schema: {
          tags,
          summary: "A pincode's city, district and state, from the pincode directory",
          description:
            "For filling a form: the city an address names (the district for most pincodes, the metro for a metro's districts), the " +
            'district and the state. An unknown pincode is a 404.',
          params: PincodeParams,
          response: {
            200: answer(PincodeAnswer, "The pincode's city, district and state.", {
              pincode: '110020',
              city: 'Delhi',
              district: 'South East',
              state: 'Delhi',
            }),
            ...errorResponses(401, 404),
          },
        },
      },
      async (request) => rates.pincode(request.params.pincode),
    );
  };
}
