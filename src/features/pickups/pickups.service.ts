import type { Clock } from '../../base/clock.js';
import type { Actor } from '../../domain/access/permissions.js';
import { auditRecorder } from '../../tenancy/audit/audit.js';
import type { Db, Executor, Tx } from '../../base/db/client.js';
import type { Couriers } from '../../couriers/couriers.service.js';
import { formatDay, indiaDayOf, parseDay } from '../../domain/calendar.js';
import { paiseToRupees } from '../../domain/money.js';
import { decodeCursor, encodeCursor } from '../../domain/paging.js';
import type { CourierCatalogue } from '../../domain/rates/catalogue.js';
import type { EventLog } from '../../events/event-log.js';
import type { ErrorCode, FieldError } from '../../domain/errors.js';
import { unprocessable } from '../../domain/errors.js';
import { heldMessage } from '../../shipment-records/hold.js';
import { findBoxAwbs } from '../../shipment-records/box-awbs.js';
import { findWarehouse, type WarehouseRow } from '../../tenancy/warehouses/warehouses.repository.js';
import { renderManifest } from './manifest-pdf.js';
import * as repo from './pickups.repository.js';
import { PICKUP_ERRORS } from './pickups.errors.js';

/** How far ahead a pickup may be asked for: couriers schedule a few days out at most. */
export const PICKUP_DAYS_AHEAD = 7;
/** The most parcels one pickup (and its manifest) covers. */
export const PICKUP_MAX_PARCELS = 500;

export interface PickupInput {
  warehouse_id: string;
  carrier_id: string;
  /** Today (India time) when left out. */
  pickup_date?: string;
  awbs?: string[];
}

export type PickupsService = ReturnType<typeof createPickupsService>;

const addressOf = (warehouse: WarehouseRow) =>
  [warehouse.streetAddress, warehouse.city, `${warehouse.state} ${warehouse.pincode}`].join(', ');

/** Every problem of the request in one 422, each naming its field. */
const refused = (code: ErrorCode, problems: FieldError[]) =>
  code.error(
    problems.map((problem) => problem.message),
    problems,
  );

function calendarDay(text: string): number | null {
  try {
    return parseDay(text);
  } catch {
    return null;
  }
}

/** Why a named AWB cannot go on this pickup, or null when it can. */
function refusal(row: repo.PickupShipmentRow, input: PickupInput): string | null {
  if (row.pickupId !== null) return `is on pickup ${row.pickupId} already`;
  if (row.warehouseId !== input.warehouse_id) return 'ships from another warehouse';
  if (row.carrierId !== input.carrier_id) return `is booked with another courier (${row.carrierId ?? 'none'})`;
  if (row.status !== 'pending') return `is ${row.status}: only parcels not yet picked up go on a pickup`;
  if (row.hold) return heldMessage(row.awb, row.hold);
  return null;
}

/**
 * Pickups: the merchant asks a courier to collect a warehouse's parcels on a day and hands the
 * rider the manifest. The courier is asked first (a refusal or failure writes nothing); then the
 * pickup and its shipments are written in one transaction, each shipment only while it still waits
 * (decision 100).
 */
