import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { COMPACTION_WAIT_MS, compactStorage } from '../../base/db/compaction.js';
import type { Db } from '../../base/db/client.js';
import { answer } from '../../http/answer.js';
import { errorResponses } from '../../http/errors.js';

const Bytes = (description: string) => Type.Integer({ minimum: 0, description });

const Compaction = Type.Object(
  {
    data: Type.Object({
      open_transactions: Type.Union(
        [
          Type.Object({
            count: Type.Integer({ minimum: 1 }),
            oldest_started_at: Type.String({ format: 'date-time' }),
          }),
          Type.Null(),
        ],
        {
          description: `Sessions of the database server holding a transaction id or a snapshot from before the compaction began that had not let go after it waited ${COMPACTION_WAIT_MS / 1000} seconds for them: the row versions changed after the oldest began were kept, and go with a compaction run once they end. Null when none.`,
        },
      ),
      tables: Type.Array(
        Type.Object({
          table: Type.String(),
          bytes_before: Bytes('The table with its indexes and TOAST, before.'),
          bytes_after: Bytes('The same, rewritten.'),
          rewritten: Type.Boolean({
            description: 'False when PostgreSQL skipped the table: the database role does not own it.',
          }),
        }),
      ),
      statistics_rewritten: Type.Boolean({
        description:
          "Whether the planner's statistics (pg_statistic), which keep sampled column values, were rewritten after every table was analysed afresh.",
      }),
      statistics_kept: Type.Array(Type.String(), {
        description:
          "Empty tables whose statistics from before still hold values sampled from their old rows: ANALYZE keeps an empty table's, and the database role is not a superuser, the only one who may clear them (DELETE FROM pg_statistic WHERE starelid = 'public.<table>'::regclass, then this again).",
      }),
      write_ahead_log: Type.Object({
        segments: Type.Union([Type.Literal('removed'), Type.Literal('recycled'), Type.Literal('not_reached')], {
          description:
            "`removed`: the log's segments written before the rewrite are gone. `recycled`: PostgreSQL renamed them for reuse (`wal_recycle` on) and they keep their bytes until overwritten. `not_reached`: the database role may not checkpoint or switch the log.",
        }),
        detail: Type.String({ description: 'What was done, and what an operator does where the log was not reached.' }),
      }),
    }),
  },
  {
    examples: [
      {
        data: {
          open_transactions: null,
          tables: [{ table: 'orders', bytes_before: 1_327_104, bytes_after: 1_089_536, rewritten: true }],
          statistics_rewritten: true,
          statistics_kept: [],
          write_ahead_log: { segments: 'removed', detail: 'the segments written before the rewrite were removed' },
        },
      },
    ],
  },
);

/** The operator's rewrite of the database's files after erasures, under /admin/v1 (docs/data-lifecycle.md). */
export function compactionAdminRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/privacy/compact',
      {
        schema: {
          tags: ['Operator'],
          summary: "Rewrite the database's files so that erased and anonymised buyers' old row versions are gone",
          description:
            "An erasure, an anonymisation or an account's deletion changes rows; their old versions stay in the database's files (and its write-ahead log) until overwritten. This rewrites every table and the planner's statistics and moves the write-ahead log on, so the bytes are gone from the data directory. Each table's writes wait while it is rewritten (on the embedded database, every request waits): run it in a quiet hour. `npm run cli -- buyers compact` does the same from the shell.",
          security: [{ adminToken: [] }],
          response: { 200: answer(Compaction, 'What each table weighed before and after.'), ...errorResponses(401) },
        },
      },
      async () => ({ data: await compactStorage(db) }),
    );
  };
}
