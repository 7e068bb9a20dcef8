import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { DELHIVERY_AIR, DELHIVERY_SURFACE, DTDC, ratesWith, SHADOWFAX } from '../../test/kit/couriers.js';
import { authed, V1 } from '../../test/kit/http.js';
import { orchestrate, orderBody } from '../../test/kit/orders.js';
import { createWarehouse } from '../../test/kit/warehouses.js';
import { type DelhiverySimulator, SIM_TOKEN, startDelhiverySimulator } from '../demo/simulators/delhivery-simulator.js';
import { createHealthRecorder } from './connector-health.js';

const CONNECTIONS = `${V1}/courier-connections`;
const TRACK = '/api/v1/packages/json';
const NO_HEALTH = { last_success_at: null, last_error_at: null, last_error: null, token_expires_at: null };

describe('GET /courier-connections: connectors, credentials and health', () => {
  let sim: DelhiverySimulator;
  let ctx: TestContext;
  let apiKey: string;
  let warehouseId: string;

  const connections = async () => {
    const response = await ctx.app.inject({ method: 'GET', url: CONNECTIONS, headers: authed(apiKey) });
    expect(response.statusCode).toBe(200);
    return new Map(
      (response.json().data as { carrier_id: string; health: unknown }[]).map((row) => [row.carrier_id, row]),
    );
  };

  beforeAll(async () => {
    sim = await startDelhiverySimulator();
    ctx = await createTestApp({
      rates: ratesWith({ [DELHIVERY_SURFACE]: 'delhivery', [DELHIVERY_AIR]: 'delhivery', [DTDC]: 'sandbox' }),
      settings: {
        couriers: {
          delhivery: { token: SIM_TOKEN, baseUrl: sim.baseUrl },
          timeoutMs: 500,
          pollSeconds: 60,
        },
      },
    });
    ({ apiKey } = await ctx.createAccount());
    warehouseId = await createWarehouse(ctx, apiKey);
  });
  afterAll(async () => {
    await ctx?.close();
    await sim?.close();
  });

  it('lists every service with its connector and credentials, and no health before any call', async () => {
    const rows = await connections();
    expect(rows.size).toBe(13);
    expect(rows.get(DELHIVERY_SURFACE)).toEqual({
      carrier_id: DELHIVERY_SURFACE,
      name: 'Delhivery Surface',
      code: 'delhivery-surface',
      service_level: 'surface',
      connector: 'delhivery',
      credentials: 'configured',
      credentials_updated_at: null,
      test_bookings: false,
      health: NO_HEALTH,
      kept_scans: 0,
    });
    expect(rows.get(DTDC)).toMatchObject({
      connector: 'sandbox',
      credentials: 'not_needed',
      test_bookings: true,
      health: NO_HEALTH,
    });
    // The test catalogue gives push services an allotted series: real AWBs, and no calls to watch.
    expect(rows.get(SHADOWFAX)).toMatchObject({
      connector: 'push',
      credentials: 'not_needed',
      test_bookings: false,
      health: null,
    });
  });

  it("records Delhivery's answered call, then a failed one, shared by its services; the sandbox's bookings", async () => {
    const booked = ctx.clock.now().toISOString();
    const shipment = await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DELHIVERY_SURFACE }));
    expect(shipment.awb_code).toMatch(/^\d+$/);
    await orchestrate(ctx, apiKey, orderBody(warehouseId, { carrier_id: DTDC }));
    let rows = await connections();
    expect(rows.get(DELHIVERY_SURFACE)!).toMatchObject({ health: { ...NO_HEALTH, last_success_at: booked } });
    expect(rows.get(DELHIVERY_AIR)!).toMatchObject({ health: { ...NO_HEALTH, last_success_at: booked } });
    expect(rows.get(DTDC)!).toMatchObject({ health: { ...NO_HEALTH, last_success_at: booked } });

    ctx.clock.advance(5 * 60_000);
    const failed = ctx.clock.now().toISOString();
    sim.failNext(TRACK, '500');
    await ctx.app.courierPoller.runOnce();
    rows = await connections();
    expect(rows.get(DELHIVERY_SURFACE)!.health).toEqual({
      last_success_at: booked,
      last_error_at: failed,
      last_error: 'HTTP 500',
      token_expires_at: null,
    });

    // The next poll is answered: the success is newer, the failure stays as the latest one.
    ctx.clock.advance(10 * 60_000);
    const answered = ctx.clock.now().toISOString();
    await ctx.app.courierPoller.runOnce();
    rows = await connections();
    expect(rows.get(DELHIVERY_SURFACE)!.health).toEqual({
      last_success_at: answered,
      last_error_at: failed,
      last_error: 'HTTP 500',
      token_expires_at: null,
    });
  });

  it('merges the reports of several processes: the latest success and the latest error win, a token expiry is kept', async () => {
    const at = (iso: string) => ({ now: () => new Date(iso) });
    const early = createHealthRecorder({ db: ctx.database.db, clock: at('2026-11-21T01:00:00.000Z') });
    const late = createHealthRecorder({ db: ctx.database.db, clock: at('2026-11-21T02:00:00.000Z') });
    late.reporter('ekart').failure('no answer within 10000 ms');
    late.reporter('ekart').tokenExpiry(new Date('2026-11-22T00:00:00.000Z'));
    await late.flush();
    early.reporter('ekart').success();
    early.reporter('ekart').failure('HTTP 502');
    await early.flush();
    late.reporter('ekart').success();
    const records = await late.read();
    expect(records.get('ekart')).toMatchObject({
      lastSuccessAt: new Date('2026-11-21T02:00:00.000Z'),
      lastErrorAt: new Date('2026-11-21T02:00:00.000Z'),
      lastError: 'no answer within 10000 ms',
      tokenExpiresAt: new Date('2026-11-22T00:00:00.000Z'),
    });
  });

  it('needs a credential', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: CONNECTIONS });
    expect(response.statusCode).toBe(401);
  });
});
