import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { DomainError, type FieldError } from '../../domain/errors.js';
import { SHIPMENT_ERRORS } from '../../domain/shipment/shipment.errors.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { systemActor } from '../../domain/access/permissions.js';
import { MAX_REATTEMPTS, reattemptDays } from '../../domain/shipment/ndr-rules.js';
import type { NdrService } from '../../features/ndr/ndr.service.js';
import { type CourierCatalogue, isTestService } from '../../domain/rates/catalogue.js';
import type { WorkingCalendar } from '../../domain/calendar.js';
import { logoPath } from '../../tenancy/stores/logo.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import { promiseStands } from '../../domain/shipment/delivery-promise.js';
import {
  firstNameOf,
  indiaDateTime,
  type Language,
  languageOfState,
  PAGE_TEXT,
} from '../../domain/buyer-copy/page-text.js';
import { placeName } from './page-places.js';
import type { ReturnTrackTokens, TrackUrl } from '../../domain/shipment/track-links.js';
import { RETURN_TEXT } from './page-text-returns.js';
import type { ReturnStatus } from '../../domain/shipment/return-status-machine.js';
import * as repo from './tracking-page.repository.js';
import { findActionsOf, findEventsOf } from '../../readers/order-tracking/order-tracking.repository.js';

export type TrackingPageService = ReturnType<typeof createTrackingPageService>;

export interface TimelineEntry {
  at: string;
  at_india: string;
  status: string;
  text: string;
  location: string | null;
}

/** What the customer may see of a shipment: the page and its JSON twin both render this. */
export interface TrackingView {
  /** A forward shipment, or a return the courier collects from the customer. */
  kind: 'shipment' | 'return';
  language: Language;
  /** The shipping (for a return, pickup) state's language, first among the page's language links; not in the JSON. */
  state_language: Language | null;
  track_url: string;
  brand: { name: string; logo_url: string | null; logo_path: string | null };
  status: ShipmentStatus | ReturnStatus;
  status_text: string;
  status_detail: string;
  promised_delivery_date: string | null;
  delivered_at: string | null;
  customer: { first_name: string; city: string };
  courier: { name: string; awb: string } | null;
  /** A test booking: no courier issued the AWB, none will carry the parcel. */
  test_mode: boolean;
  support: { email: string | null; phone: string | null };
  timeline: TimelineEntry[];
  reattempt: { available: boolean; dates: string[]; requested: boolean; requested_date: string | null };
}

/**
 * Whether the page offers to refuse the parcel: after a failed delivery the buyer has not yet
 * answered with a reattempt, as the NDR message promises (reattempt, address, or cancel).
 */
export const refuseOffered = (view: TrackingView) =>
  view.kind === 'shipment' && view.status === 'ndr_raised' && !view.reattempt.requested && view.courier !== null;

/**
 * What anyone holding an AWB may see on the store's page (decision "An AWB shows, the link acts"):
 * status, dates, courier and journey. Nothing of the buyer, nothing of the link, no reattempt.
 */
export type PublicStatus = Pick<
  TrackingView,
  | 'language'
  | 'state_language'
  | 'brand'
  | 'status'
  | 'status_text'
  | 'status_detail'
  | 'promised_delivery_date'
  | 'delivered_at'
  | 'courier'
  | 'test_mode'
  | 'support'
  | 'timeline'
>;

/** What the page's language rule knows once the shipment is read: the merchant's choice and the state. */
export interface ShipmentLanguage {
  merchant: string | null;
  state: string;
}
export type LanguagePick = (shipment: ShipmentLanguage) => Language;

export interface CustomerReattempt {
  reattempt_date?: string;
  landmark?: string;
  phone?: string;
}

interface Deps {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  calendar: WorkingCalendar;
  ndr: NdrService;
  publicBaseUrl: string;
  trackUrl: TrackUrl;
  returnTokens: ReturnTrackTokens;
}

