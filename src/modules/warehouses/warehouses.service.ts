import type { Static } from 'typebox';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/client.js';
import { badRequest, notFound, unprocessable } from '../../http/errors.js';
import { normalizeIndianPhone } from '../geo/phone.js';
import type { PincodeDirectory } from '../geo/pincodes.js';
import { resolvePincode } from '../geo/resolve.js';
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

export function createWarehousesService({ db, clock, directory }: { db: Db; clock: Clock; directory: PincodeDirectory }) {
  return {
    async create(accountId: string, body: Static<typeof CreateWarehouseBody>): Promise<WarehouseRow> {
      const phone = normalizeIndianPhone(body.phone_number);
      if (!phone) throw badRequest('phone_number must be a valid Indian phone number (10 digits)', 'phone_number');
      const address = body.address_attributes;
      const pin = resolvePincode(directory, address.zip, 'address_attributes.zip');
      return repo.insertWarehouse(db, accountId, {
        name: body.name.trim(),
        phone,
        email: body.email ?? null,
        contactPerson: body.contact_person?.trim() ?? null,
        streetAddress: address.street_address.trim(),
        pincode: pin.pincode,
        city: address.city.trim(),
        state: address.state.trim(),
        country: address.country.trim(),
        createdAt: clock.now(),
      });
    },

    list: (accountId: string) => repo.listWarehouses(db, accountId),

    async get(accountId: string, id: string): Promise<WarehouseRow> {
      const row = await repo.findWarehouse(db, accountId, id);
      if (!row) throw notFound('Warehouse not found');
      return row;
    },

    /** For orders: an unknown or foreign warehouse is a conflict with the account's state, not a 404. */
    async requireForOrder(accountId: string, id: string): Promise<WarehouseRow> {
      const row = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findWarehouse(db, accountId, id) : undefined;
      if (!row) throw unprocessable(`Warehouse '${id}' not found: create it first`, 'warehouse_id');
      return row;
    },
  };
}
