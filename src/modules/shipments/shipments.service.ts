import type { Static } from 'typebox';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../http/errors.js';
import { zoneLabel, type Zone } from '../geo/zones.js';
import type { CourierCatalogue } from '../rates/catalogue.js';
import { paiseToRupees } from '../rates/money.js';
import { findActionsOf } from '../ndr/ndr.repository.js';
import { toActionView } from '../ndr/ndr.schemas.js';
import { dateRanges, storable } from './date-bounds.js';
import * as repo from './shipments.repository.js';
import { type ArrayFilter, DATE_FIELDS, type ListShipmentsBody } from './shipments.schemas.js';
import { statusConditions } from './velocity-statuses.js';
import { bookedTrackUrl, type TrackUrl } from '../tracking-page/track-links.js';

type ListInput = Static<typeof ListShipmentsBody>;

export type ShipmentsService = ReturnType<typeof createShipmentsService>;

/**
 * `name` and `name[]` are one filter, and so are SPEC's and Velocity's names for it (`carrier_id`
 * and `carrier_ids`); a single value is a list of one.
 */
export function arrayFilter(body: object, ...names: string[]): string[] | undefined {
  const input = body as Record<string, string | string[] | undefined>;
  const values = names
    .flatMap((name) => [input[name], input[`${name}[]`]])
    .flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
  return values.length > 0 ? [...new Set(values)] : undefined;
}

export function toFilters(body: ListInput): repo.ShipmentFilters {
  const values = (...names: ArrayFilter[]) => arrayFilter(body, ...names);
  if (body.applied_weight_min !== undefined && body.applied_weight_max !== undefined && body.applied_weight_min > body.applied_weight_max) {
    throw badRequest('applied_weight_min must not be above applied_weight_max', 'applied_weight_min');
  }
  if (body.attempts_count__gte !== undefined && body.attempts_count__lte !== undefined && body.attempts_count__gte > body.attempts_count__lte) {
    throw badRequest('attempts_count__gte must not be above attempts_count__lte', 'attempts_count__gte');
  }
  return {
    statuses: body.status && statusConditions(body.status),
    subStatuses: values('granular_status'),
    carrierIds: values('carrier_id', 'carrier_ids'),
    warehouseIds: values('warehouse_ids', 'warehouse_id'),
    channels: values('channel'),
    zones: values('zone')?.map((zone) => zone.slice(-1).toUpperCase()),
    isCod: body.is_cod,
    skus: values('sku'),
    tags: values('tags'),
    ndrReasons: values('ndr_reason'),
    rtoReasons: values('rto_reason'),
    storeNames: values('store_name')?.map((name) => name.toLowerCase()),
    displayIds: values('display_id'),
    weightMin: body.applied_weight_min,
    weightMax: body.applied_weight_max,
    attemptsMin: body.attempts_count__gte,
    attemptsMax: body.attempts_count__lte,
    dateRanges: dateRanges(body, DATE_FIELDS),
    search: body.search,
  };
}

export function createShipmentsService({ db, catalogue, trackUrl }: { db: Db; catalogue: CourierCatalogue; trackUrl: TrackUrl }) {
  return {
    async list(accountId: string, body: ListInput) {
      // Store names and merchant order ids become ids once, for both the page and the count
      // (callers of the repository pass filters already resolved).
      const filters = await repo.withOrderIds(db, accountId, await repo.withStoreIds(db, accountId, toFilters(body)));
      const page = typeof body.page === 'object' ? body.page.number : (body.page ?? 1);
      const perPage = body.per_page ?? 20;
      const descending = (body.sort_order ?? 'desc') === 'desc';
      const after = body.search_after && {
        createdAt: storable(new Date(Number(body.search_after[0])), 'search_after.0'),
        id: body.search_after[1],
      };
      // One row more than the page tells whether another page follows. A search's page counts its
      // matches in the same scan (a cursor would limit what it sees, so not with search_after);
      // everything else is counted on the side, mostly from the kept counters.
      const countWithPage = filters.search !== undefined && !after;
      const [rows, counted] = await Promise.all([
        repo.findShipmentPage(db, accountId, filters, {
          limit: perPage + 1,
          descending,
          ...(after ? { after } : { offset: (page - 1) * perPage }),
          countMatches: countWithPage,
        }),
        countWithPage ? undefined : repo.countShipments(db, accountId, filters),
      ]);
      // A page past the last match has no row to carry the count.
      const total = counted ?? rows[0]?.matching ?? (await repo.countShipments(db, accountId, filters));
      const pageRows = rows.slice(0, perPage);
      const last = pageRows.at(-1);
      const shipmentIds = pageRows.map((r) => r.shipment.id);
      const [details, actions] = await Promise.all([
        repo.findPageDetails(
          db,
          accountId,
          pageRows.map((r) => r.order.id),
          shipmentIds,
        ),
        findActionsOf(db, accountId, shipmentIds),
      ]);
      return {
        data: pageRows.map((row) => toElement(row, { ...details, actions }, catalogue, trackUrl)),
        meta: {
          current_page: page,
          per_page: perPage,
          total,
          next_search_after:
            rows.length > perPage && last ? [String(last.shipment.createdAt.getTime()), last.shipment.id] : null,
        },
      };
    },
  };
}

