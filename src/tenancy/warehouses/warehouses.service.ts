import type { Static } from 'typebox';
import type { Actor } from '../../domain/access/permissions.js';
import { gstinProblems } from '../../domain/paperwork/gstin.js';
import { auditRecorder } from '../audit/audit.js';
import type { Clock } from '../../base/clock.js';
import type { Db, Executor } from '../../base/db/client.js';
import { checkAll, type FieldError } from '../../domain/errors.js';
import { WAREHOUSE_ERRORS } from './warehouses.errors.js';
import type { PincodeDirectory } from '../../domain/geo/pincodes.js';
import { resolvePhone, resolvePincode } from '../../domain/geo/resolve.js';
import { UUID } from '../../base/uuid.js';
import * as repo from './warehouses.repository.js';
import type { CreateWarehouseBody } from './warehouses.schemas.js';

export type WarehouseRow = repo.WarehouseRow;
export type WarehousesService = ReturnType<typeof createWarehousesService>;

export function toWarehouseView(row: WarehouseRow) {
  return {
    id: row.id,
    name: row.name,
    phone_number: row.phone,
    email: row.email,
    contact_person: row.contactPerson,
    gst_no: row.gstNo,
    address_attributes: {
      street_address: row.streetAddress,
      zip: row.pincode,
      city: row.city,
      state: row.state,
      country: row.country,
    },
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /warehouse's view: Dakiya's, plus the flat fields and the warehouse_id Velocity integrations read. */
export function toVelocityWarehouseView(row: WarehouseRow) {
  return {
    ...toWarehouseView(row),
    warehouse_id: row.id,
    address: row.streetAddress,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    country: row.country,
  };
}

export function createWarehousesService({
  db,
  clock,
  directory,
}: {
  db: Db;
  clock: Clock;
  directory: PincodeDirectory;
}) {
  const record = auditRecorder(clock);
  return {
    /**
     * Names need not be unique (Velocity allows two of one name), but a second warehouse of a name
     * makes pickup_location by that name ambiguous, which orders then refuse: the answer warns.
     */
    async create(
      actor: Actor,
      body: Static<typeof CreateWarehouseBody>,
    ): Promise<{ row: WarehouseRow; warnings: FieldError[] }> {
      const { accountId } = actor;
      const address = body.address_attributes;
      // Independent checks, all reported together.
      const checks = checkAll();
      const phone = checks.check(() => resolvePhone(body.phone_number, 'phone_number'));
      const pin = checks.check(() => resolvePincode(directory, address.zip, 'address_attributes.zip'));
      checks.done();
      const name = body.name.trim();
      const gstNo = body.gst_no?.trim().toUpperCase() || null;
      const [namesake] = await repo.findWarehousesByName(db, accountId, name);
      const row = await db.transaction(async (tx) => {
        const made = await repo.insertWarehouse(tx, accountId, {
          name,
          phone: phone!,
          email: body.email ?? null,
          contactPerson: body.contact_person?.trim() ?? null,
          streetAddress: address.street_address.trim(),
          pincode: pin!.pincode,
          city: address.city.trim(),
          state: address.state.trim(),
          country: address.country.trim(),
          gstNo,
          createdAt: clock.now(),
        });
        await record(tx, actor, {
          action: 'warehouse.created',
          objectType: 'warehouse',
          objectId: made.id,
          changes: { name: made.name, pincode: made.pincode },
        });
        return made;
      });
      const warnings: FieldError[] = [];
      if (namesake)
        warnings.push({
          field: 'name',
          message:
            `name '${name}' is already used by warehouse ${namesake.id} of this account: pickup_location '${name}' is now ` +
            'ambiguous, and an order that sends it without warehouse_id is refused; send warehouse_id',
        });
      // Kept as sent (Velocity takes any GSTIN of the form, and the label prints it), and said.
      const gstProblems = gstNo === null ? [] : gstinProblems(gstNo, pin!.state);
      if (gstProblems.length > 0)
        warnings.push({
          field: 'gst_no',
          message: `gst_no ${gstNo} looks wrong: ${gstProblems.join('; ')}. It is kept and printed on labels as sent; check it`,
        });
      return { row, warnings };
    },

    list: (accountId: string) => repo.listWarehouses(db, accountId),

    async get(accountId: string, id: string): Promise<WarehouseRow> {
      const row = await repo.findWarehouse(db, accountId, id);
      if (!row) throw WAREHOUSE_ERRORS.warehouse_not_found.error('Warehouse not found');
      return row;
    },

    /**
     * For orders: the warehouse named by id or, as Velocity integrations do, by its name
     * (pickup_location). An unknown or foreign warehouse conflicts with the account's state (422).
     * When both are sent, warehouse_id wins: integrations hard-code pickup_location from Velocity's
     * samples ("HomeNew"), so a name that is not that warehouse's is only a warning.
     * `ex`: the caller's transaction, if any.
     */
    async resolveForOrder(
      accountId: string,
      id: string | undefined,
      pickupLocation: string | undefined,
      ex: Executor = db,
    ): Promise<{ warehouse: WarehouseRow; warning: FieldError | null }> {
      const byId = id === undefined ? undefined : await findById(ex, accountId, id);
      if (pickupLocation === undefined) return { warehouse: byId!, warning: null };
      const named = await repo.findWarehousesByName(ex, accountId, pickupLocation);
      if (byId) {
        if (named.some((row) => row.id === byId.id)) return { warehouse: byId, warning: null };
        return {
          warehouse: byId,
          warning: {
            field: 'pickup_location',
            message: `pickup_location '${pickupLocation}' is not the name of warehouse_id's warehouse ('${byId.name}'): warehouse_id was used`,
          },
        };
      }
      if (named.length === 0) {
        throw WAREHOUSE_ERRORS.pickup_location_unknown.error(
          `pickup_location '${pickupLocation}' names no warehouse of this account: create it first`,
          'pickup_location',
        );
      }
      if (named.length > 1) {
        throw WAREHOUSE_ERRORS.pickup_location_ambiguous.error(
          `pickup_location '${pickupLocation}' names more than one warehouse: send warehouse_id`,
          'pickup_location',
        );
      }
      return { warehouse: named[0]!, warning: null };
    },

    /** A stored or sent warehouse_id, as resolveForOrder reads it. */
    requireForOrder: (accountId: string, id: string, ex: Executor = db): Promise<WarehouseRow> =>
      findById(ex, accountId, id),
  };

  async function findById(ex: Executor, accountId: string, id: string): Promise<WarehouseRow> {
    const row = UUID.test(id) ? await repo.findWarehouse(ex, accountId, id) : undefined;
    if (!row)
      throw WAREHOUSE_ERRORS.order_warehouse_unknown.error(
        `Warehouse '${id}' not found: create it first`,
        'warehouse_id',
      );
    return row;
  }
}
