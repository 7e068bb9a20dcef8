import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { READY_TIMEOUT_MS } from '../../base/config.js';
import type { Db } from '../../base/db/client.js';
import { answer } from '../../http/answer.js';
import { databaseUnavailable, errorResponses } from '../../http/errors.js';

const Status = Type.Object({ status: Type.Literal('ok') });

/** Whether the database answers a statement within `timeoutMs`; never throws. */
async function databaseAnswers(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    // Each probe asks the server itself: the pool has no memory of the last answer, so a database
    // that went away is seen at the next probe, and one that came back too.
    const asked = db.execute(sql`select 1`).then(
      () => true,
      () => false,
    );
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(db: Db, readyTimeoutMs = READY_TIMEOUT_MS): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/healthz',
      {
        logLevel: 'warn',
        config: { noDatabase: true },
        schema: { tags: ['Health'], summary: 'The process is alive', security: [], response: { 200: answer(Status, 'The process is up.', { status: 'ok' }) } },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/readyz',
      {
        logLevel: 'warn',
        schema: {
          tags: ['Health'],
          summary: 'The database answers',
          security: [],
          response: { 200: answer(Status, 'The database answers: the process can serve requests.', { status: 'ok' }), ...errorResponses(503) },
        },
      },
      async () => {
        if (!(await databaseAnswers(db, readyTimeoutMs))) throw databaseUnavailable();
        return { status: 'ok' as const };
      },
    );
  };
}
