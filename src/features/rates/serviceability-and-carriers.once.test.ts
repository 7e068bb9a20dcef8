import { describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { authed, SERVICEABILITY, V1 } from '../../../test/kit/http.js';
import { ALL_IDS, meta, MISSING, useRatesApp } from '../../../test/rates-quotes.js';

const CARRIERS = `${V1}/carriers`;

let ctx: TestContext;
let apiKey: string;
const { post } = useRatesApp((app, account) => {
  ctx = app;
  apiKey = account.apiKey;
});

describe('POST /serviceability', () => {
  const check = async (body: object) => {
    const response = await post(SERVICEABILITY, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const names = (...list: string[]) => list.map((id) => ({ carrier_id: id, carrier_name: meta(id)[0] }));

  it('answers the Velocity shape, services in catalogue order, with zone_x', async () => {
    expect(await check({ from: '110001', to: '744101', payment_mode: 'prepaid', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: names(
          'CARDELHSURF01',
          'CARDELHAIR001',
          'CARDTDCSTD001',
          'CARBLDTAIR001',
          'CARINPOSPD001',
        ),
        zone: 'zone_e',
      },
    });
  });

  it.each(['COD', 'Cod', 'cOd'])('takes payment_mode %j as cod, as orders take it', async (mode) => {
    expect(await check({ from: '110001', to: '744101', payment_mode: mode, shipment_type: 'forward' })).toEqual(
      await check({ from: '110001', to: '744101', payment_mode: 'cod', shipment_type: 'forward' }),
    );
  });

  it.each(['PREPAID', 'Prepaid'])('takes payment_mode %j as prepaid', async (mode) => {
    expect(await check({ from: '110001', to: '744101', payment_mode: mode, shipment_type: 'forward' })).toEqual(
      await check({ from: '110001', to: '744101', payment_mode: 'prepaid', shipment_type: 'forward' }),
    );
  });

  it('leaves out services without COD on the lane for forward COD, but not for returns', async () => {
    expect(await check({ from: '110001', to: '744101', payment_mode: 'cod', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: { serviceability_results: names('CARINPOSPD001'), zone: 'zone_e' },
    });
    expect(await check({ from: '110001', to: '744101', payment_mode: 'cod', shipment_type: 'return' })).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: names(
          'CARDELHSURF01',
          'CARDELHAIR001',
          'CARDTDCSTD001',
          'CARBLDTAIR001',
          'CARINPOSPD001',
        ),
        zone: 'zone_e',
      },
    });
    // Srinagar: every service that serves J&K, less those without COD there (weight is not asked).
    expect(await check({ from: '110001', to: '190001', payment_mode: 'cod', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: {
        serviceability_results: names(
          'CARDELHSURF01',
          'CARDELHAIR001',
          'CARDELH5KG001',
          'CARDELH10KG01',
          'CARDTDCSTD001',
          'CARBLDTAIR001',
          'CARBLDTSURF01',
          'CARINPOSPD001',
        ),
        zone: 'zone_e',
      },
    });
  });

  it('lists every catalogue service on a lane they all serve, and none for an APS pincode', async () => {
    expect(await check({ from: '400001', to: '400050', payment_mode: 'cod', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: { serviceability_results: names(...ALL_IDS), zone: 'zone_a' },
    });
    expect(await check({ from: 110001, to: '900099', payment_mode: 'prepaid', shipment_type: 'forward' })).toEqual({
      status: 'SUCCESS',
      result: { serviceability_results: [], zone: 'zone_c' },
    });
  });

  it.each([
    [
      { from: '11000', to: '400001', payment_mode: 'cod', shipment_type: 'forward' },
      'from',
      'from must be a 6-digit Indian pincode',
    ],
    [
      { from: '110001', to: '999999', payment_mode: 'cod', shipment_type: 'forward' },
      'to',
      'to 999999 is not a pincode in the directory',
    ],
    [
      { from: '000000', to: '400001', payment_mode: 'cod', shipment_type: 'forward' },
      'from',
      'from 000000 is not a pincode in the directory',
    ],
    [
      { from: '110001', to: '400001', payment_mode: 'card', shipment_type: 'forward' },
      'payment_mode',
      'payment_mode must be "cod" or "prepaid"',
    ],
    [
      { from: '110001', to: '400001', payment_mode: 'cod', shipment_type: 'rto' },
      'shipment_type',
      'shipment_type must be "forward" or "return"',
    ],
    [{ from: '110001', to: '400001', payment_mode: 'cod' }, 'shipment_type', 'shipment_type is required'],
    [
      { from: '110001', to: '400001', payment_mode: true, shipment_type: 'forward' },
      'payment_mode',
      'payment_mode must be "cod" or "prepaid"',
    ],
    [
      { from: '110001.0', to: '400001', payment_mode: 'cod', shipment_type: 'forward' },
      'from',
      'from must be a 6-digit Indian pincode',
    ],
  ])('400 for %j: %s', async (body, field, message) => {
    const response = await post(SERVICEABILITY, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field, message }],
    });
  });

  it('ignores a field it does not know (weight), naming it in Dakiya-Ignored-Fields and warnings: the same answer', async () => {
    const plain = { from: '110001', to: '190001', payment_mode: 'cod', shipment_type: 'forward' };
    const expected = await post(SERVICEABILITY, plain);
    expect(expected.statusCode).toBe(200);
    expect(expected.headers['dakiya-ignored-fields']).toBeUndefined();
    const response = await post(SERVICEABILITY, { ...plain, weight: 1 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...expected.json(),
      warnings: [{ field: 'weight', message: 'weight is not a field of this request and was ignored' }],
    });
    expect(response.headers['dakiya-ignored-fields']).toBe('weight');
  });

  it('401 without a credential', async () => {
    const response = await post(
      SERVICEABILITY,
      { from: '110001', to: '400001', payment_mode: 'cod', shipment_type: 'forward' },
      null,
    );
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'missing_credential', message: MISSING, errors: [MISSING] });
  });
});

