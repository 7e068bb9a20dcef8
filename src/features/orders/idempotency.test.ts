import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestContext } from '../../../test/app.js';
import { ASSIGN, CANCEL, FORWARD_ORDER, HOUR, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { orchestrate, orderBody } from '../../../test/kit/orders.js';
import { expectNothingWritten, orderCounts } from '../../../test/kit/rows.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { bodyHash, keyLease } from '../../http/idempotency.js';

const REPLAYED = 'idempotent-replayed';
const IN_PROGRESS = {
  code: 'idempotency_key_in_progress',
  message: 'A request with this Idempotency-Key is still in progress',
  errors: ['A request with this Idempotency-Key is still in progress'],
};
const engine = process.env.DAKIYA_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';
const DIFFERENT = {
  code: 'idempotency_key_reused',
  message: 'This Idempotency-Key was already used with a different request',
  errors: ['This Idempotency-Key was already used with a different request'],
};

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

let keyCounter = 0;
const newKey = () => `key-${process.pid}-${++keyCounter}`;
const withKey = (key: string) => ({ 'idempotency-key': key });

async function keyRows(accountId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select count(*)::int as n from idempotency_keys where account_id = ${accountId}`,
  );
  return Number(row!.n);
}

describe.each([FORWARD_ORDER, ORCHESTRATE])('Idempotency-Key on %s', (url) => {
  it('replays the first response (status and body) with Idempotent-Replayed: true, writing no second order', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId);
    const first = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(first.statusCode).toBe(200);
    expect(first.headers[REPLAYED]).toBeUndefined();

    ctx.clock.advance(HOUR);
    const replay = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, body, withKey(key)));
    expect(replay.statusCode).toBe(200);
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(replay.body).toBe(first.body);
  });

  it('treats the same fields in another key order as the same request', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId);
    const first = await post(ctx, m.apiKey, url, body, withKey(key));
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, reordered, withKey(key)));
    expect(replay.statusCode).toBe(200);
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.body).toBe(first.body);
  });

  it('replays a refusal too: the same 422 and body', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId, { store_name: 'no-such-store' });
    const first = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(first.statusCode).toBe(422);
    const replay = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(replay.statusCode).toBe(422);
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.body).toBe(first.body);
  });

  it('keeps a refusal raised by a failed statement (duplicate order_id): 422 replayed, nothing else written', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    expect((await post(ctx, m.apiKey, url, body)).statusCode).toBe(200);
    const key = newKey();
    const duplicate = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, body, withKey(key)));
    expect(duplicate.statusCode).toBe(422);
    const message = `Order '${body.order_id}' already exists`;
    expect(duplicate.json()).toEqual({
      code: 'order_id_taken',
      message,
      errors: [message],
      details: [{ field: 'order_id', message }],
    });
    expect(await keyRows(m.id)).toBe(1);
    const replay = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(replay.statusCode).toBe(422);
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.body).toBe(duplicate.body);
  });

  it('refuses the same key with a different body (422), writing nothing', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    expect((await post(ctx, m.apiKey, url, orderBody(m.warehouseId), withKey(key))).statusCode).toBe(200);
    const other = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, url, orderBody(m.warehouseId), withKey(key)),
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual(DIFFERENT);
    expect(other.headers[REPLAYED]).toBeUndefined();
  });

  it('keeps keys per account: another account using the same key gets its own order', async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const key = newKey();
    const body = { ...orderBody(a.warehouseId) };
    const first = await post(ctx, a.apiKey, url, body, withKey(key));
    const second = await post(ctx, b.apiKey, url, { ...body, warehouse_id: b.warehouseId }, withKey(key));
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.headers[REPLAYED]).toBeUndefined();
    expect(second.json().payload.order_id).not.toBe(first.json().payload.order_id);
    // And the same key and body from B once more replays B's answer, not A's.
    const replay = await post(ctx, b.apiKey, url, { ...body, warehouse_id: b.warehouseId }, withKey(key));
    expect(replay.body).toBe(second.body);
  });

  it('forgets a key after 24 hours: it then works as a new key', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const first = await post(ctx, m.apiKey, url, orderBody(m.warehouseId), withKey(key));
    expect(first.statusCode).toBe(200);

    ctx.clock.advance(24 * HOUR - 1000);
    const stillKept = await post(ctx, m.apiKey, url, orderBody(m.warehouseId), withKey(key));
    expect(stillKept.statusCode).toBe(422);
    expect(stillKept.json()).toEqual(DIFFERENT);

    ctx.clock.advance(1000);
    const before = await orderCounts(ctx.database);
    const fresh = await post(ctx, m.apiKey, url, orderBody(m.warehouseId), withKey(key));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers[REPLAYED]).toBeUndefined();
    expect(fresh.json().payload.order_id).not.toBe(first.json().payload.order_id);
    expect((await orderCounts(ctx.database)).orders).toBe(before.orders + 1);
    expect(await keyRows(m.id)).toBe(1);
  });

  it('does not keep a request refused by validation (400): the key stays free', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const bad = await post(ctx, m.apiKey, url, orderBody(m.warehouseId, { weight: 0 }), withKey(key));
    expect(bad.statusCode).toBe(400);
    expect(await keyRows(m.id)).toBe(0);
    const good = await post(ctx, m.apiKey, url, orderBody(m.warehouseId), withKey(key));
    expect(good.statusCode).toBe(200);
    expect(good.headers[REPLAYED]).toBeUndefined();
  });

  // PGlite runs one transaction at a time, so a second holder of the lease cannot exist there (its
  // duplicates wait and replay: the concurrency test below); the 409 is PostgreSQL's case alone.
  if (engine === 'postgres') {
    it('answers 409 while another transaction holds the key, and runs at once when that holder ends', async () => {
      const m = await merchant(ctx);
      const key = newKey();
      const body = orderBody(m.warehouseId);
      // A first request still running: its transaction holds the key's lease (on another connection).
      const held = await ctx.database.db
        .transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${keyLease(m.id, key)})`);
          const running = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, url, body, withKey(key)));
          throw Object.assign(new Error('roll back'), { running });
        })
        .catch((error: { running?: Awaited<ReturnType<typeof post>> }) => error.running!);
      expect(held.statusCode).toBe(409);
      expect(held.json()).toEqual(IN_PROGRESS);
      // No timer: the moment the holder's transaction is gone, the key is free.
      const retried = await post(ctx, m.apiKey, url, body, withKey(key));
      expect(retried.statusCode).toBe(200);
      expect(retried.headers[REPLAYED]).toBeUndefined();
    });
  }

  it('runs afresh, at once, a key reserved but never answered under the earlier timer-based scheme', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId);
    await ctx.database.db.execute(
      sql`insert into idempotency_keys (account_id, key, route, request_hash, created_at)
          values (${m.id}, ${key}, ${`POST ${url}`}, ${bodyHash(body)}, ${ctx.clock.now().toISOString()})`,
    );
    const first = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(first.statusCode).toBe(200);
    expect(first.headers[REPLAYED]).toBeUndefined();
    const replay = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.body).toBe(first.body);
  });

  it('keeps a keyed fingerprint of the body, not its plain hash; a key kept with a plain one still replays', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId);
    const first = await post(ctx, m.apiKey, url, body, withKey(key));
    expect(first.statusCode, first.body).toBe(200);
    const [kept] = await queryRows<{ request_hash: string }>(
      ctx.database.db,
      sql`select request_hash from idempotency_keys where account_id = ${m.id} and key = ${key}`,
    );
    // An HMAC under the sealing key: a database reader cannot test guesses of the body against it.
    expect(kept!.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(kept!.request_hash).not.toBe(bodyHash(body));
    const older = newKey();
    await ctx.database.db.execute(
      sql`insert into idempotency_keys (account_id, key, route, request_hash, status_code, response_body, created_at)
          values (${m.id}, ${older}, ${`POST ${url}`}, ${bodyHash(body)}, 200, ${'{"kept":true}'}, ${ctx.clock.now().toISOString()})`,
    );
    const replay = await post(ctx, m.apiKey, url, body, withKey(older));
    expect([replay.statusCode, replay.headers[REPLAYED], replay.body]).toEqual([200, 'true', '{"kept":true}']);
    const other = await post(ctx, m.apiKey, url, { ...body, order_id: `${body.order_id}-B` }, withKey(older));
    expect(other.statusCode).toBe(422);
  });

  it('writes one order for two concurrent requests with the same key: the other is a replay or a 409 (on PGlite, which runs one transaction at a time: a replay)', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId);
    const before = await orderCounts(ctx.database);
    const responses = await Promise.all([
      post(ctx, m.apiKey, url, body, withKey(key)),
      post(ctx, m.apiKey, url, body, withKey(key)),
    ]);
    const original = responses.filter((r) => r.statusCode === 200 && r.headers[REPLAYED] === undefined);
    expect(original).toHaveLength(1);
    const [other] = responses.filter((r) => r !== original[0]);
    if (engine === 'postgres' && other!.statusCode === 409) {
      expect(other!.json()).toEqual(IN_PROGRESS);
    } else {
      expect(other!.headers[REPLAYED]).toBe('true');
      expect(other!.body).toBe(original[0]!.body);
    }
    expect((await orderCounts(ctx.database)).orders).toBe(before.orders + 1);
  });
});

