import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { ensureServerSecret } from '../../base/db/secrets.js';
import type { RedisBreaker } from '../../base/redis.js';
import type { RatesContext } from '../../domain/rates/context.js';
import type { ReturnTrackTokens, TrackUrl } from '../../domain/shipment/track-links.js';
import type { BuyerAddressUpdate } from '../../features/orders/buyer-address.js';
import type { NdrService } from '../../features/ndr/ndr.service.js';
import type { Host } from '../../http/host.js';
import type { LimitSettings } from '../../http/limits.settings.js';
import { installAddressRateLimit } from '../../http/rate-limit.js';
import type { ServerSettings } from '../../http/server.settings.js';
import type { ReturnRequestsService } from '../../features/return-requests/return-requests.service.js';
import { addressFormRoutes } from './address-form.routes.js';
import { returnFormRoutes } from './return-form.routes.js';
import { findByToken } from './tracking-page.repository.js';
import { createFormTokens } from './form-tokens.js';
import { pageFontRoutes } from './page-fonts.routes.js';
import { storePageRoutes } from './store-page.routes.js';
import { trackingPageRoutes } from './tracking-page.routes.js';
import { createTrackingPageService } from './tracking-page.service.js';
import type { TrackingPageSettings } from './tracking-page.settings.js';

export interface TrackingPageContext {
  db: Db;
  clock: Clock;
  rates: Pick<RatesContext, 'catalogue' | 'calendar'>;
  trackUrl: TrackUrl;
  returnTrackTokens: ReturnTrackTokens;
  settings: { server: ServerSettings; trackingPage: TrackingPageSettings; limits: LimitSettings };
  breaker: RedisBreaker | undefined;
  /** The NDR answers the page takes (features/ndr). */
  ndr: NdrService;
  /** The buyer's address form (features/orders). */
  buyerAddress: BuyerAddressUpdate;
  /** The buyer's return requests (features/return-requests). */
  returnRequests: Pick<ReturnRequestsService, 'buyerForm' | 'offersForm' | 'ask'>;
}

/**
 * The customers' pages: a shipment's or return's tracking page, a store's, the address form, their
 * fonts; every one limited per client address.
 */
export async function registerTrackingPage(host: Host, ctx: TrackingPageContext) {
  const { db, clock, rates, settings } = ctx;
  const pages = createTrackingPageService({
    ...rates,
    db,
    clock,
    ndr: ctx.ndr,
    publicBaseUrl: settings.server.publicBaseUrl,
    trackUrl: ctx.trackUrl,
    returnTokens: ctx.returnTrackTokens,
  });
  /** A delivered shipment links to the return form while its store takes requests, and once it has some. */
  const returnsOffered = async (token: string) => {
    const shipment = await findByToken(db, token);
    return shipment !== undefined && (await ctx.returnRequests.offersForm(shipment.accountId, shipment.id));
  };
  const formTokens = createFormTokens(await ensureServerSecret(db, 'track-forms'));
  host.routes?.add('public', pageFontRoutes());
  host.routes?.guard('pages', (scope) =>
    installAddressRateLimit(scope, {
      perMinute: settings.trackingPage.ratePerMinute,
      redis: ctx.breaker,
      keyPrefix: settings.limits.redisKeyPrefix,
    }),
  );
  host.routes?.add(
    'pages',
    trackingPageRoutes(pages, formTokens, clock, returnsOffered),
    storePageRoutes(db, pages),
    addressFormRoutes(db, ctx.buyerAddress, formTokens, clock),
    returnFormRoutes(db, pages, ctx.returnRequests, formTokens, clock),
  );
}