export function createTrackingPageService({
  db,
  clock,
  catalogue,
  calendar,
  ndr,
  publicBaseUrl,
  trackUrl,
  returnTokens,
}: Deps) {
  const brandOf = (s: {
    storeId: string | null;
    logoSha256: string | null;
    brandName: string | null;
    accountName: string;
  }) => ({
    name: s.brandName ?? s.accountName,
    logo_url: s.storeId && s.logoSha256 ? `${publicBaseUrl}${logoPath(s.storeId, s.logoSha256)}` : null,
    logo_path: s.storeId && s.logoSha256 ? logoPath(s.storeId, s.logoSha256) : null,
  });
  const entry = (
    at: Date,
    state: string,
    words: string,
    location: string | null,
    language: Language,
  ): TimelineEntry => ({
    at: at.toISOString(),
    at_india: indiaDateTime(at, language),
    status: state,
    text: words,
    location: placeName(location, language),
  });
  /** Newest first, as tracking pages show it; at equal instants the later stage first. */
  const newestFirst = (items: { rank: number; item: TimelineEntry }[]) =>
    items.sort((a, b) => b.item.at.localeCompare(a.item.at) || b.rank - a.rank).map(({ item }) => item);

  /** A return's page: pickup from the customer, the courier's scans, no reattempt. */
  async function returnView(token: string, returnId: string, pick: LanguagePick): Promise<TrackingView | null> {
    const r = await repo.findReturn(db, returnId);
    if (!r) return null;
    const language = pick({ merchant: r.merchantLanguage, state: r.pickup.state });
    const text = PAGE_TEXT[language];
    const words = RETURN_TEXT[language].statuses;
    const status = r.status as ReturnStatus;
    const timeline = newestFirst([
      { rank: 0, item: entry(r.createdAt, 'return_requested', words.return_requested.title, null, language) },
      ...(r.assignedAt ? [{ rank: 1, item: entry(r.assignedAt, 'shipped', text.shipped, null, language) }] : []),
      ...r.events.map((e, i) => ({
        rank: 2 + i,
        item: entry(e.eventTime, e.status, words[e.status as ReturnStatus]?.title ?? e.status, e.location, language),
      })),
    ]);
    return {
      kind: 'return',
      language,
      state_language: languageOfState(r.pickup.state),
      test_mode: r.carrierId ? isTestService(catalogue, r.carrierId) : false,
      track_url: trackUrl(token),
      brand: brandOf(r),
      status,
      status_text: words[status].title,
      status_detail: words[status].detail,
      promised_delivery_date: null,
      delivered_at: null,
      customer: { first_name: firstNameOf(r.pickup.name), city: r.pickup.city },
      courier: r.carrierId && r.awb ? { name: catalogue.byId.get(r.carrierId)?.name ?? r.carrierId, awb: r.awb } : null,
      support: { email: r.supportEmail, phone: r.supportPhone },
      timeline,
      reattempt: { available: false, dates: [], requested: false, requested_date: null },
    };
  }

  async function load(find: Promise<repo.TrackedShipment | undefined>) {
    const shipment = await find;
    if (!shipment) return null;
    const [milestones, events, actions] = await Promise.all([
      repo.findMilestones(db, shipment.accountId, shipment.id),
      findEventsOf(db, shipment.accountId, [shipment.id]),
      findActionsOf(db, shipment.accountId, [shipment.id]),
    ]);
    return { shipment, milestones, events: events.get(shipment.id) ?? [], actions: actions.get(shipment.id) ?? [] };
  }

  const pickFor = (s: repo.TrackedShipment, pick: LanguagePick) =>
    pick({ merchant: s.merchantLanguage, state: s.shippingState });

  function toView(loaded: NonNullable<Awaited<ReturnType<typeof load>>>, language: Language): TrackingView {
    const { shipment: s, milestones, events, actions } = loaded;
    const text = PAGE_TEXT[language];
    const status = s.status as ShipmentStatus;
    const booking = milestones.flatMap((m) => {
      if (m.milestone === 'order_created')
        return [{ rank: 0, item: entry(m.at, 'order_placed', text.orderPlaced, null, language) }];
      if (m.milestone === 'courier_assigned')
        return [{ rank: 1, item: entry(m.at, 'shipped', text.shipped, null, language) }];
      return [];
    });
    const scans = events.map((e, i) => ({
      rank: 2 + i,
      item: entry(e.eventTime, e.status, text.statuses[e.status as ShipmentStatus].title, e.location, language),
    }));
    // A booking places the order and books the courier in one moment: the later stage shows first.
    const timeline = newestFirst([...booking, ...scans]);

    const reattempts = actions.filter((a) => a.action === 'reattempt');
    const current = reattempts.find((a) => a.attempt === s.attemptCount);
    const available = status === 'ndr_raised' && !current && reattempts.length < MAX_REATTEMPTS && s.carrierId !== null;
    return {
      kind: 'shipment',
      language,
      state_language: languageOfState(s.shippingState),
      track_url: trackUrl(s.trackToken),
      brand: brandOf(s),
      status,
      status_text: text.statuses[status].title,
      // Only while the form is offered does the headline point to it.
      status_detail: available
        ? `${text.statuses[status].detail} ${text.reattemptOffer}`
        : text.statuses[status].detail,
      promised_delivery_date: promiseStands(status) ? s.expectedDeliveryDate : null,
      delivered_at: s.deliveredAt?.toISOString() ?? null,
      customer: { first_name: firstNameOf(s.shippingName), city: s.shippingCity },
      courier: s.carrierId && s.awb ? { name: catalogue.byId.get(s.carrierId)?.name ?? s.carrierId, awb: s.awb } : null,
      test_mode: s.testMode,
      support: { email: s.supportEmail, phone: s.supportPhone },
      timeline,
      reattempt: {
        available,
        dates: available ? reattemptDays(clock.now(), calendar) : [],
        requested: status === 'ndr_raised' && current !== undefined,
        requested_date:
          status === 'ndr_raised' ? ((current?.payload.reattempt_date as string | undefined) ?? null) : null,
      },
    };
  }

  return {
    /** The page in `language`, or in the one it picks knowing the merchant's language and the shipping state. */
    async view(token: string, language: Language | LanguagePick): Promise<TrackingView | null> {
      const pick = typeof language === 'function' ? language : () => language;
      const returnId = returnTokens.read(token);
      if (returnId) return returnView(token, returnId, pick);
      const loaded = await load(repo.findByToken(db, token));
      return loaded && toView(loaded, pickFor(loaded.shipment, pick));
    },

    /**
     * The store's shipment with this AWB as its public page shows it: no name, city, address,
     * phone, link or form, and the failed delivery's detail without the offer of a reattempt.
     */
    async publicView(
      store: { accountId: string; id: string },
      awb: string,
      pick: LanguagePick,
    ): Promise<PublicStatus | null> {
      const loaded = await load(repo.findByStoreAwb(db, store, awb));
      if (!loaded) return null;
      const view = toView(loaded, pickFor(loaded.shipment, pick));
      const words = PAGE_TEXT[view.language].statuses[loaded.shipment.status as ShipmentStatus];
      return {
        language: view.language,
        state_language: view.state_language,
        brand: view.brand,
        status: view.status,
        status_text: view.status_text,
        status_detail: words.detail,
        promised_delivery_date: view.promised_delivery_date,
        delivered_at: view.delivered_at,
        courier: view.courier,
        test_mode: view.test_mode,
        support: view.support,
        timeline: view.timeline,
      };
    },

    /**
     * The buyer refuses the parcel from the page: an RTO through the NDR path (initiate-rto's
     * rules and courier instruction), recorded as asked by the customer, taken only while the
     * page still offers it and the shipment waits on the same failed attempt.
     */
    async refuse(token: string): Promise<'done' | 'too_late' | 'not_found'> {
      const loaded = await load(repo.findByToken(db, token));
      if (!loaded) return 'not_found';
      if (!refuseOffered(toView(loaded, 'en'))) return 'too_late';
      const { shipment } = loaded;
      return (await ndr.buyerAnswer(shipment.accountId, shipment.id, shipment.attemptCount, 'cancel')).done
        ? 'done'
        : 'too_late';
    },

    /**
     * The customer's reattempt: the merchant's NDR action (same rules, same courier instruction),
     * recorded as asked by the customer. A date is required here (the form offers three).
     */
    async reattempt(token: string, form: CustomerReattempt): Promise<void> {
      const shipment = await repo.findByToken(db, token);
      if (!shipment?.awb) throw SHIPMENT_ERRORS.tracking_link_not_found.error('Tracking link not found');
      const problems: FieldError[] = [];
      if (!form.reattempt_date) problems.push({ field: 'reattempt_date', message: 'Choose a delivery day' });
      if (form.phone && !canonicalIndianMobile(form.phone)) {
        problems.push({ field: 'phone', message: 'The phone number must be a 10-digit Indian mobile number' });
      }
      if (problems.length > 0)
        throw new DomainError(
          'invalid',
          problems.map((p) => p.message),
          problems,
        );
      await ndr.reattempt(
        systemActor(shipment.accountId, 'the buyer, on the tracking page'),
        {
          awb: shipment.awb,
          reattempt_date: form.reattempt_date,
          ...(form.landmark && { updated_address: { landmark: form.landmark } }),
          ...(form.phone && { updated_phone_number: form.phone }),
        },
        undefined,
        'customer',
      );
    },
  };
}
