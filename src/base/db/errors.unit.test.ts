import net from 'node:net';
import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from './errors.js';

/** An error as the server sends it (pg's own class), with its SQLSTATE and severity. */
function serverError(code: string, severity = 'ERROR', message = 'server error'): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = severity;
  return error;
}

/** As drizzle hands it to the service: the driver's error as `cause`. */
const wrapped = (cause: Error) => new DrizzleQueryError('insert into orders ...', [], cause);

describe('isDatabaseUnavailable: a lost or unreachable database, not a refused statement', () => {
  it.each([
    [
      'a backend terminated by an administrator (57P01)',
      serverError('57P01', 'FATAL', 'terminating connection due to administrator command'),
    ],
    ['a crash shutdown (57P02)', serverError('57P02', 'FATAL')],
    ['a server starting or stopping (57P03)', serverError('57P03', 'FATAL')],
    ['too many connections (53300)', serverError('53300', 'FATAL')],
    ['a connection exception (08006)', serverError('08006')],
    [
      'a database that does not take connections (55000, FATAL)',
      serverError('55000', 'FATAL', 'database "x" is not currently accepting connections'),
    ],
    ['the socket closing under a client', new Error('Connection terminated unexpectedly')],
    [
      'a query on a client that lost its connection',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    [
      'a refused connection to a host with two addresses',
      new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })]),
    ],
    ['any of these wrapped by drizzle', wrapped(serverError('57P01', 'FATAL'))],
  ])('%s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', wrapped(serverError('23505'))],
    ['a serialization failure', serverError('40001')],
    ['a lock not available (55P03, not FATAL)', serverError('55P03')],
    ['a syntax error', serverError('42601')],
    ['a plain error', new Error('something else')],
    ['not an error at all', undefined],
  ])('not %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('a real refused connection, from the driver', async () => {
    // A port that was free a moment ago: nothing listens on it.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres' });
    const error = await client.connect().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isUniqueViolation(error)).toBe(false);
  });
});

describe('a foreign key violation', () => {
  it.each([
    ['the driver error', { code: '23503' }, true],
    ["Drizzle's wrapper of it", { message: 'Failed query', cause: { code: '23503' } }, true],
    ['a unique violation', { code: '23505' }, false],
    ['a wrapper of another error', { message: 'Failed query', cause: { code: '57P01' } }, false],
    ['no error', null, false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isForeignKeyViolation(error)).toBe(expected);
  });
});
