import type { Clock } from '../../base/clock.js';
import type { Static } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { SHIPMENT_LISTING_ERRORS } from './shipments.errors.js';
import { compactJson } from './compact-json.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import { dateRanges, storable } from '../../domain/shipment/date-bounds.js';
import type { ElementRow } from './shipment-element.repository.js';
import { type ShipmentFilters, withOrderIds, withSearchKeys, withStoreIds } from './shipment-filters.repository.js';
import * as repo from './shipments.repository.js';
import { type ArrayFilter, DATE_FIELDS, type ListShipmentsBody, UNKEPT_FILTERS } from './shipments.schemas.js';
import { forwardFilterConditions, granularStatus } from '../../domain/shipment/granular-statuses.js';
import type { ShipmentStatus } from '../../domain/shipment/status-machine.js';
import { statusConditions } from './velocity-statuses.js';
import type { LabelLinks } from '../../domain/shipment/label-links.js';
import { bookedTrackUrl, type TrackUrl } from '../../domain/shipment/track-links.js';

type ListInput = Static<typeof ListShipmentsBody>;

export type ShipmentsService = ReturnType<typeof createShipmentsService>;

/**
 * `name` and `name[]` are one filter, and so are SPEC's and Velocity's names for it (`carrier_id`
 * and `carrier_ids`); a single value is a list of one.
 */
export function arrayFilter(body: object, ...names: string[]): string[] | undefined {
  const input = body as Record<string, string | string[] | undefined>;
  // Most listings send none of the twenty-odd filters: this runs for each, on every read.
  let values: Set<string> | undefined;
  for (const name of names) {
    for (const given of [input[name], input[`${name}[]`]]) {
      if (given === undefined) continue;
      values ??= new Set();
      if (Array.isArray(given)) for (const value of given) values.add(value);
      else values.add(given);
    }
  }
  return values && values.size > 0 ? [...values] : undefined;
}

/** The paging forms PagingInput takes (pagingParams in shipments.schemas.ts). */
export interface PagingInput {
  page?: number | { number?: number; per_page?: number };
  'page[number]'?: number;
  per_page?: number;
  'page[per_page]'?: number;
}

/**
 * The page and its size from Velocity's forms: `page` (a number or {number, per_page}),
 * `page[number]` and `page[per_page]` as flat keys, `per_page`. Two forms of one value that
 * disagree are a 400 naming the later one, rather than a guess at which the caller meant.
 */
export function pageOf(body: PagingInput): { page: number; perPage: number } {
  const nested = typeof body.page === 'object' ? body.page : undefined;
  const one = (forms: [string, number | undefined][], fallback: number) => {
    const given = forms.filter((f): f is [string, number] => f[1] !== undefined);
    const clash = given.find(([, value]) => value !== given[0]![1]);
    if (clash)
      throw SHIPMENT_LISTING_ERRORS.paging_forms_differ.error(
        `${clash[0]} must not differ from ${given[0]![0]}`,
        clash[0],
      );
    return given[0]?.[1] ?? fallback;
  };
  return {
    page: one(
      [
        ['page', typeof body.page === 'number' ? body.page : undefined],
        ['page.number', nested?.number],
        ['page[number]', body['page[number]']],
      ],
      1,
    ),
    perPage: one(
      [
        ['per_page', body.per_page],
        ['page.per_page', nested?.per_page],
        ['page[per_page]', body['page[per_page]']],
      ],
      20,
    ),
  };
}

/**
 * The first filter sent that needs data Dakiya does not keep (call outcomes). Such a filter
 * matches nothing rather than being ignored: ignoring it would answer shipments the caller excluded.
 */
function unkeptFilter(body: ListInput): string | undefined {
  return UNKEPT_FILTERS.find((name) => arrayFilter(body, name) !== undefined);
}

export function toFilters(body: ListInput): ShipmentFilters {
  const values = (...names: ArrayFilter[]) => arrayFilter(body, ...names);
  if (
    body.applied_weight_min !== undefined &&
    body.applied_weight_max !== undefined &&
    body.applied_weight_min > body.applied_weight_max
  ) {
    throw SHIPMENT_LISTING_ERRORS.filter_range_inverted.error(
      'applied_weight_min must not be above applied_weight_max',
      'applied_weight_min',
    );
  }
  if (
    body.attempts_count__gte !== undefined &&
    body.attempts_count__lte !== undefined &&
    body.attempts_count__gte > body.attempts_count__lte
  ) {
    throw SHIPMENT_LISTING_ERRORS.filter_range_inverted.error(
      'attempts_count__gte must not be above attempts_count__lte',
      'attempts_count__gte',
    );
  }
  return {
    statuses: body.status && statusConditions(body.status),
    granular: values('granular_status') && forwardFilterConditions(values('granular_status')!),
    subStatuses: values('sub_status'),
    carrierIds: values('carrier_id', 'carrier_ids'),
    warehouseIds: values('warehouse_ids', 'warehouse_id'),
    channels: values('channel'),
    zones: values('zone')?.map((zone) => zone.slice(-1).toUpperCase()),
    isCod: body.is_cod,
    skus: values('sku'),
    tags: values('tags'),
    ndrReasons: values('ndr_reason'),
    rtoReasons: values('rto_reason'),
    rtoRisks: values('rto_risk'),
    addressValidities: values('address_validity'),
    ndrOutcomes: values('ndr_all_outcomes'),
    storeNames: values('store_name')?.map((name) => name.toLowerCase()),
    displayIds: values('display_id', 'order_display_id'),
    confirmationOutcomes: values('oc_all_outcomes'),
    codToPrepaid: values('cod_to_prepaid'),
    labelGenerated: body.label_generated,
    manifested: body.manifested,
    pickupId: body.pickup_id,
    city: body.city,
    unkept: unkeptFilter(body),
    weightMin: body.applied_weight_min,
    weightMax: body.applied_weight_max,
    attemptsMin: body.attempts_count__gte,
    attemptsMax: body.attempts_count__lte,
    dateRanges: dateRanges(body, DATE_FIELDS),
    search: body.search,
  };
}