describe('Idempotency-Key validation and scope', () => {
  it('takes keys of 1 to 255 characters and refuses longer ones (400), writing nothing', async () => {
    const m = await merchant(ctx);
    const longest = 'k'.repeat(255);
    expect((await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId), withKey(longest))).statusCode).toBe(200);
    expect((await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId), withKey('x'))).statusCode).toBe(200);

    const message = 'idempotency-key must be 1 to 255 characters';
    const tooLong = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId), withKey('k'.repeat(256))),
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({
      code: 'invalid_request',
      message,
      errors: [message],
      details: [{ field: 'idempotency-key', message }],
    });
    expect(await keyRows(m.id)).toBe(2);
  });

  it('lets the same key name a different request on another route (422)', async () => {
    const m = await merchant(ctx);
    const key = newKey();
    const body = orderBody(m.warehouseId);
    expect((await post(ctx, m.apiKey, FORWARD_ORDER, body, withKey(key))).statusCode).toBe(200);
    const other = await expectNothingWritten(ctx.database, () => post(ctx, m.apiKey, ORCHESTRATE, body, withKey(key)));
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual(DIFFERENT);
  });

  it('without a key, a retry is a new request (and a duplicate order_id is refused)', async () => {
    const m = await merchant(ctx);
    const body = orderBody(m.warehouseId);
    expect((await post(ctx, m.apiKey, ORCHESTRATE, body)).statusCode).toBe(200);
    const retry = await post(ctx, m.apiKey, ORCHESTRATE, body);
    expect(retry.statusCode).toBe(422);
    expect(retry.headers[REPLAYED]).toBeUndefined();
    expect(await keyRows(m.id)).toBe(0);
  });

  it('replays a courier booking on forward-order-shipment: the same AWB, not a second-assignment refusal', async () => {
    const m = await merchant(ctx);
    const pending = (await post(ctx, m.apiKey, FORWARD_ORDER, orderBody(m.warehouseId))).json().payload;
    const key = newKey();
    const first = await post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id }, withKey(key));
    expect(first.statusCode).toBe(200);
    const replay = await expectNothingWritten(ctx.database, () =>
      post(ctx, m.apiKey, ASSIGN, { shipment_id: pending.shipment_id }, withKey(key)),
    );
    expect(replay.statusCode).toBe(200);
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.body).toBe(first.body);
  });
});

