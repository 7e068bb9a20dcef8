import { and, asc, eq, or } from 'drizzle-orm';
import type { Executor } from '../../base/db/client.js';
import { accounts, type ReturnAddress, returnItems, returns, warehouses } from '../../base/db/schema.js';
import { type CourierCatalogue, isTestService } from '../../domain/rates/catalogue.js';
import type { LabelAddress, LabelData } from './label-pdf.js';
import { UUID } from '../../base/uuid.js';

// A return's label: the same 4x6 inch label as a forward shipment's, read from the returns table.
// The courier collects at the customer's door and delivers to the warehouse, so the warehouse is
// the addressee and the customer is where an undeliverable parcel goes back to.

const IST_MS = 330 * 60 * 1000;

/** The account's return by its shipment_id, its return_id or its AWB, in the shape labels check. */
export async function findAccountReturn(db: Executor, accountId: string, idOrAwb: string) {
  const [row] = await db
    .select({ id: returns.shipmentId, awb: returns.awb, status: returns.status })
    .from(returns)
    .where(
      and(
        eq(returns.accountId, accountId),
        UUID.test(idOrAwb) ? or(eq(returns.shipmentId, idOrAwb), eq(returns.id, idOrAwb)) : eq(returns.awb, idOrAwb),
      ),
    );
  // A cancelled return's label is void exactly as a cancelled shipment's.
  return row && { ...row, status: row.status === 'return_cancelled' ? 'cancelled' : row.status };
}

const address = (a: ReturnAddress, extra: (string | null | undefined)[] = []): LabelAddress => ({
  name: [a.name, a.last_name].filter(Boolean).join(' '),
  lines: [...extra, a.address, a.address_2, `${a.city}, ${a.state} ${a.pincode}`].filter((line): line is string =>
    Boolean(line),
  ),
  phone: a.phone,
});

/** Everything a return's label prints, found by its shipment id (the signed link's subject). */
export async function returnLabelData(
  db: Executor,
  shipmentId: string,
  catalogue: CourierCatalogue,
): Promise<{ data: LabelData; status: string } | undefined> {
  const [row] = await db
    .select({ ret: returns, accountName: accounts.name, gstin: warehouses.gstNo, warehouseName: warehouses.name })
    .from(returns)
    .innerJoin(accounts, eq(accounts.id, returns.accountId))
    .leftJoin(warehouses, and(eq(warehouses.accountId, returns.accountId), eq(warehouses.id, returns.warehouseId)))
    .where(eq(returns.shipmentId, shipmentId));
  if (!row?.ret.awb || !row.ret.carrierId) return undefined;
  const { ret } = row;
  const items = await db
    .select({ name: returnItems.name, sku: returnItems.sku, units: returnItems.units })
    .from(returnItems)
    .where(and(eq(returnItems.accountId, ret.accountId), eq(returnItems.returnId, ret.id)))
    .orderBy(asc(returnItems.position));
  return {
    status: ret.status === 'return_cancelled' ? 'cancelled' : ret.status,
    data: {
      awb: ret.awb!,
      courierName: catalogue.byId.get(ret.carrierId!)?.name ?? ret.carrierId!,
      testMode: isTestService(catalogue, ret.carrierId!),
      brandName: row.accountName,
      brandLogo: null,
      shipTo: address(ret.shipping, [row.warehouseName]),
      returnTo: address(ret.pickup, [ret.pickup.company_name]),
      gstin: row.gstin ?? null,
      soldBy: null,
      orderId: `${ret.merchantOrderId} (return)`,
      orderDate: `${new Date(ret.orderDate.getTime() + IST_MS).toISOString().slice(0, 16).replace('T', ' ')} IST`,
      items,
      declaredValue: ret.subTotalPaise / 100,
      codAmount: null,
      weightKg: ret.weightGrams / 1000,
      dimensionsCm: [ret.lengthCm, ret.breadthCm, ret.heightCm],
      zone: `zone_${ret.zone.toLowerCase()}`,
    },
  };
}
