import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { queryRows } from '../src/base/db/client.js';
import type { Database } from '../src/base/db/client.js';
import { ADMIN_TOKEN, type TestContext } from './app.js';
import type { StoreView } from '../src/tenancy/stores/stores.service.js';

export const STORES = '/custom/api/v1/client-stores';
export const AUTH_TOKEN = '/custom/api/v1/auth-token';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A well-formed UUID that no row will ever have. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

export const HOUR = 60 * 60 * 1000;

export const authed = (credential: string) => ({ authorization: credential });
export const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// --- Images: the smallest byte sequences the logo sniffer accepts, padded to any size. ---

function padded(head: Buffer, size: number, fill: number, tail = Buffer.alloc(0)): Buffer {
  const padding = Math.max(0, size - head.length - tail.length);
  return Buffer.concat([head, Buffer.alloc(padding, fill), tail]);
}

/** PNG signature and an IHDR chunk (1×1 RGBA); `fill` makes images of one size differ. */
export function png(size = 64, fill = 0): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    ihdr,
    Buffer.from([0x1f, 0x15, 0xc4, 0x89]),
  ]);
  return padded(head, size, fill);
}

/** SOI, an APP0 marker, padding, EOI. */
export function jpeg(size = 64, fill = 0): Buffer {
  return padded(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), size, fill, Buffer.from([0xff, 0xd9]));
}

/** GIF89a header and logical screen descriptor. */
export function gif(size = 64, fill = 0): Buffer {
  return padded(Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0])]), size, fill);
}

/** RIFF/WEBP container with a VP8, VP8L or VP8X chunk header. */
export function webp(size = 64, fill = 0, chunk: 'VP8 ' | 'VP8L' | 'VP8X' = 'VP8 '): Buffer {
  const riffSize = Buffer.alloc(4);
  riffSize.writeUInt32LE(Math.max(size, 20) - 8);
  return padded(Buffer.concat([Buffer.from('RIFF'), riffSize, Buffer.from('WEBP'), Buffer.from(chunk), Buffer.alloc(4)]), size, fill);
}

export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');

// --- multipart/form-data, built by hand so tests control every byte. ---

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

export const BOUNDARY = '----dakiya-test-boundary-7MA4YWxkTrZu0gW';

export function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType === undefined ? '' : `\r\nContent-Type: ${part.contentType}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** Inject options (content type and body) for a multipart request. */
export function formData(parts: Part[]) {
  return { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload: multipartBody(parts) };
}

/** Inject options for a multipart request carrying the given credential. */
export function multipart(credential: string, parts: Part[]) {
  const request = formData(parts);
  return { ...request, headers: { ...request.headers, ...authed(credential) } };
}

export const logoPart = (bytes: Buffer, filename = 'logo.png', contentType = 'image/png'): Part => ({
  name: 'logo',
  value: bytes,
  filename,
  contentType,
});

// --- Database inspection, for "and nothing changed". ---

export async function countRows(database: Database, table: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return Number(row!.n);
}

/** Every row a store request could touch, in a stable order and comparable form. */
export async function snapshot(database: Database) {
  const db = database.db;
  return {
    accounts: await queryRows(db, sql`select id, name, username from accounts order by id`),
    apiKeys: await queryRows(db, sql`select id, account_id, prefix, revoked_at from api_keys order by id`),
    accessTokens: await queryRows(db, sql`select id, account_id, expires_at from access_tokens order by id`),
    stores: await queryRows(db, sql`select * from stores order by id`),
    storeLogos: await queryRows(
      db,
      sql`select store_id, account_id, content_type, sha256, md5(bytes) as bytes_md5 from store_logos order by store_id`,
    ),
  };
}

/** Runs a request and checks it left every table exactly as it was; returns the response. */
export async function expectUnchanged(
  database: Database,
  request: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  const before = await snapshot(database);
  const response = await request();
  expect(await snapshot(database)).toEqual(before);
  return response;
}

// --- Shortcuts through the API. ---

export type StoreBody = StoreView;

export async function createStore(
  ctx: TestContext,
  apiKey: string,
  body: { store_name: string; brand_name?: string; logo?: string; support_email?: string; support_phone?: string; notify_events?: string[] },
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

/** Logs in through POST /auth-token and returns the access token. */
export async function accessToken(ctx: Pick<TestContext, 'app'>, username: string, password: string): Promise<string> {
  const response = await ctx.app.inject({ method: 'POST', url: AUTH_TOKEN, payload: { username, password } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return response.json().token;
}

/** The path and query of an absolute logo_url, for app.inject. */
export function logoPath(logoUrl: string): string {
  const url = new URL(logoUrl);
  return url.pathname + url.search;
}