export function createPickupsService({
  db,
  clock,
  catalogue,
  couriers,
  events,
  publicBaseUrl,
}: {
  db: Db;
  clock: Clock;
  catalogue: CourierCatalogue;
  couriers: Pick<Couriers, 'schedulePickup'>;
  events: EventLog;
  publicBaseUrl: string;
}) {
  function view(pickup: repo.PickupRow, shipments: repo.PickupShipmentRow[]) {
    const waiting = shipments.filter((row) => row.status === 'pending');
    const status = pickup.missedAt ? 'missed' : waiting.length === 0 ? 'picked_up' : 'scheduled';
    return {
      id: pickup.id,
      status: status as 'scheduled' | 'picked_up' | 'missed',
      warehouse_id: pickup.warehouseId,
      carrier_id: pickup.carrierId,
      courier_name: catalogue.byId.get(pickup.carrierId)?.name ?? pickup.carrierId,
      pickup_date: pickup.pickupDate,
      courier_reference: pickup.courierReference,
      parcels: pickup.parcels,
      manifest_url: `${publicBaseUrl}/custom/api/v1/pickups/${pickup.id}/manifest.pdf`,
      created_at: pickup.createdAt.toISOString(),
      missed_at: pickup.missedAt?.toISOString() ?? null,
      missed_awbs: pickup.missedAt ? waiting.map((row) => row.awb) : [],
      shipments: shipments.map((row) => ({
        awb: row.awb,
        order_id: row.orderId,
        weight: row.weightGrams / 1000,
        cod_amount: row.isCod ? paiseToRupees(row.codAmountPaise) : 0,
        status: row.status,
        picked_up: row.pickedUpAt !== null,
      })),
    };
  }

  async function parcelsFor(ex: Executor, accountId: string, input: PickupInput): Promise<repo.PickupShipmentRow[]> {
    if (input.awbs === undefined) {
      const waiting = await repo.findWaitingShipments(
        ex,
        accountId,
        input.warehouse_id,
        input.carrier_id,
        PICKUP_MAX_PARCELS,
      );
      if (waiting.length === 0)
        throw PICKUP_ERRORS.no_parcel_waiting.error(
          `No parcel of this warehouse booked with ${input.carrier_id} is waiting for a pickup`,
          'awbs',
        );
      return waiting;
    }
    const awbs = [...new Set(input.awbs)];
    const found = new Map((await repo.findShipmentsByAwbs(ex, accountId, awbs)).map((row) => [row.awb, row]));
    // A box's AWB puts its shipment on the pickup: a multi-piece shipment's boxes are collected together.
    const boxes = await findBoxAwbs(
      ex,
      accountId,
      awbs.filter((awb) => !found.has(awb)),
    );
    const masters = [...new Set([...boxes.values()].map((box) => box.masterAwb))].filter((awb) => !found.has(awb));
    if (masters.length > 0)
      for (const row of await repo.findShipmentsByAwbs(ex, accountId, masters)) found.set(row.awb, row);
    const rowOf = (awb: string) => found.get(boxes.get(awb)?.masterAwb ?? awb);
    const problems = awbs.flatMap((awb) => {
      const row = rowOf(awb);
      const why = row ? refusal(row, input) : 'not found';
      return why === null ? [] : [{ field: `awbs[${input.awbs!.indexOf(awb)}]`, message: `AWB ${awb} ${why}` }];
    });
    if (problems.length > 0) throw refused(PICKUP_ERRORS.pickup_parcels_refused, problems);
    // Once each, however many of its AWBs were named.
    return [...new Map(awbs.map((awb) => [rowOf(awb)!.id, rowOf(awb)!])).values()];
  }

  async function load(accountId: string, id: string) {
    const pickup = await repo.findPickup(db, accountId, id);
    if (!pickup) throw PICKUP_ERRORS.pickup_not_found.error('Pickup not found');
    return { pickup, shipments: await repo.pickupShipments(db, accountId, id) };
  }

  const record = auditRecorder(clock);
  return {
    /** `outer`: the Idempotency-Key's transaction (http/idempotency.ts), when the request has one. */
    async create(actor: Actor, input: PickupInput, outer?: Tx) {
      const { accountId } = actor;
      const ex = outer ?? db;
      const today = indiaDayOf(clock.now());
      const warehouse = await findWarehouse(ex, accountId, input.warehouse_id);
      const service = catalogue.byId.get(input.carrier_id);
      const problems: { message: string; field: string }[] = [];
      if (!warehouse)
        problems.push({ field: 'warehouse_id', message: 'warehouse_id names no warehouse of this account' });
      if (!service)
        problems.push({
          field: 'carrier_id',
          message: `carrier_id ${input.carrier_id} is not a courier service of this server`,
        });
      const pickupDate = input.pickup_date ?? formatDay(today);
      const day = calendarDay(pickupDate);
      if (day === null || day < today || day > today + PICKUP_DAYS_AHEAD) {
        problems.push({
          field: 'pickup_date',
          message: `pickup_date must be from today (${formatDay(today)}) to ${formatDay(today + PICKUP_DAYS_AHEAD)}, India time`,
        });
      }
      if (problems.length > 0) throw refused(PICKUP_ERRORS.pickup_request_invalid, problems);
      const parcels = await parcelsFor(ex, accountId, input);
      const courierReference = await couriers.schedulePickup(accountId, service!, {
        locationName: warehouse!.name,
        date: pickupDate,
        parcels: parcels.length,
        awbs: parcels.map((row) => row.awb),
      });
      const now = clock.now();
      return ex.transaction(async (tx) => {
        const pickup = await repo.insertPickup(tx, accountId, {
          warehouseId: input.warehouse_id,
          carrierId: input.carrier_id,
          pickupDate,
          courierReference,
          parcels: parcels.length,
          createdAt: now,
        });
        const taken = await repo.attachShipments(
          tx,
          accountId,
          pickup.id,
          parcels.map((row) => row.id),
        );
        if (taken !== parcels.length) {
          throw PICKUP_ERRORS.pickup_parcels_taken.error(
            `${parcels.length - taken} of the parcels went on another pickup or were picked up meanwhile; ask again`,
          );
        }
        const answer = view(pickup, await repo.pickupShipments(tx, accountId, pickup.id));
        await events.record(
          tx,
          accountId,
          { type: 'pickup.created', subjectType: 'pickup', subjectId: pickup.id, data: { pickup: answer } },
          now,
        );
        await record(tx, actor, {
          action: 'pickup.created',
          objectType: 'pickup',
          objectId: pickup.id,
          changes: {
            carrier_id: input.carrier_id,
            warehouse_id: input.warehouse_id,
            pickup_date: pickupDate,
            parcels: parcels.length,
          },
        });
        return answer;
      });
    },

    async get(accountId: string, id: string) {
      const { pickup, shipments } = await load(accountId, id);
      return view(pickup, shipments);
    },

    /** Of every store, or those whose every parcel is of the stores `reach` names (a store-limited credential's). */
    async list(accountId: string, query: { cursor?: string; limit?: string }, reach: readonly string[] | null = null) {
      const limit = query.limit === undefined ? 20 : Number(query.limit);
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query.cursor !== undefined && after === null)
        throw unprocessable('cursor is not one this API gave', 'cursor');
      const rows = await repo.listPickups(db, accountId, {
        after,
        limit: limit + 1,
        ...(reach !== null && { storeIds: reach }),
      });
      const page = rows.slice(0, limit);
      const data = await Promise.all(
        page.map(async (row) => view(row, await repo.pickupShipments(db, accountId, row.id))),
      );
      const last = page.at(-1);
      return { data, next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
    },

    async manifest(accountId: string, id: string) {
      const { pickup, shipments } = await load(accountId, id);
      const warehouse = await findWarehouse(db, accountId, pickup.warehouseId);
      return renderManifest({
        pickupId: pickup.id,
        courierName: catalogue.byId.get(pickup.carrierId)?.name ?? pickup.carrierId,
        courierReference: pickup.courierReference,
        warehouseName: warehouse?.name ?? '',
        warehouseAddress: warehouse ? addressOf(warehouse) : '',
        pickupDate: pickup.pickupDate,
        lines: shipments.map((row) => ({
          awb: row.awb,
          orderId: row.orderId,
          weightGrams: row.weightGrams,
          codAmountPaise: row.isCod ? row.codAmountPaise : 0,
          ewayBill: row.ewaybillNo,
        })),
      });
    },

    /** Marks the pickups whose day has ended; each with parcels still waiting is missed, once, with its event. */
    async checkMissed(): Promise<number> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const missed = await repo.checkEndedPickups(tx, formatDay(indiaDayOf(now)), now);
        for (const { id, accountId } of missed) {
          const pickup = (await repo.findPickup(tx, accountId, id))!;
          const data = { pickup: view(pickup, await repo.pickupShipments(tx, accountId, id)) };
          await events.record(
            tx,
            accountId,
            { type: 'pickup.missed', subjectType: 'pickup', subjectId: id, data },
            now,
          );
        }
        return missed.length;
      });
    },
  };
}