describe('Idempotency-Key on cancel-order', () => {
  it('replays the first answer for 24 hours, then runs the request afresh', async () => {
    const m = await merchant(ctx);
    const booked = await orchestrate(ctx, m.apiKey, orderBody(m.warehouseId));
    const key = newKey();
    const body = { awbs: [booked.awb_code] };
    const first = await post(ctx, m.apiKey, CANCEL, body, withKey(key));
    expect(first.json()).toEqual({
      message: '1 of 1 shipment cancelled',
      results: [{ awb: booked.awb_code, cancelled: true, message: 'Shipment cancelled' }],
    });

    ctx.clock.advance(23 * HOUR);
    const replay = await post(ctx, m.apiKey, CANCEL, body, withKey(key));
    expect(replay.statusCode).toBe(200);
    expect(replay.headers[REPLAYED]).toBe('true');
    expect(replay.body).toBe(first.body);

    const different = await post(ctx, m.apiKey, CANCEL, { awbs: [booked.awb_code, 'OTHER'] }, withKey(key));
    expect(different.statusCode).toBe(422);
    expect(different.json()).toEqual(DIFFERENT);

    ctx.clock.advance(HOUR);
    const fresh = await post(ctx, m.apiKey, CANCEL, body, withKey(key));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers[REPLAYED]).toBeUndefined();
    expect(fresh.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: booked.awb_code, cancelled: false, message: 'Shipment is already cancelled' }],
    });
  });

  it('keeps cancel keys per account', async () => {
    const a = await merchant(ctx);
    const b = await merchant(ctx);
    const aBooking = await orchestrate(ctx, a.apiKey, orderBody(a.warehouseId));
    const key = newKey();
    const body = { awbs: [aBooking.awb_code] };
    expect((await post(ctx, a.apiKey, CANCEL, body, withKey(key))).json().results[0].cancelled).toBe(true);
    const fromB = await post(ctx, b.apiKey, CANCEL, body, withKey(key));
    expect(fromB.headers[REPLAYED]).toBeUndefined();
    expect(fromB.json()).toEqual({
      message: '0 of 1 shipment cancelled',
      results: [{ awb: aBooking.awb_code, cancelled: false, message: 'AWB not found' }],
    });
  });

  it('refuses a key over 255 characters on cancel-order (400)', async () => {
    const m = await merchant(ctx);
    const response = await post(ctx, m.apiKey, CANCEL, { awbs: ['X'] }, withKey('k'.repeat(256)));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(['idempotency-key must be 1 to 255 characters']);
  });
});