export type PageRow = Awaited<ReturnType<typeof repo.findShipmentPage>>[number];
export type PageDetails = Awaited<ReturnType<typeof repo.findPageDetails>> & { actions: Awaited<ReturnType<typeof findActionsOf>> };

const returnOf = (linked: ReturnType<PageDetails['returns']['get']>) =>
  linked ? { return_id: linked.returnId, awb_code: linked.awb, status: linked.status } : null;

/** One shipment as the listing shows it (also the `data.shipment` of its events). */
export function toElement(
  { shipment: s, order: o, storeName }: Pick<PageRow, 'shipment' | 'order' | 'storeName'>,
  details: PageDetails,
  catalogue: CourierCatalogue,
  trackUrl: TrackUrl,
) {
  const events = details.events.get(s.id) ?? [];
  return {
    id: s.id,
    type: 'shipment' as const,
    attributes: {
      tracking_number: s.awb,
      track_url: bookedTrackUrl(trackUrl, s),
      status: s.status,
      sub_status: s.subStatus,
      created_at: s.createdAt.toISOString(),
      expected_delivery_date: s.expectedDeliveryDate,
      warehouse_id: s.warehouseId,
      total_price: paiseToRupees(s.totalPricePaise),
      cod_amount: paiseToRupees(s.codAmountPaise),
      is_cod: s.isCod,
      zone: zoneLabel(s.zone as Zone),
      applied_weight: { value: s.appliedWeightGrams, metric_unit: 'g' as const },
      attempt_count: s.attemptCount,
      return: returnOf(details.returns.get(s.id)),
      carrier: s.carrierId ? { id: s.carrierId, name: catalogue.byId.get(s.carrierId)?.name ?? s.carrierId } : null,
      order: {
        id: o.id,
        order_date: o.orderDate.toISOString(),
        channel: o.channel,
        display_id: o.merchantOrderId,
        external_id: o.merchantOrderId,
        store_name: storeName,
        channel_id: o.channelRef,
        vendor_details: o.vendorDetails,
      },
      items: details.items
        .filter((item) => item.orderId === o.id)
        .map((item) => ({
          id: item.id,
          quantity: item.units,
          price: paiseToRupees(item.sellingPricePaise),
          name: item.name,
          sku: item.sku,
        })),
      shipping_address: {
        name: [o.shippingName, o.shippingLastName].filter(Boolean).join(' '),
        phone: o.shippingPhone,
        city: o.shippingCity,
        state: o.shippingState,
        zip: o.shippingPincode,
      },
      shipment_milestones: details.milestones
        .filter((m) => m.shipmentId === s.id)
        .map((m) => ({ milestone: m.milestone, milestone_at: m.milestoneAt.toISOString() })),
      ndr_actions: (details.actions.get(s.id) ?? []).map(toActionView),
      tracking_details: events.map((event) => ({
        id: event.id,
        status: event.status,
        last_location: event.location,
        event_date_time: event.eventTime.toISOString(),
        description: event.description,
      })),
    },
  };
}
