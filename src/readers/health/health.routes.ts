import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { answer } from '../../http/answer.js';
import { AppError, errorResponses } from '../../http/errors.js';

const Status = Type.Object({ status: Type.Literal('ok') });

export function healthRoutes(db: Db): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/healthz',
      { logLevel: 'warn', schema: { tags: ['Health'], summary: 'The process is alive', security: [], response: { 200: answer(Status, 'The process is up.', { status: 'ok' }) } } },
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
        try {
          await db.execute(sql`select 1`);
        } catch {
          throw new AppError(503, ['Database is not answering']);
        }
        return { status: 'ok' as const };
      },
    );
  };
}
