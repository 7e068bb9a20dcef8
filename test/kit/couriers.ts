import { PUSH_RATES, type TestContext } from '../app.js';
import { ORCHESTRATE, post } from './http.js';
import { type CourierSettings, DEFAULT_COURIER_SETTINGS } from '../../src/base/config.js';
import { withConnectors } from '../../src/couriers/with-connectors.js';
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

export function courierSettings(overrides: Partial<CourierSettings> = {}): CourierSettings {
  return { ...DEFAULT_COURIER_SETTINGS, ...overrides };
}

/**
 * Books orders (each with an Idempotency-Key of its own) until one is not booked: the courier's
 * rate limit, once a test has lowered it. Answers that order, its headers and the answer.
 */
export async function bookUntilRefused(ctx: TestContext, apiKey: string, order: () => Record<string, unknown>, most = 10) {
  for (let booked = 0; booked < most; booked++) {
    const body = order();
    const headers = { 'idempotency-key': `over-the-limit-${crypto.randomUUID()}` };
    const response = await post(ctx, apiKey, ORCHESTRATE, body, headers);
    if (response.statusCode !== 200) return { body, headers, response, booked };
  }
  throw new Error(`${most} orders booked and none refused`);
}