describe('GET /carriers', () => {
  it('lists every catalogue service with id, name, code, service level and flags', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: CARRIERS, headers: authed(`Bearer ${apiKey}`) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: ALL_IDS.map((id) => {
        const [name, code, level, fast, prime] = meta(id);
        return {
          carrier_id: id,
          carrier_name: name,
          carrier_code: code,
          service_level: level,
          is_fast: fast,
          is_prime: prime,
        };
      }),
    });
    expect(response.json().data).toHaveLength(13);
  });

  it('401 without a credential', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: CARRIERS });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'missing_credential', message: MISSING, errors: [MISSING] });
  });
});

describe('GET /pincodes/:pincode', () => {
  const lookup = (pincode: string, credential = `Bearer ${apiKey}`) =>
    ctx.app.inject({ method: 'GET', url: `${V1}/pincodes/${pincode}`, headers: authed(credential) });

  it("answers the directory's district and state, and the city addresses write (not always the district)", async () => {
    const response = await lookup('560034');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      pincode: '560034',
      city: 'Bengaluru',
      district: 'Bengaluru Urban',
      state: 'Karnataka',
    });
    expect((await lookup('110020')).json()).toEqual({
      pincode: '110020',
      city: 'Delhi',
      district: 'South East',
      state: 'Delhi',
    });
  });

  it('404 for a pincode the directory does not have, and for one that cannot exist (as for every path id)', async () => {
    const unknown = await lookup('999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      code: 'pincode_not_found',
      message: 'Pincode 999999 is not in the pincode directory',
      errors: ['Pincode 999999 is not in the pincode directory'],
    });
    const malformed = await lookup('01234x');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toEqual({
      code: 'not_found',
      message: 'Pincode not found',
      errors: ['Pincode not found'],
    });
  });

  it('401 without a credential', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${V1}/pincodes/560034` });
    expect(response.statusCode).toBe(401);
  });
});
