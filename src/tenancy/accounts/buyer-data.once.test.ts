import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authed, SHIPMENTS, V1 } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { inviteAndJoin } from '../../../test/kit/members.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { PERMISSION_NAMES } from '../../domain/access/permissions.js';

// Buyers' details (issue 51): a credential without buyers:read gets every answer with names,
// phones, e-mails and street addresses masked, is refused a search by phone or e-mail and the
// answers that print them (labels, a refund's payee); one with it sees them whole. Once: the hook
// masks what the routes answer, whichever engine they read it from (openapi-examples.once checks
// every documented read answer the same way).

let ctx: TestContext;
let owner: { id: string; apiKey: string };
let masked: string;
let booked: { shipment_id: string; awb_code: string | null };

const permissionDenied = (message: string, field: string) => ({
  code: 'permission_denied',
  message,
  errors: [message],
  details: [{ field, message }],
});

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await ctx.createAccount('Buyer Data');
  const warehouseId = await createCityWarehouse(ctx, owner.apiKey, 'delhi');
  booked = await orchestrate(
    ctx,
    owner.apiKey,
    orderBody(warehouseId, {
      order_id: 'BUYER-1',
      billing_customer_name: 'Zorawar',
      billing_last_name: 'Dhillon',
      billing_address: '7 Lodhi Gardens Road',
      billing_email: 'zorawar.dhillon@example.in',
      billing_phone: '9812345670',
    }),
  );
  const key = await ctx.app.inject({
    method: 'POST',
    url: `${V1}/api-keys`,
    headers: authed(owner.apiKey),
    payload: { name: 'Finance export', scopes: PERMISSION_NAMES.filter((p) => p !== 'buyers:read') },
  });
  masked = key.json().data.api_key;
});
afterAll(async () => {
  await ctx?.close();
});

const list = (credential: string, body: object = {}) =>
  ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: authed(credential), payload: body });

describe("a buyer's details without buyers:read", () => {
  it('are masked in the listing: name, phone and street; city, state and pincode kept', async () => {
    const whole = (await list(owner.apiKey)).json().data[0].attributes.shipping_address;
    expect(whole).toEqual({
      name: 'Zorawar Dhillon',
      phone: '9812345670',
      alternate_phone: null,
      address: '7 Lodhi Gardens Road',
      address_2: null,
      city: 'Mumbai',
      state: 'Maharashtra',
      zip: '400001',
    });
    const answer = await list(masked);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data[0].attributes.shipping_address).toEqual({
      name: 'Z****** D******',
      phone: '98******70',
      alternate_phone: null,
      address: '7* L**** G****** R***',
      address_2: null,
      city: 'Mumbai',
      state: 'Maharashtra',
      zip: '400001',
    });
    expect(answer.body).not.toMatch(/Zorawar|Dhillon|9812345670|zorawar\.dhillon|Lodhi/);
    // The content length is the masked answer's, not the whole one's.
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  });

  it('refuses a search by phone or e-mail, naming the permission, and finds by AWB', async () => {
    const message = "Searching by a buyer's phone or e-mail needs the permission buyers:read";
    for (const search of ['9812345670', '+91 98123 45670', 'zorawar.dhillon@example.in', '@example.in']) {
      const refused = await list(masked, { search });
      expect([search, refused.statusCode, refused.json()]).toEqual([search, 403, permissionDenied(message, 'search')]);
    }
    const byAwb = await list(masked, { search: booked.awb_code! });
    expect([byAwb.statusCode, byAwb.json().meta.total, byAwb.json().data[0].attributes.tracking_number]).toEqual([
      200,
      1,
      booked.awb_code,
    ]);
    // With buyers:read the phone finds the shipment.
    const whole = await list(owner.apiKey, { search: '9812345670' });
    expect([whole.statusCode, whole.json().meta.total]).toEqual([200, 1]);
  });

  it("refuses the label, which prints them, and leaves no label's link in any answer", async () => {
    const url = `${V1}/shipments/${booked.shipment_id}/label`;
    const refused = await ctx.app.inject({ method: 'GET', url, headers: authed(masked) });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      permissionDenied(
        "This answer prints buyers' details: the credential lacks the permission buyers:read",
        'authorization',
      ),
    ]);
    const label = await ctx.app.inject({ method: 'GET', url, headers: authed(owner.apiKey) });
    expect([label.statusCode, typeof label.json().label_url]).toEqual([200, 'string']);
    // The listing's link to the label is the label: not given.
    const [whole, hidden] = [await list(owner.apiKey), await list(masked)];
    expect([whole.json().data[0].attributes.label_url, hidden.json().data[0].attributes.label_url]).toEqual([
      label.json().label_url,
      null,
    ]);
  });

  it("masks them in a viewer's panel session, and the operations role sees them", async () => {
    const sessionOf = async (role: string) => {
      const member = await inviteAndJoin(ctx, owner.apiKey, {
        email: `${role}@buyer-data.example`,
        role,
        password: 'buyer data password',
      });
      return member.headers;
    };
    const phoneFor = async (role: string) =>
      (await ctx.app.inject({ method: 'POST', url: SHIPMENTS, headers: await sessionOf(role), payload: {} })).json()
        .data[0].attributes.shipping_address.phone;
    expect([await phoneFor('viewer'), await phoneFor('finance'), await phoneFor('operations')]).toEqual([
      '98******70',
      '98******70',
      '9812345670',
    ]);
  });

  // Last: the migration's statements run over the whole database, this file's keys among them.
  it('is held by every key and role of the account made before it existed (migration 0062)', async () => {
    const { id } = await ctx.createAccount('Before Buyers');
    const db = ctx.database.db;
    const now = new Date().toISOString();
    // As the migration found them: a key with scopes, one without (all), a role of the account's own.
    await queryRows(
      db,
      sql`insert into api_keys (id, account_id, key_hash, prefix, scopes, created_at)
          values (gen_random_uuid(), ${id}, 'hash-scoped', 'dky_old1', '{shipments:read}', ${now}),
                 (gen_random_uuid(), ${id}, 'hash-all', 'dky_old2', null, ${now})`,
    );
    await queryRows(
      db,
      sql`insert into custom_roles (account_id, name, permissions, created_at, updated_at)
          values (${id}, 'packer', '{shipments:read,shipments:write}', ${now}, ${now})`,
    );
    const migration = readFileSync(new URL('../../../migrations/0062_buyers_read.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await queryRows(db, sql.raw(statement));
    // Twice: a second run adds nothing.
    for (const statement of migration.split('--> statement-breakpoint')) await queryRows(db, sql.raw(statement));
    const keys = await queryRows<{ prefix: string; scopes: string[] | null }>(
      db,
      sql`select prefix, scopes from api_keys where account_id = ${id} and prefix like 'dky_old%' order by prefix`,
    );
    const roles = await queryRows<{ permissions: string[] }>(
      db,
      sql`select permissions from custom_roles where account_id = ${id}`,
    );
    expect([keys, roles]).toEqual([
      [
        { prefix: 'dky_old1', scopes: ['shipments:read', 'buyers:read'] },
        { prefix: 'dky_old2', scopes: null },
      ],
      [{ permissions: ['shipments:read', 'shipments:write', 'buyers:read'] }],
    ]);
  });
});
