import type { Clock } from '../../base/clock.js';
import type { Db } from '../../base/db/client.js';
import { AppError, type FieldError } from '../../http/errors.js';
import { canonicalIndianMobile } from '../../domain/geo/phone.js';
import { MAX_REATTEMPTS, reattemptDays } from '../../domain/shipment/ndr-rules.js';
import type { NdrService } from '../../features/ndr/ndr.service.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import type { WorkingCalendar } from '../../domain/calendar.js';
import { logoPath } from '../../tenancy/stores/logo.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import { indiaDateTime, type Language, PAGE_TEXT } from '../../domain/shipment/page-text.js';
import type { TrackUrl } from '../../domain/shipment/track-links.js';
import * as repo from './tracking-page.repository.js';
import { findActionsOf, findEventsOf } from '../../readers/order-tracking/order-tracking.repository.js';
import { firstNameOf } from '../../domain/shipment/page-text.js';

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
  language: Language;
  track_url: string;
  brand: { name: string; logo_url: string | null; logo_path: string | null };
  status: ShipmentStatus;
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
}

export function createTrackingPageService({ db, clock, catalogue, calendar, ndr, publicBaseUrl, trackUrl }: Deps) {
  async function load(token: string) {
    const shipment = await repo.findByToken(db, token);
    if (!shipment) return null;
    const [milestones, events, actions] = await Promise.all([
      repo.findMilestones(db, shipment.accountId, shipment.id),
      findEventsOf(db, shipment.accountId, [shipment.id]),
      findActionsOf(db, shipment.accountId, [shipment.id]),
    ]);
    return { shipment, milestones, events: events.get(shipment.id) ?? [], actions: actions.get(shipment.id) ?? [] };
  }

  function toView(loaded: NonNullable<Awaited<ReturnType<typeof load>>>, language: Language): TrackingView {
    const { shipment: s, milestones, events, actions } = loaded;
    const text = PAGE_TEXT[language];
    const status = s.status as ShipmentStatus;
    const entry = (at: Date, state: string, words: string, location: string | null): TimelineEntry => ({
      at: at.toISOString(),
      at_india: indiaDateTime(at, language),
      status: state,
      text: words,
      location,
    });
    const booking = milestones.flatMap((m) => {
      if (m.milestone === 'order_created') return [{ rank: 0, item: entry(m.at, 'order_placed', text.orderPlaced, null) }];
      if (m.milestone === 'courier_assigned') return [{ rank: 1, item: entry(m.at, 'shipped', text.shipped, null) }];
      return [];
    });
    const scans = events.map((e, i) => ({ rank: 2 + i, item: entry(e.eventTime, e.status, text.statuses[e.status as ShipmentStatus].title, e.location) }));
    // Newest first, as tracking pages show it; at equal instants the later stage first (a booking
    // places the order and hands it over in one moment).
    const timeline = [...booking, ...scans].sort((a, b) => b.item.at.localeCompare(a.item.at) || b.rank - a.rank);

    const reattempts = actions.filter((a) => a.action === 'reattempt');
    const current = reattempts.find((a) => a.attempt === s.attemptCount);
    const available = status === 'ndr_raised' && !current && reattempts.length < MAX_REATTEMPTS && s.carrierId !== null;
    const brand = s.brandName ?? s.accountName;
    return {
      language,
      track_url: trackUrl(s.trackToken),
      brand: {
        name: brand,
        logo_url: s.storeId && s.logoSha256 ? `${publicBaseUrl}${logoPath(s.storeId, s.logoSha256)}` : null,
        logo_path: s.storeId && s.logoSha256 ? logoPath(s.storeId, s.logoSha256) : null,
      },
      status,
      status_text: text.statuses[status].title,
      status_detail: text.statuses[status].detail,
      promised_delivery_date: s.expectedDeliveryDate,
      delivered_at: s.deliveredAt?.toISOString() ?? null,
      customer: { first_name: firstNameOf(s.shippingName), city: s.shippingCity },
      courier: s.carrierId && s.awb ? { name: catalogue.byId.get(s.carrierId)?.name ?? s.carrierId, awb: s.awb } : null,
      test_mode: s.testMode,
      support: { email: s.supportEmail, phone: s.supportPhone },
      timeline: timeline.map(({ item }) => item),
      reattempt: {
        available,
        dates: available ? reattemptDays(clock.now(), calendar) : [],
        requested: status === 'ndr_raised' && current !== undefined,
        requested_date: status === 'ndr_raised' ? ((current?.payload.reattempt_date as string | undefined) ?? null) : null,
      },
    };
  }

  return {
    async view(token: string, language: Language): Promise<TrackingView | null> {
      const loaded = await load(token);
      return loaded && toView(loaded, language);
    },

    /**
     * The customer's reattempt: the merchant's NDR action (same rules, same courier instruction),
     * recorded as asked by the customer. A date is required here (the form offers three).
     */
    async reattempt(token: string, form: CustomerReattempt): Promise<void> {
      const shipment = await repo.findByToken(db, token);
      if (!shipment?.awb) throw new AppError(404, ['Tracking link not found']);
      const problems: FieldError[] = [];
      if (!form.reattempt_date) problems.push({ field: 'reattempt_date', message: 'Choose a delivery day' });
      if (form.phone && !canonicalIndianMobile(form.phone)) {
        problems.push({ field: 'phone', message: 'The phone number must be a 10-digit Indian mobile number' });
      }
      if (problems.length > 0) throw new AppError(400, problems.map((p) => p.message), problems);
      await ndr.reattempt(
        shipment.accountId,
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
