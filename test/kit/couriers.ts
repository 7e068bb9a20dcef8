import { expect } from 'vitest';
import { createTestApp, PUSH_RATES, type TestContext } from '../app.js';
import { createWarehouse } from './warehouses.js';
import { ORCHESTRATE, post } from './http.js';
import { type CourierSettings, DEFAULT_SCENARIO_BY_DIGIT } from '../../src/couriers/couriers.settings.js';
import { withConnectors } from '../../src/couriers/with-connectors.js';
import { EKART_CLIENT, EKART_PASSWORD, EKART_USER } from '../../src/demo/simulators/ekart-simulator.js';
import { defaultRatesContext } from '../../src/data-files.js';
import type { ConnectorName } from '../../src/domain/rates/catalogue.js';

/** Courier services from data/couriers.json (their AWBs start SFX, DLS, DLA, BDA and DTS). */
export const SHADOWFAX = 'CARSHFXSTD001';
export const DELHIVERY_SURFACE = 'CARDELHSURF01';
export const DELHIVERY_AIR = 'CARDELHAIR001';
export const BLUEDART_AIR = 'CARBLDTAIR001';
export const DTDC = 'CARDTDCSTD001';
export const EKART = 'CAREKRTSTD001';
export const XPRESSBEES = 'CARXPBSSTD001';

/** The services that quality-check returns at pickup (Delhivery Surface and Air, Shadowfax). */
export const QC_CAPABLE = ['CARDELHSURF01', 'CARDELHAIR001', 'CARSHFXSTD001'];

/** The three letters that start a service's AWBs, as the shipped catalogue has them. */
export const awbPrefixOf = (carrierId: string) => defaultRatesContext().catalogue.byId.get(carrierId)!.awbPrefix;

/** The shipped data with the named services on other connectors (the rest stay push). */
export const ratesWith = (connectors: Record<string, ConnectorName>) =>
  withConnectors(PUSH_RATES, (service) => connectors[service.id] ?? service.connector);

/** Every shipped service on the sandbox, as the demo runs. */
export const sandboxRates = () => withConnectors(defaultRatesContext(), () => 'sandbox');

/** An app whose every service books with the sandbox courier (scans `stepSeconds` apart, polled each 30 s), an account and its warehouse. */
export async function sandboxMerchant(
  stepSeconds: number,
): Promise<{ ctx: TestContext; apiKey: string; warehouseId: string }> {
  const ctx = await createTestApp({
    rates: sandboxRates(),
    settings: { couriers: { pollSeconds: 30, sandbox: { stepSeconds, scenarioByDigit: DEFAULT_SCENARIO_BY_DIGIT } } },
  });
  const { apiKey } = await ctx.createAccount();
  return { ctx, apiKey, warehouseId: await createWarehouse(ctx, apiKey) };
}

/**
 * The Ekart connector on a local simulator's address, with the simulator's credentials. Courier calls
 * get 2 s: each Ekart booking asks a token and two serviceability reads first, and a loaded
 * machine answering one of them after 500 ms made a time-out, a retry and a second token.
 */
export function ekartSettings(baseUrl: string, overrides: Partial<CourierSettings> = {}): Partial<CourierSettings> {
  return {
    ekart: { clientId: EKART_CLIENT, username: EKART_USER, password: EKART_PASSWORD, baseUrl },
    timeoutMs: 2000,
    pollSeconds: 60,
    ...overrides,
  };
}

/**
 * Books orders (each with an Idempotency-Key of its own) until one is not booked: the courier's
 * rate limit, once a test has lowered it. Answers that order, its headers and the answer.
 */
export async function bookUntilRefused(
  ctx: TestContext,
  apiKey: string,
  order: () => Record<string, unknown>,
  most = 10,
) {
  for (let booked = 0; booked < most; booked++) {
    const body = order();
    const headers = { 'idempotency-key': `over-the-limit-${crypto.randomUUID()}` };
    const response = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    if (response.statusCode !== 200) return { body, headers, response, booked };
  }
  throw new Error(`${most} orders booked and none refused`);
}

/**
 * The rate-limit case every connector's tests share, once a test has lowered its simulator's limit
 * to a 60 s window: orders are booked until the courier refuses one; Dakiya answers 503 with the
 * courier's Retry-After, calls the courier no more until then (`requests` counts its calls), and
 * after it books the refused order, retried with its Idempotency-Key, once: `awbsAtCourier` lists
 * the AWBs the courier holds for a shipment id. `onRefused` looks at the simulator at the refusal.
 */
export async function expectThrottledThenBookedOnce(
  ctx: TestContext,
  apiKey: string,
  courier: {
    name: string;
    order: () => Record<string, unknown>;
    requests: () => number;
    awbsAtCourier: (shipmentId: string) => string[];
    onRefused?: () => void;
  },
) {
  const { body, headers, response } = await bookUntilRefused(ctx, apiKey, courier.order);
  expect(response.statusCode).toBe(503);
  expect(response.json().message).toBe(
    `${courier.name} could not be reached (it is limiting our requests); nothing was changed, try again`,
  );
  expect(response.headers['retry-after']).toBe('60');
  courier.onRefused?.();
  const calls = courier.requests();
  const paused = await post(ctx, apiKey, ORCHESTRATE, body, headers);
  expect(paused.statusCode).toBe(503);
  expect(paused.headers['retry-after']).toBe('60');
  expect(courier.requests()).toBe(calls);
  ctx.clock.advance(60_000);
  const retried = await post(ctx, apiKey, ORCHESTRATE, body, headers);
  expect(retried.statusCode, retried.body).toBe(200);
  const { shipment_id: shipmentId, awb_code: awb } = retried.json().payload;
  expect(courier.awbsAtCourier(shipmentId)).toEqual([awb]);
}
