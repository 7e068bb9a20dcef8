import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { StoreView } from '../../src/tenancy/stores/stores.service.js';
import type { TestContext } from '../app.js';
import { authed, STORES } from './http.js';

export type StoreBody = StoreView;

export async function createStore(
  ctx: TestContext,
  apiKey: string,
  body: {
    store_name: string;
    brand_name?: string;
    logo?: string;
    support_email?: string;
    support_phone?: string;
    notify_events?: string[];
    language?: string;
  },
): Promise<StoreBody> {
  const response = await ctx.app.inject({ method: 'POST', url: STORES, headers: authed(apiKey), payload: body });
  if (response.statusCode !== 201) throw new Error(`store creation failed: ${response.statusCode} ${response.body}`);
  return response.json().data;
}

export async function getStore(ctx: TestContext, apiKey: string, id: string): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url: `${STORES}/${id}`, headers: authed(apiKey) });
}

export async function listStores(ctx: TestContext, apiKey: string): Promise<StoreBody[]> {
  const response = await ctx.app.inject({ method: 'GET', url: STORES, headers: authed(apiKey) });
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

/** The path and query of an absolute logo_url, for app.inject. */
export function logoPath(logoUrl: string): string {
  const url = new URL(logoUrl);
  return url.pathname + url.search;
}
