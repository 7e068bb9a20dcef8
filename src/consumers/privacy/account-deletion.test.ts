import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buyerNeedles, findTraces, useBuyerEverywhere } from '../../../test/kit/buyer-everywhere.js';
import { findFileTraces } from '../../../test/kit/buyer-traces.js';
import { admin, authed, V1 } from '../../../test/kit/http.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { channelById } from '../../features/sales-channels/sales-channels.repository.js';

// An account's deletion (issue 52): its owner asks, naming the account; ACCOUNT_DELETION_GRACE_DAYS
// (30) later every row of it is gone, from every table, and no trace of its buyers is left; the
// other accounts keep every row they had.

const DELETION = `${V1}/account/deletion`;
const DAY = 86_400_000;
const world = useBuyerEverywhere();

const send = (method: 'GET' | 'POST' | 'DELETE', credential: string, payload?: object) =>
  world.ctx.app.inject({ method, url: DELETION, headers: authed(credential), ...(payload && { payload }) });

/** Every table with an account_id, and how many of its rows are the account's. */
async function rowsOf(accountId: string): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    world.ctx.database.db,
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'account_id' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(
      world.ctx.database.db,
      sql`select count(*)::int as n from ${sql.identifier(table_name)} where account_id = ${accountId}`,
    );
    if (row!.n > 0) counts[table_name] = row!.n;
  }
  return counts;
}

