import { systemClock } from './base/clock.js';
import { buildApiConnector, checkAwbSeries, createConnectors, createCouriers } from './couriers/couriers.service.js';
import { createTrackingPoller, type TrackingPoller } from './couriers/tracking-poller.js';
import { createHealthRecorder } from './couriers/connector-health.js';
import { courierConnectionsRoutes } from './couriers/courier-connections.routes.js';
import { createCourierConnections } from './couriers/courier-connections.service.js';
import { createCourierCredentials } from './couriers/courier-credentials.service.js';
import { DEFAULT_COURIER_SETTINGS, DEFAULT_LABEL_URL_TTL_SECONDS, DEFAULT_WEIGHT_DISPUTE_WINDOW_DAYS } from './base/config.js';
import { accountAuth, adminAuth } from './http/auth.js';
import { notFound } from './http/errors.js';
import { RedisBreaker } from './base/redis.js';
import { installAccountRateLimit, installAddressRateLimit } from './http/rate-limit.js';
import { adminRoutes, authTokenRevokeRoutes, authTokenRoutes } from './tenancy/accounts/accounts.routes.js';
import { apiKeyRoutes } from './tenancy/accounts/api-keys.routes.js';
import { breakerLoginLimiter, memoryLoginLimiter } from './tenancy/accounts/login-limits.js';
import { createAccountsService } from './tenancy/accounts/accounts.service.js';
import { panelSessions, sessionRoutes } from './tenancy/accounts/sessions.routes.js';
import { createEventLog } from './events/event-log.js';
import { createSubjectSnapshots } from './readers/event-snapshots/event-snapshots.js';
import { eventsRoutes } from './readers/event-feed/event-feed.routes.js';
import { createEventsService } from './readers/event-feed/event-feed.service.js';
import { installWebhookWorker, } from './consumers/webhooks/webhooks.register.js';
import { webhooksRoutes } from './consumers/webhooks/webhooks.routes.js';
import { healthRoutes } from './readers/health/health.routes.js';
import { DEFAULT_NOTIFICATIONS, installNotifications, } from './consumers/notifications/notifications.register.js';
import { notificationsRoutes } from './consumers/notifications/notifications.routes.js';
import { DEFAULT_MESSAGING, installMessaging, } from './consumers/messaging/messaging.register.js';
import { messagingPublicRoutes, messagingRoutes } from './consumers/messaging/messaging.routes.js';
import { createSecretBox } from './base/secret-box.js';
import { publicLogoRoutes, storesRoutes } from './tenancy/stores/stores.routes.js';
import { createStoresService } from './tenancy/stores/stores.service.js';
import { ensureServerSecret } from './base/db/secrets.js';
import { installIdempotency } from './http/idempotency.js';
import { createLabelLinks } from './domain/shipment/label-links.js';
import { labelLinkRoutes, labelsRoutes } from './features/labels/labels.routes.js';
import { carrierActionRoutes, ndrRoutes } from './features/ndr/ndr.routes.js';
import { createNdrService } from './features/ndr/ndr.service.js';
import type { NdrRules } from './features/ndr/ndr-rules.worker.js';
import { installNdrRules } from './features/ndr/ndr-rules.register.js';
import { rtoSettingsRoutes } from './features/rto/rto.routes.js';
import { createRtoSettingsService } from './features/rto/rto.service.js';
import { createLabelsService } from './features/labels/labels.service.js';
import { ordersRoutes } from './features/orders/orders.routes.js';
import { allocationRoutes } from './features/allocation/allocation.routes.js';
import { createAllocationService } from './features/allocation/allocation.service.js';
import { createOrderUpdateService } from './features/orders/order-update.service.js';
import { createOrdersService } from './features/orders/orders.service.js';
import { createCodToPrepaid } from './features/orders/cod-to-prepaid.js';
import { createReturnsListing } from './readers/returns-listing/returns-listing.js';
import { returnsListingRoutes } from './readers/returns-listing/returns-listing.routes.js';
import { returnsRoutes } from './features/returns/returns.routes.js';
import { createReturnsService } from './features/returns/returns.service.js';
import { ratesRoutes } from './features/rates/rates.routes.js';
import { createRatesService } from './features/rates/rates.service.js';
import { reportsRoutes } from './readers/reports/reports.routes.js';
import { createReportsService } from './readers/reports/reports.service.js';
import { shipmentsRoutes } from './readers/shipments/shipments.routes.js';
import { createShipmentsService } from './readers/shipments/shipments.service.js';
import { carrierAuth, carrierRoutes, carrierTokenAdminRoutes } from './features/tracking/tracking.routes.js';
import { ekartWebhookRoutes } from './features/tracking/ekart-webhook.routes.js';
import { orderTrackingRoutes } from './readers/order-tracking/order-tracking.routes.js';
import { createOrderTracking } from './readers/order-tracking/order-tracking.service.js';
import { createTrackingService } from './features/tracking/tracking.service.js';
import { codLedgerAdminRoutes, codLedgerRoutes } from './features/cod-ledger/cod-ledger.routes.js';
import { createCodLedger } from './features/cod-ledger/cod-ledger.service.js';
import { COD_OVERDUE_CHECK_INTERVAL_MS, createOverdueCheck, type OverdueCheck } from './features/cod-ledger/cod-overdue.worker.js';
import { pickupsRoutes } from './features/pickups/pickups.routes.js';
import { createPickupsService } from './features/pickups/pickups.service.js';
import { createPeriodicCheck, type PeriodicCheck } from './base/periodic-check.js';
import { codReportsRoutes } from './readers/cod-reports/cod-reports.routes.js';
import { createCodReports } from './readers/cod-reports/cod-reports.service.js';
import { createReturnTrackTokens, trackUrlOf } from './domain/shipment/track-links.js';
import { createFormTokens } from './consumers/tracking-page/form-tokens.js';
import { trackingPageRoutes } from './consumers/tracking-page/tracking-page.routes.js';
import { storePageRoutes } from './consumers/tracking-page/store-page.routes.js';
import { addressFormRoutes } from './consumers/tracking-page/address-form.routes.js';
import { createBuyerAddressUpdate } from './features/orders/buyer-address.js';
import { pageFontRoutes } from './consumers/tracking-page/page-fonts.routes.js';
import { createTrackingPageService } from './consumers/tracking-page/tracking-page.service.js';
import { warehousesRoutes } from './tenancy/warehouses/warehouses.routes.js';
import { createWarehousesService } from './tenancy/warehouses/warehouses.service.js';
import { defaultRatesContext } from './data-files.js';
import { ADMIN_DISABLED, type AppDeps, DEFAULT_LIMITS, DEFAULT_WEBHOOKS } from './app-settings.js';
import { createHttpServer } from './http/server.js';
import { registerOpenApi } from './openapi.js';
import { landingRoute } from './landing.js';
import { panelRoutes } from './panel.js';
import { createDisputeSweeper, type DisputeSweeper } from './features/charges/dispute-sweeper.worker.js';
import { weightDisputesAdminRoutes, weightDisputesRoutes } from './features/charges/weight-disputes.routes.js';
import { createWeightDisputesService } from './features/charges/weight-disputes.service.js';
import { chargesRoutes } from './readers/charges/charges.routes.js';
import { createChargesService } from './readers/charges/charges.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Pulls couriers' scans and hands them NDR instructions; stops with the app. */
    courierPoller: TrackingPoller;
    /** Accepts weight discrepancies whose dispute window has run out; stops with the app. */
    weightDisputeSweeper: DisputeSweeper;
    /** The accounts' NDR rules at work; tests run them with app.ndrRules.runOnce(). */
    ndrRules: NdrRules;
    /** Finds COD cash unpaid past its expected day, hourly; stops with the app. */
    codOverdueCheck: OverdueCheck;
    /** Flags pickups whose day ended with parcels not picked up, hourly; stops with the app. */
    missedPickupsCheck: PeriodicCheck;
  }
}

