import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_TOKEN, type TestContext } from '../app.js';

// The routes, credentials and common values every test speaks: one name for each.

export const V1 = '/custom/api/v1';
export const AUTH_TOKEN = `${V1}/auth-token`;
export const STORES = `${V1}/client-stores`;
export const WAREHOUSE = `${V1}/warehouse`;
export const WAREHOUSES = `${V1}/warehouses`;
export const RATES = `${V1}/rates`;
export const SERVICEABILITY = `${V1}/serviceability`;
export const FORWARD_ORDER = `${V1}/forward-order`;
export const ASSIGN = `${V1}/forward-order-shipment`;
export const ORCHESTRATE = `${V1}/forward-order-orchestration`;
export const CANCEL = `${V1}/cancel-order`;
export const REVERSE_ORDER = `${V1}/reverse-order`;
export const REVERSE_ASSIGN = `${V1}/reverse-order-shipment`;
export const REVERSE_ORCHESTRATE = `${V1}/reverse-order-orchestration`;
export const SHIPMENTS = `${V1}/shipments`;
export const RETURNS = `${V1}/returns`;
export const EXCHANGE_ORDERS = `${V1}/exchange-orders`;
export const ORDER_TRACKING = `${V1}/order-tracking`;
export const META_STATUSES = `${V1}/meta/statuses`;
export const REPORTS = `${V1}/reports`;
export const TRACKING_EVENTS = '/carrier/v1/tracking-events';
export const CARRIER_TOKENS = '/admin/v1/carrier-tokens';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A well-formed UUID that no row will ever have. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const authed = (credential: string) => ({ authorization: credential });
export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A JSON POST carrying the given credential (and any other headers). */
export function post(
  ctx: TestContext,
  credential: string,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...authed(credential), ...headers },
    payload: payload as object,
  });
}

/** Logs in through POST /auth-token and returns the access token. */
export async function accessToken(ctx: Pick<TestContext, 'app'>, username: string, password: string): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json().token;
}
