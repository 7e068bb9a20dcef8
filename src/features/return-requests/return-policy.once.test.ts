import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { authed, STORES, UNKNOWN_ID } from '../../../test/kit/http.js';
import { createStore } from '../../../test/kit/stores.js';
import { RETURN_REASONS } from '../../domain/return-requests/return-reasons.js';
import { RETURN_POLICY_EXAMPLE } from './return-requests.examples.js';

// A store's return policy: read, set, replaced whole, and only by the store's own account.

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

const policyUrl = (storeId: string) => `${STORES}/${storeId}/return-policy`;
const read = (apiKey: string, storeId: string) =>
  ctx.app.inject({ method: 'GET', url: policyUrl(storeId), headers: authed(apiKey) });
const set = (apiKey: string, storeId: string, payload: object) =>
  ctx.app.inject({ method: 'PUT', url: policyUrl(storeId), headers: authed(apiKey), payload });

async function storeOfNewAccount() {
  const account = await ctx.createAccount();
  const store = await createStore(ctx, account.apiKey, { store_name: `brand-${account.id.slice(0, 8)}` });
  return { apiKey: account.apiKey, storeId: store.id };
}

describe("a store's return policy", () => {
  it('takes no requests until set, offering every reason', async () => {
    const { apiKey, storeId } = await storeOfNewAccount();
    const response = await read(apiKey, storeId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        store_id: storeId,
        window_days: 0,
        reasons: [...RETURN_REASONS],
        non_returnable_skus: [],
        non_returnable_categories: [],
        refund_deduction_percent: 0,
        return_shipping_fee: 0,
        refund_release: 'warehouse',
        store_credit: false,
        auto_rules: [],
        updated_at: null,
      },
    });
  });

  it('is set whole, answered as set, and read back; a second PUT replaces every part', async () => {
    const { apiKey, storeId } = await storeOfNewAccount();
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    const saved = await set(apiKey, storeId, RETURN_POLICY_EXAMPLE);
    expect(saved.statusCode).toBe(200);
    const expected = {
      store_id: storeId,
      auto_rules: [],
      ...RETURN_POLICY_EXAMPLE,
      updated_at: '2026-11-20T06:30:00.000Z',
    };
    expect(saved.json()).toEqual({ data: expected });
    expect((await read(apiKey, storeId)).json()).toEqual({ data: expected });

    ctx.clock.set('2026-11-21T09:00:00.000Z');
    const replaced = { window_days: 0, reasons: ['damaged'], non_returnable_skus: [], non_returnable_categories: [] };
    expect((await set(apiKey, storeId, replaced)).statusCode).toBe(200);
    // The refund terms left out return to their defaults.
    expect((await read(apiKey, storeId)).json()).toEqual({
      data: {
        store_id: storeId,
        ...replaced,
        refund_deduction_percent: 0,
        return_shipping_fee: 0,
        refund_release: 'warehouse',
        store_credit: false,
        auto_rules: [],
        updated_at: '2026-11-21T09:00:00.000Z',
      },
    });
  });

  it('keeps SKUs and categories without surrounding spaces, each once', async () => {
    const { apiKey, storeId } = await storeOfNewAccount();
    const saved = await set(apiKey, storeId, {
      ...RETURN_POLICY_EXAMPLE,
      non_returnable_skus: [' SOCKS-3PK', 'SOCKS-3PK '],
      non_returnable_categories: ['Innerwear '],
    });
    expect(saved.json().data).toMatchObject({
      non_returnable_skus: ['SOCKS-3PK'],
      non_returnable_categories: ['Innerwear'],
    });
  });

  it("is each store's own: another store of the account keeps the defaults", async () => {
    const { apiKey, storeId } = await storeOfNewAccount();
    const other = await createStore(ctx, apiKey, { store_name: `second-${storeId.slice(0, 8)}` });
    expect((await set(apiKey, storeId, RETURN_POLICY_EXAMPLE)).statusCode).toBe(200);
    expect((await read(apiKey, other.id)).json().data).toMatchObject({ window_days: 0, updated_at: null });
  });

  it("answers 404 for another account's store and an unknown one, and changes nothing", async () => {
    const owner = await storeOfNewAccount();
    const stranger = await storeOfNewAccount();
    for (const storeId of [owner.storeId, UNKNOWN_ID]) {
      for (const response of [
        await read(stranger.apiKey, storeId),
        await set(stranger.apiKey, storeId, RETURN_POLICY_EXAMPLE),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 'store_not_found' });
      }
    }
    expect((await read(owner.apiKey, owner.storeId)).json().data).toMatchObject({ window_days: 0, updated_at: null });
  });
});
