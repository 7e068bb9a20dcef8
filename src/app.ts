import { randomUUID } from 'node:crypto';
import ajvCompiler from '@fastify/ajv-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { KeywordDefinition } from 'ajv';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { type Clock, systemClock } from './base/clock.js';
import { type CourierSettings, DEFAULT_COURIER_SETTINGS, DEFAULT_RETRY_DELAYS } from './base/config.js';
import { createConnectors, createCouriers } from './couriers/couriers.service.js';
import { createTrackingPoller, type TrackingPoller } from './couriers/tracking-poller.js';
import type { Db } from './base/db/client.js';
import { accountAuth, adminAuth } from './http/auth.js';
import {
  badRequest,
  createRouteMethods,
  documentInputErrors,
  ErrorBody,
  errorHandler,
  notFound,
  notFoundHandler,
  routingErrorHandler,
} from './http/errors.js';
import type { Redis } from 'ioredis';
import { installAccountRateLimit } from './http/rate-limit.js';
import { adminRoutes, authTokenRevokeRoutes, authTokenRoutes } from './tenancy/accounts/accounts.routes.js';
import { memoryLoginLimiter, redisLoginLimiter } from './tenancy/accounts/login-limits.js';
import { createAccountsService } from './tenancy/accounts/accounts.service.js';
import { createEventLog } from './events/event-log.js';
import { eventsRoutes } from './readers/event-feed/event-feed.routes.js';
import { Event } from './events/events.schemas.js';
import { createEventsService } from './readers/event-feed/event-feed.service.js';
import { WEBHOOK_TIMEOUT_MS } from './consumers/webhooks/send.js';
import { installWebhookWorker, type WebhookSettings } from './consumers/webhooks/webhooks.register.js';
import { webhooksRoutes } from './consumers/webhooks/webhooks.routes.js';
import { Delivery, WebhookEndpoint } from './consumers/webhooks/webhooks.schemas.js';
import { eventWebhooks } from './events/event-payloads.js';
import { healthRoutes } from './readers/health/health.routes.js';
import { DEFAULT_NOTIFICATIONS, installNotifications, type NotificationSettings } from './consumers/notifications/notifications.register.js';
import { notificationsRoutes } from './consumers/notifications/notifications.routes.js';
import { publicLogoRoutes, storesRoutes } from './tenancy/stores/stores.routes.js';
import { Store } from './tenancy/stores/stores.schemas.js';
import { createStoresService } from './tenancy/stores/stores.service.js';
import { ensureServerSecret } from './base/db/secrets.js';
import { installIdempotency } from './http/idempotency.js';
import { withPrivateErrors } from './http/log-privacy.js';
import { wellFormedTextFactory } from './http/text-input.js';
import { allErrorsFactory } from './http/all-errors.js';
import { prefixItems } from './http/tuple.js';
import { documentIgnoredFieldsHeader, installIgnoredFieldsHeader, lenientValidatorFactory } from './http/lenient-input.js';
import { createLabelLinks } from './domain/shipment/label-links.js';
import { labelLinkRoutes, labelsRoutes } from './features/labels/labels.routes.js';
import { carrierActionRoutes, ndrRoutes } from './features/ndr/ndr.routes.js';
import { createNdrService } from './features/ndr/ndr.service.js';
import { createLabelsService } from './features/labels/labels.service.js';
import { ordersRoutes } from './features/orders/orders.routes.js';
import { createOrderUpdateService } from './features/orders/order-update.service.js';
import { createOrdersService } from './features/orders/orders.service.js';
import { createReturnsListing } from './readers/returns-listing/returns-listing.js';
import { ReturnElement } from './readers/returns-listing/returns-listing.schemas.js';
import { returnsListingRoutes } from './readers/returns-listing/returns-listing.routes.js';
import { returnsRoutes } from './features/returns/returns.routes.js';
import { createReturnsService } from './features/returns/returns.service.js';
import type { RatesContext } from './domain/rates/context.js';
import { ratesRoutes } from './features/rates/rates.routes.js';
import { createRatesService } from './features/rates/rates.service.js';
import { reportsRoutes } from './readers/reports/reports.routes.js';
import { createReportsService } from './readers/reports/reports.service.js';
import { shipmentsRoutes } from './readers/shipments/shipments.routes.js';
import { ShipmentElement } from './readers/shipments/shipments.schemas.js';
import { createShipmentsService } from './readers/shipments/shipments.service.js';
import { carrierAuth, carrierRoutes, carrierTokenAdminRoutes, trackingRoutes } from './features/tracking/tracking.routes.js';
import { createTrackingService } from './features/tracking/tracking.service.js';
import { trackUrlOf } from './domain/shipment/track-links.js';
import { createFormTokens } from './consumers/tracking-page/form-tokens.js';
import { trackingPageRoutes } from './consumers/tracking-page/tracking-page.routes.js';
import { createTrackingPageService } from './consumers/tracking-page/tracking-page.service.js';
import { warehousesRoutes } from './tenancy/warehouses/warehouses.routes.js';
import { Warehouse } from './tenancy/warehouses/warehouses.schemas.js';
import { createWarehousesService } from './tenancy/warehouses/warehouses.service.js';
import { defaultRatesContext } from './data-files.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pulls couriers' scans and hands them NDR instructions; stops with the app. */
    courierPoller: TrackingPoller;
  }
}