export type { AppDeps, LimitSettings } from './app-settings.js';
export { ADMIN_DISABLED, DEFAULT_LIMITS, DEFAULT_WEBHOOKS } from './app-settings.js';

/** Wires the whole API from explicit dependencies. It never listens: main.ts does, tests inject. */
export async function buildApp(deps: AppDeps) {
  const clock = deps.clock ?? systemClock;
  const app = createHttpServer(deps.logger, deps.trustProxy);
  // Fields the hooks set on a request, declared up front so that every request object is built
  // with one shape instead of growing a property mid-flight.
  app.decorateRequest('accountId', '');
  app.decorateRequest('transaction', undefined);
  app.decorateRequest('carrierId', '');
  await registerOpenApi(app);


  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  // One breaker for both limits: they share the connection, so they fail and recover together.
  const breaker = limits.redis
    ? new RedisBreaker(limits.redis, { timeoutMs: limits.redisTimeoutMs, probeIntervalMs: limits.redisProbeIntervalMs, log: app.log })
    : undefined;
  if (breaker) app.addHook('onClose', () => breaker.stop());
  const loginAllowances = {
    pair: limits.loginAttemptsPerMinute,
    address: limits.loginAddressAttemptsPerMinute,
    username: limits.loginUsernameAttemptsPer15Minutes,
  };
  const loginLimiter = breaker ? breakerLoginLimiter(breaker, loginAllowances, limits.redisKeyPrefix) : memoryLoginLimiter(loginAllowances);
  const accounts = createAccountsService({ db: deps.db, clock, loginLimiter });
  const rates = deps.rates ?? defaultRatesContext();
  // Services record their changes' events through this, in their own transactions.
  const trackUrl = trackUrlOf(deps.publicBaseUrl);
  const events = createEventLog({ snapshots: createSubjectSnapshots({ catalogue: rates.catalogue, trackUrl }), signal: deps.signal });
  const stores = createStoresService({ db: deps.db, clock, publicBaseUrl: deps.publicBaseUrl, recordEvent: events.record });
  const warehouses = createWarehousesService({ db: deps.db, clock, directory: rates.directory });
  const labelLinks = createLabelLinks({
    secret: await ensureServerSecret(deps.db, 'label-links'),
    publicBaseUrl: deps.publicBaseUrl,
    ttlSeconds: deps.labelUrlTtlSeconds ?? DEFAULT_LABEL_URL_TTL_SECONDS,
    clock,
  });
  const courierSettings = deps.couriers ?? DEFAULT_COURIER_SETTINGS;
  // An allotted AWB series that overlaps waybills already issued stops start-up, naming both.
  await checkAwbSeries(deps.db, rates.catalogue);
  const courierHealth = createHealthRecorder({ db: deps.db, clock, log: app.log });
  // Couriers' and messaging providers' credentials that accounts store are sealed with one key.
  const secretBox = createSecretBox(deps.secretsKey ?? (await ensureServerSecret(deps.db, 'secrets-key')));
  const courierCredentials = createCourierCredentials({
    db: deps.db,
    clock,
    box: secretBox,
    settings: courierSettings,
    health: courierHealth,
    build: (name, settings, health, healthKey) => buildApiConnector(name, settings, clock, health, healthKey),
  });
  await courierCredentials.load(app.log);
  app.addHook('onClose', async () => courierCredentials.stop());
  const couriers = createCouriers({
    db: deps.db,
    clock,
    catalogue: rates.catalogue,
    connectors: createConnectors(rates.catalogue, courierSettings, deps.db, clock, courierHealth),
    accountConnector: courierCredentials.connectorFor,
    log: app.log,
  });
  // The tracking intake owns shipments' and returns' status histories; the features that record
  // merchant events get its appliers (features/contracts.ts).
  const codLedger = createCodLedger({ db: deps.db, clock, catalogue: rates.catalogue, calendar: rates.calendar, events });
  const tracking = createTrackingService({ db: deps.db, clock, catalogue: rates.catalogue, directory: rates.directory, events, onStatusChange: codLedger.onStatusChange });
  const { applyShipmentEvents, applyReturnEvents } = tracking;
  const returnTrackTokens = createReturnTrackTokens(await ensureServerSecret(deps.db, 'return-track-links'));
  const returns = createReturnsService({
    db: deps.db,
    clock,
    rates,
    warehouses,
    events,
    couriers,
    applyReturnEvents,
    links: { track: (returnId) => trackUrl(returnTrackTokens.issue(returnId)), label: labelLinks.urlFor },
  });
  const allocation = createAllocationService({ db: deps.db, clock, rates });
  const orders = createOrdersService({
    db: deps.db,
    clock,
    rates,
    warehouses,
    stores,
    labelLinks,
    trackUrl,
    events,
    applyShipmentEvents,
    couriers,
    returns,
    allocator: allocation.allocator,
    rtoChecks: deps.rtoChecks ?? true,
  });
  const labels = createLabelsService({ db: deps.db, links: labelLinks, catalogue: rates.catalogue, clock, events });
  const ndr = createNdrService({ db: deps.db, clock, calendar: rates.calendar, events, applyShipmentEvents });
  // Pulled scans enter the same intake as pushed ones.
  const poller = createTrackingPoller({ db: deps.db, clock, couriers, ingest: tracking.ingest, pollSeconds: courierSettings.pollSeconds, log: app.log });
  app.decorate('courierPoller', poller);
  app.addHook('onClose', () => poller.stop());
  // After the poller, whose last calls it reports; before the database closes.
  app.addHook('onClose', () => courierHealth.flush());
  const weightDisputes = createWeightDisputesService({
    db: deps.db,
    clock,
    catalogue: rates.catalogue,
    events,
    windowDays: deps.weightDisputeWindowDays ?? DEFAULT_WEIGHT_DISPUTE_WINDOW_DAYS,
  });
  const sweeper = createDisputeSweeper(weightDisputes, (error) => app.log.error({ err: error }, 'weight dispute sweep failed'));
  app.decorate('weightDisputeSweeper', sweeper);
  app.addHook('onClose', () => sweeper.stop());
  app.decorate('ndrRules', installNdrRules(app, { db: deps.db, clock, calendar: rates.calendar, events, ndr }, deps.startWorkers !== false));
  const overdueCheck = createOverdueCheck(codLedger, COD_OVERDUE_CHECK_INTERVAL_MS, app.log);
  app.decorate('codOverdueCheck', overdueCheck);
  app.addHook('onClose', () => overdueCheck.stop());
  const pickups = createPickupsService({ db: deps.db, clock, catalogue: rates.catalogue, couriers, events, publicBaseUrl: deps.publicBaseUrl });
  // Days are whole India days, so an hour late is prompt enough.
  const missedPickups = createPeriodicCheck(() => pickups.checkMissed(), 3_600_000, (error) => app.log.error({ err: error }, 'missed pickup check failed'));
  app.decorate('missedPickupsCheck', missedPickups);
  app.addHook('onClose', () => missedPickups.stop());
  const webhooks = installWebhookWorker(app, { db: deps.db, workerDb: deps.workerDb }, clock, events, { ...DEFAULT_WEBHOOKS, ...deps.webhooks });
  const notifications = installNotifications(app, { db: deps.db, workerDb: deps.workerDb }, events, deps.publicBaseUrl, {
    ...DEFAULT_NOTIFICATIONS,
    ...deps.notifications,
  });
  const notificationSettings = { ...DEFAULT_NOTIFICATIONS, ...deps.notifications };
  const messaging = installMessaging(
    app,
    {
      db: deps.db,
      workerDb: deps.workerDb,
      clock,
      events,
      box: secretBox,
      publicBaseUrl: deps.publicBaseUrl,
      cancelShipment: (accountId, shipmentId, outer) => orders.cancelShipment(accountId, shipmentId, undefined, outer),
      convertToPrepaid: createCodToPrepaid({ rates, warehouses, labelLinks, reissueLabel: (tx, accountId, shipmentId, reason) => labels.reissue(accountId, shipmentId, reason, tx) }),
      ndrBuyerAnswer: ndr.buyerAnswer,
    },
    { ...DEFAULT_MESSAGING, smtpUrl: notificationSettings.smtpUrl, mailFrom: notificationSettings.mailFrom, ...deps.messaging },
  );
  const trackingPages = createTrackingPageService({
    db: deps.db,
    clock,
    catalogue: rates.catalogue,
    calendar: rates.calendar,
    ndr,
    publicBaseUrl: deps.publicBaseUrl,
    trackUrl,
    returnTokens: returnTrackTokens,
  });

  landingRoute(app);
  await app.register(healthRoutes(deps.db));
  await app.register(publicLogoRoutes(stores), { prefix: '/public/v1' });
  await app.register(labelsRoutes(labels), { prefix: '/public/v1' });
  await app.register(pageFontRoutes(), { prefix: '/public/v1' });
  const formTokens = createFormTokens(await ensureServerSecret(deps.db, 'track-forms'));
  await app.register(async (pages) => {
    await installAddressRateLimit(pages, { perMinute: limits.trackingPagePerMinute, redis: breaker, keyPrefix: limits.redisKeyPrefix });
    await pages.register(trackingPageRoutes(trackingPages, formTokens, clock));
    await pages.register(storePageRoutes(deps.db));
    const buyerAddress = createBuyerAddressUpdate({ db: deps.db, clock, directory: rates.directory, events, catalogue: rates.catalogue, couriers, rtoChecks: deps.rtoChecks ?? true });
    await pages.register(addressFormRoutes(deps.db, buyerAddress, formTokens, clock));
    await pages.register(messagingPublicRoutes(messaging));
  });
  await app.register(authTokenRoutes(accounts), { prefix: '/custom/api/v1' });
  const sessions = panelSessions(accounts, await ensureServerSecret(deps.db, 'panel-csrf'));
  await app.register(sessionRoutes(accounts, sessions), { prefix: '/panel/v1' });
  await panelRoutes(app);
  await app.register(
    async (v1) => {
      v1.addHook('onRequest', accountAuth(accounts.authenticate, sessions));
      await installAccountRateLimit(v1, { perMinute: limits.ratePerMinute, redis: breaker, keyPrefix: limits.redisKeyPrefix });
      installIdempotency(v1, { db: deps.db, clock });
      await v1.register(authTokenRevokeRoutes(accounts));
      await v1.register(apiKeyRoutes(accounts));
      await v1.register(storesRoutes(stores));
      await v1.register(ratesRoutes(createRatesService({ rates, clock })));
      await v1.register(courierConnectionsRoutes(createCourierConnections({ catalogue: rates.catalogue, health: courierHealth, credentials: courierCredentials }), courierCredentials));
      await v1.register(warehousesRoutes(warehouses));
      await v1.register(ordersRoutes(orders, createOrderUpdateService({ db: deps.db, clock, orders, events, directory: rates.directory, rtoChecks: deps.rtoChecks ?? true })));
      await v1.register(allocationRoutes(allocation));
      await v1.register(returnsRoutes(returns));
      await v1.register(returnsListingRoutes(createReturnsListing({ db: deps.db, catalogue: rates.catalogue })));
      await v1.register(orderTrackingRoutes(createOrderTracking({ db: deps.db, catalogue: rates.catalogue, trackUrl, labelLinks })));
      await v1.register(reportsRoutes(createReportsService({ db: deps.db })));
      await v1.register(ndrRoutes(ndr));
      await v1.register(rtoSettingsRoutes(createRtoSettingsService({ db: deps.db, clock })));
      await v1.register(shipmentsRoutes(createShipmentsService({ db: deps.db, catalogue: rates.catalogue, labelLinks, trackUrl })));
      await v1.register(labelLinkRoutes(labels));
      await v1.register(eventsRoutes(createEventsService({ db: deps.db })));
      await v1.register(webhooksRoutes(webhooks));
      await v1.register(notificationsRoutes(notifications));
      await v1.register(weightDisputesRoutes(weightDisputes));
      await v1.register(chargesRoutes(createChargesService({ db: deps.db })));
      await v1.register(messagingRoutes(messaging));
      await v1.register(codLedgerRoutes(codLedger));
      await v1.register(pickupsRoutes(pickups));
      await v1.register(codReportsRoutes(createCodReports({ db: deps.db, clock, catalogue: rates.catalogue })));
    },
    { prefix: '/custom/api/v1' },
  );
  await app.register(carrierRoutes(tracking), { prefix: '/carrier/v1' });
  const ekartServices = rates.catalogue.services.filter((service) => service.connector === 'ekart').map((service) => service.id);
  await app.register(ekartWebhookRoutes({ tracking, secret: courierSettings.ekart.webhookSecret, carrierIds: ekartServices }), { prefix: '/carrier/v1' });
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
        await admin.register(weightDisputesAdminRoutes(weightDisputes));
        await admin.register(codLedgerAdminRoutes(codLedger));
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
  if (deps.startWorkers !== false) {
    poller.start();
    sweeper.start();
    overdueCheck.start();
    missedPickups.start();
  }
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
