import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase, describePostgresOnly, withAdminClient } from '../../../test/databases.js';
import { until } from '../../../test/webhook-receiver.js';
import { type Database, dedicatedSession, openPostgres, queryRows } from './client.js';
import { compactStorage } from './compaction.js';

// The compaction as the database role that runs it may do it (decision 191): a superuser (the
// erasure and deletion tests) does all of it; a role that owns the tables but is not a superuser,
// as a server's application role usually is, rewrites its tables and says what it could not do; and
// a transaction open elsewhere on the server keeps what it may see, and is named.

const ROLE = `dakiya_compaction_${randomBytes(4).toString('hex')}`;
let scratch: { url: string; drop(): Promise<void> };
let database: Database;

beforeAll(async () => {
  scratch = await createEmptyDatabase('compaction');
  database = await openPostgres(scratch.url, 2);
  await withAdminClient((client) => client.query(`create role ${ROLE}`));
  await database.db.execute(
    sql.raw(`create table owned (id int, name text); create table emptied (id int, name text);
             create table not_owned (id int);
             alter table owned owner to ${ROLE}; alter table emptied owner to ${ROLE};
             insert into owned select g, 'n' || g from generate_series(1, 100) g;
             insert into emptied select g, 'Zorawarix' || g from generate_series(1, 100) g;
             analyze; delete from emptied;`),
  );
});
afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  await withAdminClient((client) => client.query(`drop role if exists ${ROLE}`));
});

/** A table of 100 rows; what its heap's file takes, read afresh at each call. */
async function hundredRows(table: 'held' | 'seen') {
  await database.db.execute(
    sql.raw(
      `create table ${table} (id int, name text); insert into ${table} select g, 'n' || g from generate_series(1, 100) g`,
    ),
  );
  return async () =>
    (await queryRows<{ bytes: number }>(database.db, sql`select pg_relation_size(${table})::int as bytes`))[0]!.bytes;
}

