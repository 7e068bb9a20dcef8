import { type AppDeps, createAppContext } from './app-context.js';
import { registerChannelWriteback } from './consumers/channel-writeback/channel-writeback.register.js';
import { registerPrivacy } from './consumers/privacy/privacy.register.js';
import { registerRetention } from './consumers/retention/retention.register.js';
import { registerMessaging } from './consumers/messaging/messaging.register.js';
import { registerNotifications } from './consumers/notifications/notifications.register.js';
import { registerTrackingPage } from './consumers/tracking-page/tracking-page.register.js';
import { registerWebhooks } from './consumers/webhooks/webhooks.register.js';
import { registerCouriers } from './couriers/couriers.register.js';
import { registerAllocation } from './features/allocation/allocation.register.js';
import { registerCharges } from './features/charges/charges.register.js';
import { registerCodLedger } from './features/cod-ledger/cod-ledger.register.js';
import { exchangeReleases, registerExchanges } from './features/exchanges/exchanges.register.js';
import { registerLabels } from './features/labels/labels.register.js';
import { registerNdr } from './features/ndr/ndr.register.js';
import { registerOrders } from './features/orders/orders.register.js';
import { registerPaperwork } from './features/paperwork/paperwork.register.js';
import { registerPickups } from './features/pickups/pickups.register.js';
import { registerRates } from './features/rates/rates.register.js';
import { allReturnListeners } from './features/contracts.js';
import { registerRefunds } from './features/refunds/refunds.register.js';
import { registerReturnRequests } from './features/return-requests/return-requests.register.js';
import { registerReturns } from './features/returns/returns.register.js';
import { registerRto } from './features/rto/rto.register.js';
import { registerSalesChannels } from './features/sales-channels/sales-channels.register.js';
import { registerKeptScans } from './features/tracking/kept-scans.register.js';
import { registerTracking } from './features/tracking/tracking.register.js';
import { registerFileImports } from './http/file-imports.register.js';
import { registerGuards } from './http/guards.register.js';
import { appHost, RouteTable } from './http/host.js';
import { createHttpServer } from './http/server.js';
import { registerSite } from './landing.js';
import { registerOpenApi } from './openapi.js';
import { registerReaders } from './readers/readers.register.js';
import { registerAccounts } from './tenancy/accounts/accounts.register.js';
import { registerAudit } from './tenancy/audit/audit.register.js';
import { registerStores } from './tenancy/stores/stores.register.js';
import { registerWarehouses } from './tenancy/warehouses/warehouses.register.js';

/**
 * The API: every module's registrar, each building its services from what it is handed (the
 * shared context, and what the modules above it in this list made) and adding its routes, senders
 * and timers. It never listens: main.ts does, tests inject.
 */
export async function buildApp(deps: AppDeps) {
  const app = createHttpServer(deps.logger, deps.settings.server.trustProxy);
  await registerOpenApi(app);
  const routes = new RouteTable();
  const host = appHost(app, routes, deps.timers ?? true);
  const ctx = await createAppContext(host, deps);

  await registerAccounts(host, ctx);
  registerAudit(host, ctx);
  registerGuards(host, ctx);
  const stores = registerStores(host, ctx);
  const warehouses = registerWarehouses(host, ctx);
  registerRates(host, ctx);
  const labels = await registerLabels(host, ctx);
  const imports = registerFileImports(host, ctx);
  const codLedger = registerCodLedger(host, { ...ctx, imports });
  const refunds = registerRefunds(host, ctx);
  const tracking = registerTracking(host, {
    ...ctx,
    onStatusChange: codLedger.onStatusChange,
    onReturnChange: allReturnListeners(exchangeReleases(ctx.events), refunds.onReturnChange),
  });
  const { applyShipmentEvents, applyReturnEvents } = tracking;
  const couriers = await registerCouriers(host, { ...ctx, ingest: tracking.ingestPulled });
  registerKeptScans(host, { ...ctx, tracking, couriers });
  const returns = registerReturns(host, { ...ctx, warehouses, couriers, applyReturnEvents, labelLinks: labels.links });
  const allocator = registerAllocation(host, ctx);
  const ndr = registerNdr(host, { ...ctx, applyShipmentEvents });
  const orders = registerOrders(host, {
    ...ctx,
    ...registerPaperwork(host, ctx),
    warehouses,
    stores,
    couriers,
    returns,
    allocator,
    labels,
    applyShipmentEvents,
    correctDeliveryAddress: ndr.correctDeliveryAddress,
  });
  const legs = { forwardLeg: orders.exchangeLeg, returnLeg: returns.exchangeLeg };
  const { book: bookExchange } = registerExchanges(host, { ...ctx, ...legs, couriers });
  const returnRequests = registerReturnRequests(host, { ...ctx, ...legs, couriers, refunds, bookExchange });
  const { importChannelOrder, cancelShipment } = orders;
  registerSalesChannels(host, { ...ctx, stores, warehouses, importChannelOrder, cancelShipment });
  registerRto(host, ctx);
  registerCharges(host, { ...ctx, imports });
  registerPickups(host, { ...ctx, couriers });

  registerReaders(host, { ...ctx, labelLinks: labels.links });

  registerWebhooks(host, ctx);
  registerNotifications(host, ctx);
  await registerTrackingPage(host, { ...ctx, ndr, buyerAddress: orders.buyerAddress, returnRequests });
  registerMessaging(host, { ...ctx, buyerActions: { ...orders, ndrBuyerAnswer: ndr.buyerAnswer } });
  registerChannelWriteback(host, ctx);
  registerRetention(host, ctx);
  registerPrivacy(host, ctx);
  registerSite(host);

  await routes.mount(app);
  await app.ready();
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