export interface AppDeps {
  db: Db;
  /** Base of absolute public URLs (logo links). */
  publicBaseUrl: string;
  /** Enables the operator API at /admin/v1 when set. */
  adminToken?: string | undefined;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Pincode directory, zones, couriers and holidays; the shipped data files by default. */
  rates?: RatesContext;
  /** How long a label link stays valid. */
  labelUrlTtlSeconds?: number;
  /** Request and login limits; DEFAULT_LIMITS for what is left out. */
  limits?: Partial<LimitSettings>;
  /** Couriers' credentials and the tracking poller's pace; the defaults serve a catalogue of push services. */
  couriers?: CourierSettings;
  /** Whether the tracking poller runs on its timer (default true); tests run rounds with app.courierPoller.runOnce(). */
  startWorkers?: boolean;
  /** Webhook targets, retries and the in-process delivery worker; DEFAULT_WEBHOOKS for what is left out. */
  webhooks?: Partial<WebhookSettings>;
  /** Customer e-mails (SMTP, sender, retries) and their in-process worker; DEFAULT_NOTIFICATIONS for what is left out. */
  notifications?: Partial<NotificationSettings>;
}

export interface LimitSettings {
  /** Requests per minute per account on the credentialed routes; 0 turns the limit off. */
  ratePerMinute: number;
  /** Failed logins per minute per username and per client address. */
  loginAttemptsPerMinute: number;
  /** Counters shared by every API process (REDIS_URL); in process when absent. The caller owns the connection. */
  redis: Redis | undefined;
  /** Prefix of every Redis key this app writes. */
  redisKeyPrefix: string;
}

export const DEFAULT_LIMITS: LimitSettings = {
  ratePerMinute: 6000,
  loginAttemptsPerMinute: 10,
  redis: undefined,
  redisKeyPrefix: 'dakiya:',
};

export const ADMIN_DISABLED =
  'The operator API (/admin/v1) is disabled: set ADMIN_TOKEN (at least 16 characters) in the environment and restart the server';

export const DEFAULT_WEBHOOKS: WebhookSettings = {
  worker: true,
  pollIntervalMs: 1000,
  retryDelaysSeconds: DEFAULT_RETRY_DELAYS,
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  allowHttp: false,
  allowPrivate: false,
};

export const DEFAULT_LABEL_URL_TTL_SECONDS = 24 * 60 * 60;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const AJV_OPTIONS: { coerceTypes: false; removeAdditional: false; verbose: true; keywords: (string | KeywordDefinition)[] } = {
  // Strict input: "12" is not a number and unknown fields are errors, not silently dropped. The
  // Velocity routes reshape a body that fails this once, and check it again (http/lenient-input.ts).
  coerceTypes: false,
  removeAdditional: false,
  // Gives the error formatter each failing schema, for the messages kept in `x-error`.
  verbose: true,
  // prefixItems: tuples are written as OpenAPI 3.1 has them (http/tuple.ts).
  keywords: ['x-error', 'x-required-error', prefixItems],
};

