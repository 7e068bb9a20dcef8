import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openPostgres } from '../../base/db/client.js';
import { ErrorBody } from '../../http/errors.js';
import { createHttpServer } from '../../http/server.js';
import { healthRoutes } from './health.routes.js';

/**
 * A database behind a dropped network accepts nothing and answers nothing: a readiness probe must
 * still answer, 503, rather than hang with it. The stand-in is a TCP server that takes connections
 * and never says a word.
 */

const sockets = new Set<net.Socket>();
const silent = net.createServer((socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
let database: Database;

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  database = await openPostgres(`postgres://postgres@127.0.0.1:${port}/silent`, 1);
});

afterAll(async () => {
  // Cut first: the pool waits for a connection still being made before it ends.
  for (const socket of sockets) socket.destroy();
  await database.close();
  await new Promise((resolve) => silent.close(resolve));
});

it('/readyz answers 503 with Retry-After when the database does not answer within its time-out; /healthz 200', async () => {
  const app = createHttpServer(false);
  app.addSchema(ErrorBody);
  await app.register(healthRoutes(database.db, 200));
  try {
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('1');
    expect(ready.json()).toEqual({
      code: 'database_unavailable',
      message: 'The database is not answering; retry shortly',
      errors: ['The database is not answering; retry shortly'],
    });
    // The probe reached the stand-in: it is the silence that was timed out, not a refusal.
    expect(sockets.size).toBe(1);
    const live = await app.inject({ method: 'GET', url: '/healthz' });
    expect({ status: live.statusCode, body: live.json() }).toEqual({ status: 200, body: { status: 'ok' } });
  } finally {
    await app.close();
  }
});