describe("an account's deletion", () => {
  it('is asked for by the owner naming the account, and taken back', async () => {
    const m = await merchant(world.ctx, 'Sundial Crafts');
    expect((await send('GET', m.apiKey)).json()).toEqual({ data: { deletion: null } });
    const limited = (
      await world.ctx.app.inject({
        method: 'POST',
        url: `${V1}/api-keys`,
        headers: authed(m.apiKey),
        payload: { scopes: ['members:manage'] },
      })
    ).json().data.api_key;
    const notOwner = await send('POST', limited, { confirm_account_name: 'Sundial Crafts' });
    expect([notOwner.statusCode, notOwner.json().code]).toEqual([403, 'account_deletion_owner_only']);
    const wrongName = await send('POST', m.apiKey, { confirm_account_name: 'Sundial' });
    expect([wrongName.statusCode, wrongName.json().details]).toEqual([
      400,
      [
        {
          field: 'confirm_account_name',
          message: "confirm_account_name must be the account's name, as the panel shows it",
        },
      ],
    ]);
    const asked = await send('POST', m.apiKey, { confirm_account_name: ' sundial crafts ' });
    expect(asked.json()).toEqual({
      data: {
        deletion: {
          requested_at: world.ctx.clock.now().toISOString(),
          due_at: new Date(world.ctx.clock.now().getTime() + 30 * DAY).toISOString(),
        },
      },
    });
    expect((await send('DELETE', m.apiKey)).json()).toEqual({ data: { deletion: null } });
    const again = await send('DELETE', m.apiKey);
    expect([again.statusCode, again.json().code]).toEqual([404, 'account_deletion_not_requested']);
    const audit = await queryRows<{ action: string }>(
      world.ctx.database.db,
      sql`select action from audit_log where account_id = ${m.id} and action like 'account.deletion%' order by at, action desc`,
    );
    expect(audit.map((a) => a.action)).toEqual(['account.deletion_requested', 'account.deletion_cancelled']);
  });

  it('deletes every row of the account once due, leaves no trace of its buyers, and the other accounts as they were', async () => {
    const other = await merchant(world.ctx, 'Untouched Traders');
    const othersBefore = await rowsOf(other.id);
    const [{ name }] = (await queryRows<{ name: string }>(
      world.ctx.database.db,
      sql`select name from accounts where id = ${world.written.accountId}`,
    )) as [{ name: string }];
    expect((await send('POST', world.written.apiKey, { confirm_account_name: name })).statusCode).toBe(200);
    const channel = await channelById(world.ctx.database.db, world.written.accountId, world.written.channelId);
    world.ctx.clock.advance(30 * DAY - 1000);
    expect(await world.ctx.app.accountDeletion.deleteDue()).toEqual({ accounts: 0, deleted: {} });
    world.ctx.clock.advance(1000);
    // As autovacuum would have on a live install: the planner's statistics sample the account's values too.
    await world.ctx.database.db.execute(sql`analyze`);
    const before = await rowsOf(world.written.accountId);
    expect(before).toMatchObject({ orders: 2, api_keys: 1, account_deletions: 1 });
    const report = await world.ctx.app.accountDeletion.deleteDue();
    expect(report.accounts).toBe(1);
    // Every table it had rows in, each at least the rows it had: the senders and sweeps of the app
    // keep working until the credentials go (a sweep's event, its webhook), and the shipments'
    // triggers write the counts' rows again as they go.
    expect(Object.keys(report.deleted).sort()).toEqual([...Object.keys(before), 'accounts'].sort());
    expect(Object.entries(before).filter(([table, rows]) => report.deleted[table]! < rows)).toEqual([]);
    expect(report.deleted.accounts).toBe(1);

    expect(await rowsOf(world.written.accountId)).toEqual({});
    expect(await findTraces(world.ctx.database.db, buyerNeedles(world.buyer))).toEqual([]);
    expect(await rowsOf(other.id)).toEqual(othersBefore);
    expect((await send('GET', world.written.apiKey)).statusCode).toBe(401);

    // The deleted rows are still in the database's files until the operator compacts them.
    const needles = [...buyerNeedles(world.buyer), name];
    expect((await findFileTraces(world.ctx.database, needles)).length).toBeGreaterThan(0);
    const compacted = await world.ctx.app.inject({ method: 'POST', url: '/admin/v1/privacy/compact', headers: admin });
    expect(compacted.statusCode).toBe(200);
    expect(await findFileTraces(world.ctx.database, needles)).toEqual([]);

    // A pull of the account's store that was under way as the account went (its answer, the
    // buyer's order, arriving after) writes nothing: not even a refused row's bytes.
    await world.ctx.app.channelIntake.pull(channel!);
    expect(await findFileTraces(world.ctx.database, needles)).toEqual([]);
  });

  it('is done at once by the operator, and an unknown account is a 404', async () => {
    const m = await merchant(world.ctx);
    const answer = await world.ctx.app.inject({ method: 'DELETE', url: `/admin/v1/accounts/${m.id}`, headers: admin });
    expect(answer.json().data).toMatchObject({ accounts: 1, deleted: { accounts: 1, api_keys: 1, warehouses: 1 } });
    expect(await rowsOf(m.id)).toEqual({});
    const again = await world.ctx.app.inject({ method: 'DELETE', url: `/admin/v1/accounts/${m.id}`, headers: admin });
    expect(again.statusCode).toBe(404);
  });

  describe('when a writer adds a row after its table was deleted from', () => {
    // What the app's senders and sweeps do while an account's events and shipments are still
    // there: here a pickup at the account's warehouse, written as the pickups' turn ends (once,
    // or at every turn), so the warehouse's delete is refused by the pickup's foreign key.
    async function lateWriter(accountId: string, warehouseId: string, every: boolean) {
      const db = world.ctx.database.db;
      await db.execute(sql`create sequence late_pickups`);
      await db.execute(
        sql.raw(`create function write_late_pickup() returns trigger language plpgsql as $$
          begin
            if nextval('late_pickups') = 1 or ${every} then
              insert into pickups (account_id, warehouse_id, carrier_id, pickup_date, parcels, created_at)
              values ('${accountId}', '${warehouseId}', 'sandbox', '2026-11-20', 1, now());
            end if;
            return null;
          end $$`),
      );
      await db.execute(
        sql`create trigger late_pickup after delete on pickups for each statement execute function write_late_pickup()`,
      );
      return async () => {
        await db.execute(sql`drop trigger late_pickup on pickups`);
        await db.execute(sql`drop function write_late_pickup()`);
        await db.execute(sql`drop sequence late_pickups`);
      };
    }

    it('goes round again and deletes it too', async () => {
      const m = await merchant(world.ctx);
      const stop = await lateWriter(m.id, m.warehouseId, false);
      try {
        expect(await world.ctx.app.accountDeletion.deleteNow(m.id)).toEqual({
          accounts: 1,
          deleted: { account_deletions: 1, accounts: 1, api_keys: 1, audit_log: 2, pickups: 1, warehouses: 1 },
        });
      } finally {
        await stop();
      }
      expect(await rowsOf(m.id)).toEqual({});
    });

    it('gives up after ten passes if it never stops, and the next run finishes', async () => {
      const m = await merchant(world.ctx);
      const stop = await lateWriter(m.id, m.warehouseId, true);
      try {
        await expect(world.ctx.app.accountDeletion.deleteNow(m.id)).rejects.toThrow(
          `account ${m.id} was still being written to after 10 passes of its deletion`,
        );
      } finally {
        await stop();
      }
      expect(await rowsOf(m.id)).toEqual({ account_deletions: 1, pickups: 1, warehouses: 1 });
      expect(await world.ctx.app.accountDeletion.deleteDue()).toEqual({
        accounts: 1,
        deleted: { accounts: 1, account_deletions: 1, pickups: 1, warehouses: 1 },
      });
      expect(await rowsOf(m.id)).toEqual({});
    });
  });
});
