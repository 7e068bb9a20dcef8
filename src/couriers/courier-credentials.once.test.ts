import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { EKART, ekartSettings, ratesWith } from '../../test/kit/couriers.js';
import { CANCEL, ORCHESTRATE, post, V1 } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import { queryRows } from '../base/db/client.js';
import { EKART_CLIENT, type EkartSimulator, startEkartSimulator } from '../demo/simulators/ekart-simulator.js';

const CREATE = '/api/v1/package/create';
const CANCEL_PATH = '/api/v1/package/cancel';
/** A merchant's own Ekart contract, known to the simulator beside the server's. */
const OWN = { client_id: 'EKART_MERCHANT_77', username: 'ops@chaipoint.example', password: 'chai-ekart-2f9c41' };
const credentialsUrl = (connector: string) => `${V1}/courier-connections/${connector}/credentials`;

describe("an account's own courier credentials, sealed, used for its parcels only", () => {
  let sim: EkartSimulator;
  let ctx: TestContext;
  /** Books on the server's Ekart credentials throughout. */
  let server: { apiKey: string; id: string; warehouseId: string };
  /** Stores its own. */
  let own: { apiKey: string; id: string; warehouseId: string };

  const put = (apiKey: string, connector: string, body: unknown) =>
    ctx.app.inject({
      method: 'PUT',
      url: credentialsUrl(connector),
      headers: { authorization: apiKey },
      payload: body as object,
    });
  const remove = (apiKey: string, connector: string) =>
    ctx.app.inject({ method: 'DELETE', url: credentialsUrl(connector), headers: { authorization: apiKey } });
  const ekartConnection = async (apiKey: string) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/courier-connections`,
      headers: { authorization: apiKey },
    });
    return (response.json().data as { carrier_id: string }[]).find((row) => row.carrier_id === EKART) as Record<
      string,
      unknown
    >;
  };
  const lastCreateBy = () => sim.ownerOf(sim.callsTo(CREATE).at(-1)!.authorization);

  beforeAll(async () => {
    sim = await startEkartSimulator({
      logins: [{ clientId: OWN.client_id, username: OWN.username, password: OWN.password }],
    });
    ctx = await createTestApp({
      rates: ratesWith({ [EKART]: 'ekart' }),
      settings: { couriers: ekartSettings(sim.baseUrl) },
    });
    const a = await ctx.createAccount();
    const b = await ctx.createAccount();
    server = { ...a, warehouseId: await createWarehouse(ctx, a.apiKey) };
    own = { ...b, warehouseId: await createWarehouse(ctx, b.apiKey) };
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it("books, cancels and reports health with the account's credentials once set; the other account keeps the server's", async () => {
    const stored = await put(own.apiKey, 'ekart', OWN);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual({
      data: {
        connector: 'ekart',
        credentials: 'account',
        fields: ['client_id', 'username', 'password'],
        updated_at: ctx.clock.now().toISOString(),
      },
    });

    const mine = await orchestrate(ctx, own.apiKey, orderBody(own.warehouseId, { carrier_id: EKART }));
    expect(lastCreateBy()).toBe(OWN.client_id);
    const theirs = await orchestrate(ctx, server.apiKey, orderBody(server.warehouseId, { carrier_id: EKART }));
    expect(lastCreateBy()).toBe(EKART_CLIENT);

    expect((await post(ctx, own.apiKey, CANCEL, { awbs: [mine.awb_code] })).json().results).toEqual([
      { awb: mine.awb_code, cancelled: true, message: 'Shipment cancelled' },
    ]);
    expect(sim.ownerOf(sim.callsTo(CANCEL_PATH).at(-1)!.authorization)).toBe(OWN.client_id);
    expect(sim.packages.get(theirs.awb_code!)!.cancelled).toBe(false);

    expect(await ekartConnection(own.apiKey)).toMatchObject({
      credentials: 'account',
      credentials_updated_at: ctx.clock.now().toISOString(),
      health: {
        last_success_at: ctx.clock.now().toISOString(),
        last_error: null,
        token_expires_at: expect.any(String),
      },
    });
    expect(await ekartConnection(server.apiKey)).toMatchObject({
      credentials: 'configured',
      credentials_updated_at: null,
    });
  });

  it("uses them inside an idempotent booking's transaction, and a process started later reads them at start", async () => {
    const keyed = await ctx.app.inject({
      method: 'POST',
      url: ORCHESTRATE,
      headers: { authorization: own.apiKey, 'idempotency-key': 'own-credentials-1' },
      payload: orderBody(own.warehouseId, { carrier_id: EKART }),
    });
    expect(keyed.statusCode).toBe(200);
    expect(lastCreateBy()).toBe(OWN.client_id);

    const second = await createTestApp({
      database: ctx.database,
      rates: ratesWith({ [EKART]: 'ekart' }),
      settings: { couriers: ekartSettings(sim.baseUrl) },
    });
    try {
      const booked = await second.app.inject({
        method: 'POST',
        url: ORCHESTRATE,
        headers: { authorization: own.apiKey },
        payload: orderBody(own.warehouseId, { carrier_id: EKART }),
      });
      expect(booked.statusCode).toBe(200);
      expect(lastCreateBy()).toBe(OWN.client_id);
    } finally {
      await second.app.close();
    }
  });

  it('reaches a process already running once it re-reads them, and so does their removal', async () => {
    const second = await createTestApp({
      database: ctx.database,
      rates: ratesWith({ [EKART]: 'ekart' }),
      settings: { couriers: ekartSettings(sim.baseUrl, { credentialsRefreshMs: 100 }) },
    });
    const bookThere = async () => {
      const booked = await second.app.inject({
        method: 'POST',
        url: ORCHESTRATE,
        headers: { authorization: server.apiKey },
        payload: orderBody(server.warehouseId, { carrier_id: EKART }),
      });
      expect(booked.statusCode).toBe(200);
      return lastCreateBy();
    };
    try {
      expect(await bookThere()).toBe(EKART_CLIENT);
      // Stored through the first process: the second books with them after its next read.
      expect((await put(server.apiKey, 'ekart', OWN)).statusCode).toBe(200);
      await expect.poll(bookThere, { interval: 150, timeout: 5_000 }).toBe(OWN.client_id);
      expect((await remove(server.apiKey, 'ekart')).statusCode).toBe(200);
      await expect.poll(bookThere, { interval: 150, timeout: 5_000 }).toBe(EKART_CLIENT);
    } finally {
      await second.app.close();
    }
  });

  it('keeps them sealed: the database holds no value, and no answer shows one', async () => {
    const [row] = await queryRows<{ sealed: string; fields: string[] }>(
      ctx.database.db,
      sql`select sealed, fields from courier_credentials where account_id = ${own.id} and connector = 'ekart'`,
    );
    expect(row!.fields).toEqual(['client_id', 'username', 'password']);
    expect(row!.sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    for (const value of Object.values(OWN)) expect(row!.sealed).not.toContain(value);
    const listing = await ctx.app.inject({
      method: 'GET',
      url: `${V1}/courier-connections`,
      headers: { authorization: own.apiKey },
    });
    for (const value of Object.values(OWN)) expect(listing.body).not.toContain(value);
  });

  it("answers a refusal of the account's credentials as Ekart's, and the other account books on", async () => {
    expect((await put(own.apiKey, 'ekart', { ...OWN, password: 'not-the-password' })).statusCode).toBe(200);
    const refused = await post(
      ctx,
      own.apiKey,
      '/custom/api/v1/forward-order-orchestration',
      orderBody(own.warehouseId, { carrier_id: EKART }),
    );
    expect(refused.statusCode).toBe(502);
    expect(refused.json().code).toBe('courier_credentials_rejected');
    expect(refused.json().errors[0]).toMatch(/^Ekart could not be reached/);
    await orchestrate(ctx, server.apiKey, orderBody(server.warehouseId, { carrier_id: EKART }));
    expect(lastCreateBy()).toBe(EKART_CLIENT);
  });

  it("goes back to the server's credentials once they are forgotten", async () => {
    const forgotten = await remove(own.apiKey, 'ekart');
    expect(forgotten.statusCode).toBe(200);
    expect(forgotten.json()).toEqual({ data: { connector: 'ekart', credentials: 'configured' } });
    await orchestrate(ctx, own.apiKey, orderBody(own.warehouseId, { carrier_id: EKART }));
    expect(lastCreateBy()).toBe(EKART_CLIENT);
    expect(await ekartConnection(own.apiKey)).toMatchObject({
      credentials: 'configured',
      credentials_updated_at: null,
    });

    const again = await remove(own.apiKey, 'ekart');
    expect(again.statusCode).toBe(404);
    expect(again.json().errors).toEqual(['No ekart credentials of yours are stored']);
  });

  it('names every missing or foreign field at once, and refuses connectors that take none', async () => {
    const empty = await put(own.apiKey, 'ekart', { username: '  ', api_token: 'dlv-token' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual([
      'client_id is required for ekart',
      'username is required for ekart',
      'password is required for ekart',
      "api_token is not one of ekart's credentials (client_id, username, password)",
    ]);
    const tooLong = await put(own.apiKey, 'delhivery', { api_token: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors[0]).toMatch(/api_token/);
    for (const connector of ['sandbox', 'bluedart']) {
      const response = await put(own.apiKey, connector, { api_token: 'abc' });
      expect(response.statusCode).toBe(404);
      expect(response.json().errors).toEqual([
        `No courier API named '${connector}' takes credentials: one of delhivery, ekart, xpressbees, shadowfax`,
      ]);
    }
    const unauthenticated = await ctx.app.inject({ method: 'PUT', url: credentialsUrl('ekart'), payload: OWN });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it("stores Shadowfax's optional order_type with its token, one of the two order types", async () => {
    const wrong = await put(own.apiKey, 'shadowfax', { api_token: 'sfx-own-token', order_type: 'both' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual(['order_type must be one of warehouse, marketplace']);
    const stored = await put(own.apiKey, 'shadowfax', { api_token: 'sfx-own-token', order_type: 'marketplace' });
    expect(stored.statusCode).toBe(200);
    expect(stored.json().data).toMatchObject({ connector: 'shadowfax', fields: ['api_token', 'order_type'] });
    const without = await put(own.apiKey, 'shadowfax', { api_token: 'sfx-own-token' });
    expect(without.json().data).toMatchObject({ fields: ['api_token'] });
    const foreign = await put(own.apiKey, 'ekart', { ...OWN, order_type: 'warehouse' });
    expect(foreign.json().errors).toEqual([
      "order_type is not one of ekart's credentials (client_id, username, password)",
    ]);
    expect((await remove(own.apiKey, 'shadowfax')).statusCode).toBe(200);
  });
});
