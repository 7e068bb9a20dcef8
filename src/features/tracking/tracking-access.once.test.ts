import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestContext } from '../../../test/app.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import {
  admin,
  authed,
  CANCEL,
  CARRIER_TOKENS,
  META_STATUSES,
  ORDER_TRACKING,
  SHIPMENTS,
  STORES,
  TRACKING_EVENTS,
} from '../../../test/kit/http.js';
import { merchantWithShipments } from '../../../test/kit/orders.js';
import { list } from '../../../test/kit/shipments.js';
import { at, issueCarrierToken } from '../../../test/kit/tracking.js';
import { queryRows } from '../../base/db/client.js';
import { hashCredential } from '../../tenancy/accounts/credentials.js';

let ctx: TestContext;
let shadowfaxToken: string;
beforeAll(async () => {
  ctx = await createTestApp();
  shadowfaxToken = await issueCarrierToken(ctx, SHADOWFAX);
});
afterAll(async () => {
  await ctx.close();
});

/** An error answer: every error body repeats its first error as `message`. */
const errorBody = (code: string, message: string) => ({ code, message, errors: [message] });

describe('carrier tokens (POST /admin/v1/carrier-tokens)', () => {
  it('issues a token for a courier service: 201 {token, carrier_id}, stored only as a hash', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: CARRIER_TOKENS,
      headers: admin,
      payload: { carrier_id: DELHIVERY_SURFACE },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['carrier_id', 'token']);
    expect(body.carrier_id).toBe(DELHIVERY_SURFACE);
    expect(body.token).toMatch(/^dkc_[A-Za-z0-9_-]{43}$/);
    const rows = await queryRows<{ carrier_id: string; token_hash: string }>(
      ctx.database.db,
      sql`select carrier_id, token_hash from carrier_tokens where token_hash = ${hashCredential(body.token)}`,
    );
    expect(rows).toEqual([{ carrier_id: DELHIVERY_SURFACE, token_hash: hashCredential(body.token) }]);
    const clear = await queryRows(ctx.database.db, sql`select 1 from carrier_tokens where token_hash = ${body.token}`);
    expect(clear).toEqual([]);
  });

  it('refuses an unknown courier service with 422', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: CARRIER_TOKENS,
      headers: admin,
      payload: { carrier_id: 'CARNOPE000001' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      code: 'courier_service_unknown',
      message: "carrier_id 'CARNOPE000001' is not a known courier service",
      errors: ["carrier_id 'CARNOPE000001' is not a known courier service"],
      details: [{ field: 'carrier_id', message: "carrier_id 'CARNOPE000001' is not a known courier service" }],
    });
  });

  it('needs the operator token (401 without it, or with an account key)', async () => {
    const account = await ctx.createAccount();
    for (const headers of [
      {},
      authed(account.apiKey),
      { authorization: `Bearer ${account.apiKey}` },
      { authorization: 'Bearer wrong-admin-token' },
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: CARRIER_TOKENS,
        headers,
        payload: { carrier_id: SHADOWFAX },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(
        errorBody('invalid_operator_token', 'Operator routes need "Authorization: Bearer <ADMIN_TOKEN>"'),
      );
    }
  });

  it('refuses a body without carrier_id, or with other fields, with 400', async () => {
    const missing = await ctx.app.inject({ method: 'POST', url: CARRIER_TOKENS, headers: admin, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual(['carrier_id is required']);
    const extra = await ctx.app.inject({
      method: 'POST',
      url: CARRIER_TOKENS,
      headers: admin,
      payload: { carrier_id: SHADOWFAX, account_id: 'x' },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors).toEqual(['account_id is not a known field']);
  });
});

describe('who may call what', () => {
  it('refuses an account API key (bare or Bearer) on /carrier/v1 with 401', async () => {
    const { apiKey, awbs } = await merchantWithShipments(ctx);
    for (const authorization of [apiKey, `Bearer ${apiKey}`, `Bearer ${ADMIN_TOKEN}`]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: TRACKING_EVENTS,
        headers: { authorization },
        payload: { events: [{ awb: awbs[0], status: 'in_transit', event_time: at(1) }] },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(errorBody('invalid_carrier_token', 'Invalid or revoked carrier token'));
      expect(response.headers['www-authenticate']).toBe('Bearer realm="dakiya-carrier", error="invalid_token"');
    }
    const none = await ctx.app.inject({ method: 'POST', url: TRACKING_EVENTS, payload: { events: [] } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(
      errorBody('missing_credential', 'Missing Authorization header: send "Authorization: Bearer <carrier token>"'),
    );
    expect(none.headers['www-authenticate']).toBe('Bearer realm="dakiya-carrier"');
    // curl -u on the courier's routes: the answer says what to send instead.
    for (const url of [TRACKING_EVENTS, '/carrier/v1/actions']) {
      const basic = await ctx.app.inject({
        method: url === TRACKING_EVENTS ? 'POST' : 'GET',
        url,
        headers: { authorization: 'Basic Y291cmllcjpzZWNyZXQ=' },
        payload: url === TRACKING_EVENTS ? { events: [] } : undefined,
      });
      expect(basic.statusCode).toBe(401);
      expect(basic.json()).toEqual(
        errorBody(
          'basic_auth_not_accepted',
          'HTTP Basic authentication is not accepted: send "Authorization: Bearer <carrier token>" (the operator issues carrier tokens)',
        ),
      );
      expect(basic.headers['www-authenticate']).toBe('Bearer realm="dakiya-carrier"');
    }
    expect((await list(ctx, apiKey)).data[0]!.attributes.status).toBe('pending');
  });

  it('refuses a carrier token on every account route with 401', async () => {
    const requests = [
      { method: 'GET' as const, url: STORES },
      { method: 'POST' as const, url: SHIPMENTS, payload: {} },
      { method: 'POST' as const, url: ORDER_TRACKING, payload: { awbs: ['SFX0000000001'] } },
      { method: 'GET' as const, url: META_STATUSES },
      { method: 'POST' as const, url: CANCEL, payload: { awbs: ['SFX0000000001'] } },
    ];
    for (const request of requests) {
      for (const authorization of [shadowfaxToken, `Bearer ${shadowfaxToken}`]) {
        const response = await ctx.app.inject({ ...request, headers: { authorization } });
        expect({ url: request.url, status: response.statusCode }).toEqual({ url: request.url, status: 401 });
        expect(response.json()).toEqual(errorBody('invalid_credential', 'Invalid, revoked or expired credential'));
      }
    }
  });

  it('refuses a carrier token on the operator routes with 401', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: CARRIER_TOKENS,
      headers: { authorization: `Bearer ${shadowfaxToken}` },
      payload: { carrier_id: SHADOWFAX },
    });
    expect(response.statusCode).toBe(401);
  });
});
