import type { TestContext } from '../app.js';
import { authed, post, WAREHOUSE } from './http.js';

// Two kinds of warehouse: the documented one with every contact field (createWarehouse, overridable
// field by field), and a bare one in a named city (createCityWarehouse: name, phone and address).

/** New Delhi 110001, the default pickup pincode. */
export const WAREHOUSE_PIN = '110001';

export interface WarehouseBody {
  name: string;
  phone_number: string;
  email?: string;
  contact_person?: string;
  gst_no?: string;
  address_attributes: { street_address: string; zip: string | number; city: string; state: string; country: string };
}

/** The Okhla Fulfilment Centre (New Delhi 110001), with an e-mail and a contact person; override any field. */
export function warehouseBody(overrides: Partial<WarehouseBody> = {}): WarehouseBody {
  return {
    name: 'Okhla Fulfilment Centre',
    phone_number: '9876543210',
    email: 'ops@acme.example',
    contact_person: 'Ravi Kumar',
    address_attributes: {
      street_address: 'Plot 14, Okhla Phase III',
      zip: WAREHOUSE_PIN,
      city: 'New Delhi',
      state: 'Delhi',
      country: 'India',
    },
    ...overrides,
  };
}

/** Creates warehouseBody(overrides) and returns its id. */
export async function createWarehouse(
  ctx: TestContext,
  apiKey: string,
  overrides: Partial<WarehouseBody> = {},
): Promise<string> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: WAREHOUSE,
    headers: authed(apiKey),
    payload: warehouseBody(overrides),
  });
  if (response.statusCode !== 201)
    throw new Error(`warehouse creation failed: ${response.statusCode} ${response.body}`);
  return response.json().payload.warehouse_id;
}

/** Pickup points: New Delhi (the default) and Mumbai. */
export const WAREHOUSE_ADDRESSES = {
  delhi: {
    street_address: 'Plot 14, Okhla Phase III',
    zip: '110001',
    city: 'New Delhi',
    state: 'Delhi',
    country: 'India',
  },
  mumbai: { street_address: '3 Ballard Estate', zip: '400001', city: 'Mumbai', state: 'Maharashtra', country: 'India' },
} as const;

/** Creates a warehouse of only a name ("Warehouse delhi" unless given), a phone and the city's address; returns its id. */
export async function createCityWarehouse(
  ctx: TestContext,
  apiKey: string,
  where: keyof typeof WAREHOUSE_ADDRESSES = 'delhi',
  name = `Warehouse ${where}`,
): Promise<string> {
  const response = await post(ctx, apiKey, WAREHOUSE, {
    name,
    phone_number: '9876543210',
    address_attributes: WAREHOUSE_ADDRESSES[where],
  });
  if (response.statusCode !== 201)
    throw new Error(`warehouse creation failed: ${response.statusCode} ${response.body}`);
  return response.json().payload.warehouse_id;
}

/** A new account (named `name`, else numbered) with one warehouse, warehouseBody's. */
export async function merchant(ctx: TestContext, name?: string) {
  const account = await ctx.createAccount(name);
  return { ...account, warehouseId: await createWarehouse(ctx, account.apiKey) };
}

/** A new, numbered account with one warehouse, createCityWarehouse's in Delhi ("Warehouse delhi"). */
export async function merchantWithCityWarehouse(ctx: TestContext) {
  const account = await ctx.createAccount();
  return { ...account, warehouseId: await createCityWarehouse(ctx, account.apiKey) };
}
