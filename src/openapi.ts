import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { eventWebhooks } from './events/event-payloads.js';
import { Event } from './events/events.schemas.js';
import { ERROR_CODES } from './error-codes.js';
import { ErrorBody } from './http/errors.js';
import { documentIgnoredFieldsHeader } from './http/lenient-input.js';
import { ReturnElement } from './readers/returns-listing/returns-listing.schemas.js';
import { ShipmentElement } from './readers/shipments/shipment-element.schemas.js';
import { Delivery, WebhookEndpoint } from './consumers/webhooks/webhooks.schemas.js';
import { ChannelView } from './consumers/messaging/channel.schemas.js';
import { publishStatedRules } from './http/stated-rules.js';
import { ROUTE_SCOPES } from './http/host.js';
import { type DocumentedOperation, documentPermissions } from './http/permission-guard.js';
import { BUYER_DOCUMENTS, ROUTE_PERMISSIONS, STORE_REACH } from './route-permissions.js';
import { OrderConfirmation } from './consumers/messaging/messaging.schemas.js';
import { Store } from './tenancy/stores/stores.schemas.js';
import { Warehouse } from './tenancy/warehouses/warehouses.schemas.js';
import { WeightDiscrepancy } from './features/charges/weight-disputes.schemas.js';

/** The OpenAPI 3.1 document at /openapi.json and its viewer at /docs: info, security, tags and the shared components. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Dakiya shipping API',
        version: '1.0.0',
        description:
          'Stores, rate quotes, forward shipments, tracking and listings for Indian e-commerce, compatible with ' +
          'Velocity\'s Shipfast API. Every error answers `{"message": "...", "errors": ["..."]}` (`message` is the ' +
          'first of `errors`; `details` names the fields at fault). Any text containing NUL or an unpaired UTF-16 ' +
          'surrogate is a 400 naming the field, on every route; a path parameter over 100 characters is a 414; a ' +
          'method a path does not take is a 405 with `Allow`.\n\n' +
          'On the `/custom/api/v1` routes, as with Velocity: a body field a route does not know is ignored (and named in ' +
          'the `Dakiya-Ignored-Fields` response header); a plain decimal string is read as a number where a number is ' +
          'expected (`"0.5"`), a number as its decimal string where a string is expected (`110015`), and `"true"`/`"false"` ' +
          'as booleans. Any other wrong type or value is a 400 naming the field. The operator and courier routes are strict.',
      },
      components: {
        securitySchemes: {
          credential: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'An API key or access token, bare, as "Bearer <credential>" or as "Token <credential>" (any case of the scheme word).',
          },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token (ADMIN_TOKEN).' },
          carrierToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A courier service token (POST /admin/v1/carrier-tokens).',
          },
        },
      },
      security: [{ credential: [] }],
      // In the order a merchant works: log in, set up, quote, ship, follow, report; then the operator's and courier's side.
      tags: [
        {
          name: 'Auth',
          description:
            "Access tokens from a username and password. API keys: the operator's first one for a new account, then your own " +
            '(POST /api-keys, or Settings › API keys in the panel).',
        },
        {
          name: 'Members',
          description:
            "The account's team: members invited by e-mail, each with a role that says what they may do (docs/teams.md).",
        },
        { name: 'Stores', description: 'One per brand: the name and logo customers see.' },
        { name: 'Warehouses', description: 'Where parcels are picked up and returns go back to.' },
        {
          name: 'Rates',
          description: 'Courier quotes for a lane, weight and payment method; serviceability; the courier services.',
        },
        { name: 'Orders', description: 'Forward orders, courier booking, labels, updates and cancellation.' },
        {
          name: 'Sales channels',
          description:
            "A store's Shopify shop or WooCommerce site connected: its orders imported, tracking written back (docs/channels.md).",
        },
        {
          name: 'Courier allocation',
          description: 'Rules that choose the courier of an order booked without carrier_id, and a dry run of them.',
        },
        {
          name: 'Pickups',
          description: "Couriers asked to collect a warehouse's parcels on a day, and the manifest the rider signs.",
        },
        { name: 'Returns', description: 'Reverse pickups from customers, with quality checks, and their listing.' },
        {
          name: 'Exchanges',
          description: "A replacement sent and the old item picked up, booked together; the account's exchange terms.",
        },
        {
          name: 'Return requests',
          description:
            "Returns the buyer asks for on the tracking page: each store's return policy, the requests, the merchant's decision.",
        },
        {
          name: 'Refunds',
          description:
            'What the buyer of an approved return request is owed, recorded to the paisa; paid by your payment system, which reports each step.',
        },
        { name: 'Tracking', description: 'Shipment status and scans; couriers report their scans here.' },
        {
          name: 'Tracking page',
          description:
            "The customer's public page for a booked shipment (track_url), in English and Hindi, and its JSON.",
        },
        {
          name: 'NDR actions',
          description: 'After a failed delivery: ask for another attempt or send the parcel back.',
        },
        {
          name: 'RTO risk and NDR rules',
          description:
            'Fewer parcels coming back: the risk thresholds scored at booking and the rules that act on failed deliveries (docs/rto.md).',
        },
        {
          name: 'Paperwork',
          description:
            "The documents a consignment travels with: whether an order over the e-way bill limit (rule 138 of the CGST Rules) is refused without one, and the buyer's GST tax invoice with each store's seller details and invoice series (docs/paperwork.md).",
        },
        {
          name: 'Privacy',
          description:
            "Buyers' personal data: erased on their request (DPDP Act 2023), and anonymised a while after their shipments finish (docs/data-lifecycle.md).",
        },
        { name: 'Shipments', description: 'The listing of forward shipments: filters, exact totals and paging.' },
        {
          name: 'Buyer messaging',
          description:
            'WhatsApp, SMS and e-mail to buyers: COD order confirmation with Confirm and Cancel, and COD to prepaid (docs/rto.md).',
        },
        { name: 'Reports', description: 'Counts and order values per status over a date range.' },
        {
          name: 'Money',
          description:
            "Where the money is: each shipment's charges, and couriers' weight discrepancies to accept or dispute.",
        },
        {
          name: 'COD remittances',
          description:
            'The cash couriers collect on delivery: what they owe (receivables), what they paid (remittance files), where the two differ, per cycle; CSV exports.',
        },
        {
          name: 'Events and webhooks',
          description:
            'Every change as an event: polled from GET /events, or pushed, signed and retried, to your endpoints (the webhooks section lists each payload).',
        },
        { name: 'Operator', description: 'Accounts, API keys and courier tokens; enabled by ADMIN_TOKEN.' },
        { name: 'Health', description: 'Liveness and readiness for load balancers.' },
      ],
    },
    transformObject: (documents) =>
      ({
        ...documentPermissions(
          publishStatedRules(
            documentIgnoredFieldsHeader(('openapiObject' in documents ? documents.openapiObject : {}) as never),
          ) as { paths?: Record<string, Record<string, DocumentedOperation>> },
          ROUTE_PERMISSIONS,
          ROUTE_SCOPES.account,
          BUYER_DOCUMENTS,
          STORE_REACH,
        ),
        webhooks: eventWebhooks(),
      }) as never,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Every code an answer can carry, listed where clients generate their types from.
  app.addSchema({
    ...ErrorBody,
    properties: {
      ...ErrorBody.properties,
      code: { ...ErrorBody.properties.code, enum: ERROR_CODES.map((c) => c.code) },
    },
  });
  app.addSchema(Store);
  app.addSchema(Warehouse);
  app.addSchema(ShipmentElement);
  app.addSchema(ReturnElement);
  app.addSchema(Event);
  app.addSchema(WebhookEndpoint);
  app.addSchema(Delivery);
  app.addSchema(WeightDiscrepancy);
  app.addSchema(OrderConfirmation);
  app.addSchema(ChannelView);
}