/** Wires the whole API from explicit dependencies. It never listens: main.ts does, tests inject. */
export async function buildApp(deps: AppDeps) {
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: withPrivateErrors(deps.logger),
    // A caller's own request id is kept (so logs join up across services) when it is safe to log.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    // One line per request (below), not Fastify's two ("incoming request", "request completed").
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: routingErrorHandler,
    ajv: { customOptions: AJV_OPTIONS },
    schemaController: { compilersFactory: { buildValidator: wellFormedTextFactory(lenientValidatorFactory(allErrorsFactory(ajvCompiler()))) } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Fields the hooks set on a request, declared up front so that every request object is built
  // with one shape instead of growing a property mid-flight.
  app.decorateRequest('accountId', '');
  app.decorateRequest('transaction', undefined);
  app.decorateRequest('carrierId', '');

  app.setErrorHandler(errorHandler);
  installIgnoredFieldsHeader(app);
  const routeMethods = createRouteMethods();
  app.addHook('onRoute', (route) => {
    routeMethods.add(route);
    documentInputErrors(route);
  });
  app.setNotFoundHandler(notFoundHandler(routeMethods));
  // Callback-style hooks: an async hook costs every request a promise for trivial work.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (deps.logger) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, account: request.accountId || undefined },
        'request',
      );
      done();
    });
  }
  // Only JSON (and multipart where a route takes a file) is spoken; text/plain would reach
  // handlers unvalidated.
  app.removeContentTypeParser('text/plain');

  // (A multipart body is attached later, by the multipart plugin's own hook in the stores scope.)
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== undefined) return done();
    const multipartBody = request.headers['content-type']?.startsWith('multipart/form-data') ?? false;
    if (request.routeOptions.schema?.body && !multipartBody) {
      if (!request.routeOptions.config.optionalBody) return done(badRequest('A request body is required: send a JSON object'));
      request.body = {};
    }
    done();
  });

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
            description: 'An API key or access token, bare or as "Bearer <credential>".',
          },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The operator token (ADMIN_TOKEN).' },
          carrierToken: { type: 'http', scheme: 'bearer', description: 'A courier service token (POST /admin/v1/carrier-tokens).' },
        },
      },
      security: [{ credential: [] }],
      // In the order a merchant works: log in, set up, quote, ship, follow, report; then the operator's and courier's side.
      tags: [
        { name: 'Auth', description: 'Access tokens from a username and password (API keys come from the operator).' },
        { name: 'Stores', description: 'One per brand: the name and logo customers see.' },
        { name: 'Warehouses', description: 'Where parcels are picked up and returns go back to.' },
        { name: 'Rates', description: 'Courier quotes for a lane, weight and payment method; serviceability; the courier services.' },
        { name: 'Orders', description: 'Forward orders, courier booking, labels, updates and cancellation.' },
        { name: 'Returns', description: 'Reverse pickups from customers, with quality checks, and their listing.' },
        { name: 'Tracking', description: "Shipment status and scans; couriers report their scans here." },
        { name: 'Tracking page', description: "The customer's public page for a booked shipment (track_url), in English and Hindi, and its JSON." },
        { name: 'NDR actions', description: 'After a failed delivery: ask for another attempt or send the parcel back.' },
        { name: 'Shipments', description: 'The listing of forward shipments: filters, exact totals and paging.' },
        { name: 'Reports', description: 'Counts and order values per status over a date range.' },
        {
          name: 'Events and webhooks',
          description: 'Every change as an event: polled from GET /events, or pushed, signed and retried, to your endpoints (the webhooks section lists each payload).',
        },
        { name: 'Operator', description: 'Accounts, API keys and courier tokens; enabled by ADMIN_TOKEN.' },
        { name: 'Health', description: 'Liveness and readiness for load balancers.' },
      ],
    },
    transformObject: (documents) =>
      ({
        ...documentIgnoredFieldsHeader(('openapiObject' in documents ? documents.openapiObject : {}) as never),
        webhooks: eventWebhooks(),
      }) as never,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.addSchema(ErrorBody);
  app.addSchema(Store);
  app.addSchema(Warehouse);
  app.addSchema(ShipmentElement);
  app.addSchema(ReturnElement);
  app.addSchema(Event);
  app.addSchema(WebhookEndpoint);
  app.addSchema(Delivery);

  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const loginLimiter = limits.redis
    ? redisLoginLimiter(limits.redis, limits.loginAttemptsPerMinute, limits.redisKeyPrefix)
    : memoryLoginLimiter(limits.loginAttemptsPerMinute);
  const accounts = createAccountsService({ db: deps.db, clock, loginLimiter });
  const rates = deps.rates ?? defaultRatesContext();
  // Services record their changes' events through this, in their own transactions.
  const trackUrl = trackUrlOf(deps.publicBaseUrl);
  const events = createEventLog({ catalogue: rates.catalogue, trackUrl });
  const stores = createStoresService({ db: deps.db, clock, publicBaseUrl: deps.publicBaseUrl, events });
  const warehouses = createWarehousesService({ db: deps.db, clock, directory: rates.directory });
  const labelLinks = createLabelLinks({
    secret: await ensureServerSecret(deps.db, 'label-links'),
    publicBaseUrl: deps.publicBaseUrl,
    ttlSeconds: deps.labelUrlTtlSeconds ?? DEFAULT_LABEL_URL_TTL_SECONDS,
    clock,
  });
  const courierSettings = deps.couriers ?? DEFAULT_COURIER_SETTINGS;
  const couriers = createCouriers({
    db: deps.db,
    clock,
    catalogue: rates.catalogue,
    connectors: createConnectors(rates.catalogue, courierSettings, deps.db, clock),
    log: app.log,
  });
  const returns = createReturnsService({ db: deps.db, clock, rates, warehouses, events, couriers });
  const orders = createOrdersService({ db: deps.db, clock, rates, warehouses, stores, labelLinks, trackUrl, events, couriers, returns });
  const labels = createLabelsService({ db: deps.db, links: labelLinks, catalogue: rates.catalogue });
  const tracking = createTrackingService({ db: deps.db, clock, catalogue: rates.catalogue, trackUrl, events, labelLinks });
  const ndr = createNdrService({ db: deps.db, clock, calendar: rates.calendar, events });
  // Pulled scans enter the same intake as pushed ones.
  const poller = createTrackingPoller({ db: deps.db, clock, couriers, ingest: tracking.ingest, pollSeconds: courierSettings.pollSeconds, log: app.log });
  app.decorate('courierPoller', poller);
  app.addHook('onClose', () => poller.stop());
  const webhooks = installWebhookWorker(app, deps.db, clock, events, { ...DEFAULT_WEBHOOKS, ...deps.webhooks });
  const notifications = installNotifications(app, deps.db, events, deps.publicBaseUrl, { ...DEFAULT_NOTIFICATIONS, ...deps.notifications });
  const trackingPages = createTrackingPageService({
    db: deps.db,
    clock,
    catalogue: rates.catalogue,
    calendar: rates.calendar,
    ndr,
    publicBaseUrl: deps.publicBaseUrl,
    trackUrl,
  });

  await app.register(healthRoutes(deps.db));
  await app.register(publicLogoRoutes(stores), { prefix: '/public/v1' });
  await app.register(labelsRoutes(labels), { prefix: '/public/v1' });
  await app.register(trackingPageRoutes(trackingPages, createFormTokens(await ensureServerSecret(deps.db, 'track-forms')), clock));
  await app.register(authTokenRoutes(accounts), { prefix: '/custom/api/v1' });
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', accountAuth(accounts.authenticate));
      await installAccountRateLimit(v1, { perMinute: limits.ratePerMinute, redis: limits.redis, keyPrefix: limits.redisKeyPrefix });
      installIdempotency(v1, { db: deps.db, clock });
      await v1.register(authTokenRevokeRoutes(accounts));
      await v1.register(storesRoutes(stores));
      await v1.register(ratesRoutes(createRatesService({ rates, clock })));
      await v1.register(warehousesRoutes(warehouses));
      await v1.register(ordersRoutes(orders, createOrderUpdateService({ db: deps.db, clock, orders })));
      await v1.register(returnsRoutes(returns));
      await v1.register(returnsListingRoutes(createReturnsListing({ db: deps.db, catalogue: rates.catalogue })));
      await v1.register(trackingRoutes(tracking));
      await v1.register(reportsRoutes(createReportsService({ db: deps.db })));
      await v1.register(ndrRoutes(ndr));
      await v1.register(shipmentsRoutes(createShipmentsService({ db: deps.db, catalogue: rates.catalogue, labelLinks, trackUrl })));
      await v1.register(labelLinkRoutes(labels));
      await v1.register(eventsRoutes(createEventsService({ db: deps.db })));
      await v1.register(webhooksRoutes(webhooks));
      await v1.register(notificationsRoutes(notifications));
    },
    { prefix: '/custom/api/v1' },
  );
  await app.register(carrierRoutes(tracking), { prefix: '/carrier/v1' });
  // NDR instructions for couriers: their own scope under the same carrier-token check.
  await app.register(
    async (carrier) => {
      carrier.addHook('onRequest', carrierAuth(tracking));
      await carrier.register(carrierActionRoutes(ndr));
    },
    { prefix: '/carrier/v1' },
  );
  const { adminToken } = deps;
  if (adminToken) {
    await app.register(
      async (admin) => {
        admin.addHook('onRequest', adminAuth(adminToken));
        await admin.register(adminRoutes(accounts));
        await admin.register(carrierTokenAdminRoutes(tracking));
      },
      { prefix: '/admin/v1' },
    );
  } else {
    // Without ADMIN_TOKEN the operator API does not exist; the 404 says why, so nobody hunts for a typo.
    app.all('/admin/v1/*', { schema: { hide: true } }, async () => {
      throw notFound(ADMIN_DISABLED);
    });
  }

  await app.ready();
  if (deps.startWorkers !== false) poller.start();
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
