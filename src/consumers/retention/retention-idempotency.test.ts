import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { HOUR, ORCHESTRATE, post } from '../../../test/kit/http.js';
import { orderBody } from '../../../test/kit/orders.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';

// Idempotency keys (issue 52): a key's answer is replayed for 24 hours, and the retention job
// removes it after, whatever the account does next (an account that stopped sending keys kept
// its last ones for good when requests swept their own account's keys).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const keysOf = async (accountId: string) =>
  (
    await queryRows<{ key: string }>(
      ctx.database.db,
      sql`select key from idempotency_keys where account_id = ${accountId} order by key`,
    )
  ).map((r) => r.key);

describe('retention of idempotency keys', () => {
  it('removes keys first used more than 24 hours ago; a younger key still replays its answer', async () => {
    const m = await merchant(ctx);
    // One body per key: a key sent again with another body is refused, not replayed.
    const bodies = new Map<string, unknown>();
    const book = (key: string) => {
      if (!bodies.has(key)) bodies.set(key, orderBody(m.warehouseId));
      return post(ctx, m.apiKey, ORCHESTRATE, bodies.get(key), { 'idempotency-key': key });
    };
    expect((await book('key-a')).statusCode).toBe(200);
    ctx.clock.advance(HOUR);
    const younger = await book('key-b');
    expect(younger.statusCode).toBe(200);
    expect(await keysOf(m.id)).toEqual(['key-a', 'key-b']);

    // 24 hours and a second after the first: it goes, the one made an hour later stays.
    ctx.clock.advance(23 * HOUR + 1000);
    const report = await ctx.app.retention.pruneAll();
    expect(report.pruned.idempotency_keys).toBe(1);
    expect(report.before.idempotency_keys).toBe(new Date(ctx.clock.now().getTime() - 24 * HOUR).toISOString());
    expect(await keysOf(m.id)).toEqual(['key-b']);
    const replay = await book('key-b');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(younger.body);
  });
});