describePostgresOnly('the compaction as a role that owns the tables and is not a superuser', {}, () => {
  it('rewrites its own tables, and names the statistics, table and log it could not reach', async () => {
    const session = await dedicatedSession(database.db);
    try {
      await session.db.execute(sql.raw(`set role ${ROLE}`));
      const report = await compactStorage(session.db);
      expect(report.tables.map(({ table, rewritten }) => ({ table, rewritten }))).toEqual([
        { table: 'emptied', rewritten: true },
        { table: 'not_owned', rewritten: false },
        { table: 'owned', rewritten: true },
      ]);
      expect(report.tables.find((t) => t.table === 'emptied')!.bytes_after).toBeLessThan(
        report.tables.find((t) => t.table === 'emptied')!.bytes_before,
      );
      expect({
        statistics_rewritten: report.statistics_rewritten,
        statistics_kept: report.statistics_kept,
        segments: report.write_ahead_log.segments,
      }).toEqual({ statistics_rewritten: false, statistics_kept: ['emptied'], segments: 'not_reached' });
      expect(report.write_ahead_log.detail).toMatch(
        /^the database role may not checkpoint or switch the write-ahead log \(must be superuser or have privileges of pg_checkpoint to do CHECKPOINT\); a superuser runs CHECKPOINT, SELECT pg_switch_wal\(\) and CHECKPOINT$/,
      );
    } finally {
      await session.db.execute(sql.raw('reset role'));
      session.release();
    }
  });

  it('as a superuser, clears an emptied table of the statistics sampled from its old rows', async () => {
    const sampled = () =>
      queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from pg_stats where tablename = 'emptied'`);
    expect(await sampled()).toEqual([{ n: 2 }]);
    const report = await compactStorage(database.db);
    expect([report.statistics_rewritten, report.statistics_kept]).toEqual([true, []]);
    expect(await sampled()).toEqual([{ n: 0 }]);
  });

  it('waits for the transactions open when it began; one that does not end keeps the rows it may see, and is named', async () => {
    const heap = await hundredRows('held');
    await withAdminClient(async (other) => {
      await other.query('begin');
      const { rows } = await other.query<{ started: Date }>('select pg_current_xact_id(), now() as started');
      await database.db.execute(sql`delete from held`);
      const report = await compactStorage(database.db, { waitMs: 300 });
      expect(report.open_transactions?.count).toBeGreaterThanOrEqual(1);
      expect(Date.parse(report.open_transactions!.oldest_started_at)).toBeLessThanOrEqual(rows[0]!.started.getTime());
      expect(await heap()).toBe(8192);
      await other.query('commit');
    });
    const after = await compactStorage(database.db);
    expect(after.open_transactions).toBeNull();
    expect(await heap()).toBe(0);
  });

  it('waits for a snapshot taken before it began, which holds no transaction id, and names it when it does not end', async () => {
    const heap = await hundredRows('seen');
    // A reader of this database in a repeatable-read transaction: its snapshot, taken at its first
    // statement, may read the rows until it ends (reading them itself would lock the table and make
    // the rewrite wait for it instead).
    const reader = new pg.Client({ connectionString: scratch.url });
    await reader.connect();
    try {
      await reader.query('begin isolation level repeatable read');
      const { rows } = await reader.query<{ started: Date }>('select now() as started');
      await database.db.execute(sql`delete from seen`);
      const report = await compactStorage(database.db, { waitMs: 300 });
      // At least the reader: a session of another database on the server (another test file's)
      // holding an id from before is counted too, as it keeps rows here as well.
      expect(report.open_transactions?.count).toBeGreaterThanOrEqual(1);
      expect(Date.parse(report.open_transactions!.oldest_started_at)).toBeLessThanOrEqual(rows[0]!.started.getTime());
      expect(await heap()).toBe(8192);
      await reader.query('commit');
    } finally {
      await reader.end();
    }
    const after = await compactStorage(database.db);
    expect(after.open_transactions).toBeNull();
    expect(await heap()).toBe(0);
  });

  it('clears the statistics before it waits, and again after, so a transaction open at its end holds back none of them', async () => {
    const [gone, analysedMeanwhile] = [1, 2].map(() => `Zorawarix${randomBytes(6).toString('hex')}`) as [
      string,
      string,
    ];
    await database.db.execute(
      // Autovacuum's own ANALYZE would sample them at a time of its choosing.
      sql.raw(`create table sampled (id int, name text) with (autovacuum_enabled = false);
               create table sampled_meanwhile (id int, name text) with (autovacuum_enabled = false);
               insert into sampled select g, '${gone}' from generate_series(1, 100) g;
               insert into sampled_meanwhile select g, '${analysedMeanwhile}' from generate_series(1, 100) g;
               analyze sampled;`),
    );
    const statistics = async () =>
      (
        await queryRows<{ tablename: string }>(
          database.db,
          sql`select tablename from pg_stats where tablename in ('sampled', 'sampled_meanwhile') group by tablename order by 1`,
        )
      ).map((row) => row.tablename);
    expect(await statistics()).toEqual(['sampled']);
    const reader = new pg.Client({ connectionString: scratch.url });
    await reader.connect();
    const session = await dedicatedSession(database.db);
    try {
      // A reader that may still see the rows deleted after its snapshot holds the compaction in its wait.
      await reader.query('begin isolation level repeatable read');
      await reader.query('select 1');
      await database.db.execute(sql`delete from sampled`);
      const [{ pid }] = (await queryRows<{ pid: number }>(session.db, sql`select pg_backend_pid() as pid`)) as [
        { pid: number },
      ];
      const compaction = compactStorage(session.db, { waitMs: 600_000 });
      await until(
        async () =>
          (
            await queryRows<{ waiting: boolean }>(
              database.db,
              sql`select exists (select from pg_stat_activity where pid = ${pid}
                                  and query like '%lateral (values (a.backend_xid)%') as waiting`,
            )
          )[0]!.waiting,
        'the compaction to wait',
      );
      // Cleared before the wait: a transaction begun during it is younger than their deletion.
      expect(await statistics()).toEqual([]);
      // An ANALYZE that ends during the wait (autovacuum's), of rows deleted since.
      await database.db.execute(sql.raw('analyze sampled_meanwhile; delete from sampled_meanwhile'));
      expect(await statistics()).toEqual(['sampled_meanwhile']);
      await reader.query('commit');
      const report = await compaction;
      expect([report.open_transactions, report.statistics_rewritten]).toEqual([null, true]);
    } finally {
      session.release();
      await reader.end();
    }
    expect(await statistics()).toEqual([]);
    await database.db.execute(sql`checkpoint`);
    const kept = await queryRows<{ value: string }>(
      database.db,
      sql`select value from unnest(${sql.param([gone, analysedMeanwhile])}::text[]) value
           where position(convert_to(value, 'UTF8') in pg_read_binary_file(pg_relation_filepath('pg_statistic'))) > 0`,
    );
    expect(kept).toEqual([]);
  });
});
