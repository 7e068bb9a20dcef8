import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/base/db/client.js';
import { createHealthRecorder } from '../../src/couriers/connector-health.js';
import { type Couriers, createConnectors, createCouriers } from '../../src/couriers/couriers.service.js';
import { createReturnsService } from '../../src/features/returns/returns.service.js';
import type { CreateReturnInput } from '../../src/features/returns/returns.schemas.js';
import { createTrackingService } from '../../src/features/tracking/tracking.service.js';
import { createWarehousesService } from '../../src/tenancy/warehouses/warehouses.service.js';
import { type ReturnFields, returnBody } from './returns.js';
import type { UseCaseContext } from './use-cases.js';

// The returns service as the composition root builds it (app.ts, returns.register.ts), from a
// use-case context's parts and the real warehouses, couriers and tracking intake on its database.

/** Links the payload carries, recognisable in an answer without signing anything. */
export const RETURN_LINKS = {
  track: (returnId: string) => `track:${returnId}`,
  label: (shipmentId: string) => `label:${shipmentId}`,
};

/** The returns service and the tracking intake (the return's status machine); `cancel` stands in for the couriers' cancellation. */
export function buildReturns(ctx: UseCaseContext, cancel?: Couriers['cancel']) {
  const { db, clock, rates, settings, events } = ctx;
  const { catalogue, directory } = rates;
  const warehouses = createWarehousesService({ db, clock, directory });
  const health = createHealthRecorder({ db, clock });
  const real = createCouriers({
    db,
    clock,
    catalogue,
    connectors: createConnectors(catalogue, settings.couriers, db, clock, health),
    events,
  });
  const couriers = cancel ? { ...real, cancel } : real;
  const tracking = createTrackingService({
    db,
    clock,
    catalogue,
    directory,
    events,
    earlyScanSeconds: settings.tracking.earlyScanSeconds,
  });
  const returns = createReturnsService({
    db,
    clock,
    rates,
    events,
    warehouses,
    couriers,
    applyReturnEvents: tracking.applyReturnEvents,
    links: RETURN_LINKS,
  });
  return { returns, tracking };
}

/** returnBody (Mumbai 400001 to the Delhi warehouse, 0.5 kg, 10x10x10 cm) as the service takes it; `extra` overrides any field. */
export const returnInput = (warehouseId: string, f: ReturnFields = {}, extra: Record<string, unknown> = {}) =>
  ({ ...returnBody(warehouseId, f), ...extra }) as CreateReturnInput;

/** What a booking froze onto a return, and what it left alone. */
export interface ReturnRowFacts {
  status: string;
  warehouse_id: string | null;
  carrier_id: string | null;
  awb: string | null;
  freight_paise: number | null;
  qc_paise: number | null;
  platform_fee_paise: number | null;
  qc_requested: boolean;
  qc_applied: boolean | null;
  qc_note: string | null;
  zone: string;
  applied_weight_grams: number;
  shipping_pincode: string;
  expected_pickup_date: string | null;
  expected_delivery_date: string | null;
  assigned_at: string | null;
  cancelled_at: string | null;
  created_at: string;
}

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${column}`);

export async function returnRow(ctx: UseCaseContext, returnId: string): Promise<ReturnRowFacts | undefined> {
  const [row] = await queryRows<ReturnRowFacts>(
    ctx.db,
    sql`select status, warehouse_id, carrier_id, awb, freight_paise::int as freight_paise, qc_paise::int as qc_paise,
          platform_fee_paise::int as platform_fee_paise, qc_requested, qc_applied, qc_note, zone, applied_weight_grams,
          shipping->>'pincode' as shipping_pincode,
          to_char(expected_pickup_date, 'YYYY-MM-DD') as expected_pickup_date,
          to_char(expected_delivery_date, 'YYYY-MM-DD') as expected_delivery_date,
          ${iso('assigned_at')}, ${iso('cancelled_at')}, ${iso('created_at')}
        from returns where id = ${returnId}`,
  );
  return row && { ...row, applied_weight_grams: Number(row.applied_weight_grams) };
}

/** The account's returns and the AWBs drawn from every series: a refusal changes neither. */
export async function returnsWritten(ctx: UseCaseContext, accountId: string) {
  const [row] = await queryRows<{ returns: number; awbs: number }>(
    ctx.db,
    sql`select (select count(*) from returns where account_id = ${accountId})::int as returns,
          (select coalesce(sum(last_value), 0) from awb_counters)::int as awbs`,
  );
  return { returns: Number(row!.returns), awbs: Number(row!.awbs) };
}

/** The return's events as the event log recorded them, in order. */
export async function returnEvents(ctx: UseCaseContext, returnId: string) {
  // Each event's data is the return's snapshot and, beside it, what changed.
  return queryRows<{ type: string; created_at: string; change: Record<string, unknown> }>(
    ctx.db,
    sql`select type, ${iso('created_at')}, data - 'return' as change from events
        where subject_id = ${returnId} order by sequence`,
  );
}
