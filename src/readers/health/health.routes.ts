import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Db } from '../../base/db/client.js';
import { embeddedDiskRoom, MIN_DISK_ROOM_BYTES } from '../../base/db/disk-room.js';
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

/** /readyz answers 503 when the database has not answered within this: a dropped network answers nothing at all. */
export const READY_TIMEOUT_MS = 2_000;

export function healthRoutes(db: Db, readyTimeoutMs = READY_TIMEOUT_MS): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/healthz',
      {
        logLevel: 'warn',
        config: { noDatabase: true },
        schema: {
          tags: ['Health'],
          summary: 'The process is alive',
          security: [],
          response: { 200: answer(Status, 'The process is up.', { status: 'ok' }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/readyz',
      {
        logLevel: 'warn',
        schema: {
          tags: ['Health'],
          summary: 'The database answers (and, embedded, has room on its disk)',
          description:
            '503 with Retry-After while the database does not answer within 2 s, or, on the embedded database, while its ' +
            'disk has less than 16 MiB free (one WAL segment): the statements that write then fail.',
          security: [],
          response: {
            200: answer(Status, 'The database answers: the process can serve requests.', { status: 'ok' }),
            ...errorResponses(503),
          },
        },
      },
      async () => {
        if (!(await databaseAnswers(db, readyTimeoutMs))) throw databaseUnavailable();
        // A full disk still answers reads: readiness is the room to write, on the embedded database.
        const room = await embeddedDiskRoom(db);
        if (room !== undefined && room < MIN_DISK_ROOM_BYTES) throw databaseUnavailable(true);
        return { status: 'ok' as const };
      },
    );
  };
}