/** The filters kept to the stores a limited credential reaches: those asked for among them, or all of them. */
export function withinStores(f: ShipmentFilters, reach: readonly string[]): ShipmentFilters {
  return { ...f, storeIds: f.storeIds ? f.storeIds.filter((id) => reach.includes(id)) : [...reach] };
}

export function createShipmentsService({
  db,
  clock,
  catalogue,
  labelLinks,
  trackUrl,
}: {
  db: Db;
  /** The time a page's total is taken at (shipments.repository.ts, createdRangeTotal). */
  clock: Clock;
  catalogue: CourierCatalogue;
  labelLinks: LabelLinks;
  trackUrl: TrackUrl;
}) {
  const writeElement = elementWriter(catalogue, trackUrl);
  return {
    /**
     * The page as the JSON text of the answer (ListShipmentsResponse), of the stores `reach` names
     * only when it names some (a store-limited credential's; null: every store).
     */
    async list(accountId: string, body: ListInput, reach: readonly string[] | null = null): Promise<string> {
      // Store names, merchant order ids and a search that is a whole key become ids once, for both the page and the count
      // (callers of the repository pass filters already resolved).
      const asked = await withStoreIds(db, accountId, toFilters(body));
      const named = await withOrderIds(db, accountId, reach === null ? asked : withinStores(asked, reach));
      const filters = await withSearchKeys(db, accountId, named);
      const { page, perPage } = pageOf(body);
      const descending = (body.sort_order ?? 'desc') === 'desc';
      const after = body.search_after && {
        createdAt: storable(new Date(Number(body.search_after[0])), 'search_after.0'),
        id: body.search_after[1],
      };
      // One row more than the page tells whether another page follows. A search's page counts its
      // matches in the same scan (a cursor would limit what it sees, so not with search_after);
      // everything else is counted by the statement's count subquery, mostly from the kept counters.
      const countMatches = filters.search !== undefined && !after;
      const countedAt = clock.now();
      const rows = await repo.findPage(db, accountId, filters, {
        countedAt,
        limit: perPage + 1,
        descending,
        ...(after ? { after } : { offset: (page - 1) * perPage }),
        countMatches,
      });
      // A page past the last match has no row to carry the count.
      const first = rows[0];
      const total = first
        ? Number(countMatches ? first.matching : first.total)
        : await repo.countShipments(db, accountId, filters, countedAt);

      // The one pass over the rows: each element is the database's attributes text with the fields
      // only this process knows written in front of them. Label links are signed per read, so a
      // listing never shows a stale one.
      const shown = Math.min(rows.length, perPage);
      let data = '';
      for (let i = 0; i < shown; i++) {
        const row = rows[i]!;
        data += `${i === 0 ? '' : ','}${writeElement(row, { label_url: labelLinks.urlForShipment(row) })}`;
      }
      const last = rows[shown - 1];
      const next = rows.length > perPage && last ? `["${last.created_ms}","${last.id}"]` : 'null';
      return `{"data":[${data}],"meta":{"current_page":${page},"per_page":${perPage},"total":${total},"next_search_after":${next}}}`;
    },
  };
}

/** Velocity's word for a listed shipment, from the facts its row carries. */
export const granularOf = (row: ElementRow) =>
  granularStatus({
    status: row.status as ShipmentStatus,
    subStatus: row.sub_status,
    courierBooked: row.carrier_id !== null,
    rtoStarted: row.rto_started,
    attemptCount: row.attempt_count,
    reattemptRequested: row.reattempt_requested,
  });

/**
 * A listing element's JSON text from its database row: the courier (named from the catalogue, once
 * per service), the customer's tracking link and any per-read fields in front of the database's attributes.
 */
export type ElementWriter = ReturnType<typeof elementWriter>;

export function elementWriter(catalogue: CourierCatalogue, trackUrl: TrackUrl) {
  const carriers = new Map(
    [...catalogue.byId].map(([id, service]) => [id, JSON.stringify({ id, name: service.name })]),
  );
  const carrierJson = (id: string | null) =>
    id === null ? 'null' : (carriers.get(id) ?? JSON.stringify({ id, name: id }));
  return (row: ElementRow, extra?: Record<string, string | null>) => {
    let fields = `"carrier":${carrierJson(row.carrier_id)},"track_url":${JSON.stringify(bookedTrackUrl(trackUrl, { awb: row.awb, trackToken: row.track_token }))},"granular_status":"${granularOf(row)}",`;
    if (extra)
      for (const [key, value] of Object.entries(extra)) fields += `${JSON.stringify(key)}:${JSON.stringify(value)},`;
    return `{"id":"${row.id}","type":"shipment","attributes":{${fields}${compactJson(row.attributes).slice(1)}}`;
  };
}
