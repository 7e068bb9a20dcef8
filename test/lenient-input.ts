import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import { createTestApp, type TestContext } from './app.js';
import { authed } from './kit/http.js';
import { createWarehouse } from './kit/warehouses.js';

// What lenient-input-ignored-fields.once.test.ts and lenient-input-types.once.test.ts share: the
// header, the account's login, a quote that succeeds, and the app with the requests they send it.

export const IGNORED = 'dakiya-ignored-fields';
export const USERNAME = '+919876500123';
export const PASSWORD = 'lenient input password';

export const QUOTE = {
  journey_type: 'forward',
  origin_pincode: '110001',
  destination_pincode: '400001',
  dead_weight: 400,
  length: 10,
  width: 10,
  height: 10,
  payment_method: 'cod',
  shipment_value: 1000,
};

/** A 400 (or, with its code, another refusal) naming one field. */
export const fieldError = (field: string, message: string, code = 'invalid_request') => ({
  code,
  message,
  errors: [message],
  details: [{ field, message }],
});

/** How an answer's body names a field the route does not know, with the known one nearest to its name. */
export function unknownField(field: string, nearest?: string) {
  const message = `${field} is not a field of this request and was ignored`;
  return { field, message: nearest ? `${message}; did you mean ${nearest}?` : message };
}

/** A 400's envelope with the unknown fields named after its own problems. */
export function withUnknown(
  envelope: { message?: string; errors: string[]; details?: { field: string; message: string }[] },
  ...unknown: { field: string; message: string }[]
) {
  return {
    ...envelope,
    errors: [...envelope.errors, ...unknown.map((u) => u.message)],
    details: [...(envelope.details ?? []), ...unknown],
  };
}

/**
 * The file's app (made before its first test, closed after its last), with an account of USERNAME
 * and PASSWORD and one warehouse, and the requests the tests send it. `ready` receives the app,
 * the account's API key and the warehouse, for tests that use them directly.
 */
export function useLenientInputApp(ready: (ctx: TestContext, apiKey: string, warehouseId: string) => void) {
  let ctx: TestContext;
  let apiKey: string;
  let storeCounter = 0;

  beforeAll(async () => {
    ctx = await createTestApp();
    apiKey = (await ctx.createAccount('Lenient input', { username: USERNAME, password: PASSWORD })).apiKey;
    ready(ctx, apiKey, await createWarehouse(ctx, apiKey));
  });
  afterAll(async () => {
    await ctx.close();
  });

  const storeName = () => `lenient-${++storeCounter}`;

  const post = (url: string, payload: unknown, credential: string | null = apiKey) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: credential === null ? {} : authed(credential),
      payload: payload as object,
    });
  const postText = (url: string, text: string) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...authed(apiKey), 'content-type': 'application/json' },
      payload: text,
    });

  /** A stored row as the database has it, without the columns that differ between two creations. */
  async function storedRow(table: string, id: string, differing: string[]) {
    const [row] = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select * from ${sql.identifier(table)} where id = ${id}`,
    );
    expect(row, `${table} ${id}`).toBeDefined();
    return Object.fromEntries(Object.entries(row!).filter(([column]) => !differing.includes(column)));
  }

  async function storedItems(orderId: string) {
    const rows = await queryRows<Record<string, unknown>>(
      ctx.database.db,
      sql`select * from order_items where order_id = ${orderId} order by position`,
    );
    return rows.map(({ id: _id, order_id: _order, ...rest }) => rest);
  }

  return { storeName, post, postText, storedRow, storedItems };
}
