import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { queryRows } from '../base/db/client.js';
import { FORWARD_ORDER, ORCHESTRATE, post } from '../../test/kit/http.js';
import { orderBody } from '../../test/kit/orders.js';
import { createWarehouse } from '../../test/kit/warehouses.js';

/** A customer whose every detail is unusual enough that any trace of it in the log is found. */
const CUSTOMER = {
  billing_customer_name: 'Zebediah',
  billing_last_name: 'Quartermaine',
  billing_address: '42 Kumarakom Lake Road',
  billing_address_2: 'Behind Vembanad Jetty',
  billing_email: 'zebediah.q@example.org',
  billing_phone: '9812345670',
  order_id: 'PRIVATE-ORDER-77',
};
const TRACES = [
  'Zebediah',
  'Quartermaine',
  'Kumarakom',
  'Vembanad',
  'zebediah.q@example.org',
  '9812345670',
  'PRIVATE-ORDER-77',
];

let ctx: TestContext;
const orderCount = async () =>
  (await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from orders`))[0]!.n;
const lines: string[] = [];
let apiKey: string;
let warehouseId: string;

beforeAll(async () => {
  ctx = await createTestApp({ logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } });
  ({ apiKey } = await ctx.createAccount());
  warehouseId = await createWarehouse(ctx, apiKey);
  // A real database refusal of this one customer's order, as a broken migration or a full disk would give.
  await ctx.database.db.execute(
    sql.raw(`alter table orders add constraint refuse_zebediah check (billing_name <> 'Zebediah')`),
  );
});
afterAll(async () => {
  await ctx.close();
});

describe('logs keep customers out', () => {
  it.each([FORWARD_ORDER, ORCHESTRATE])(
    '%s: a failed insert answers 500 and logs the SQL shape and code, no personal data',
    async (url) => {
      lines.length = 0;
      const before = await orderCount();
      const response = await post(ctx, apiKey, url, orderBody(warehouseId, CUSTOMER));
      expect(await orderCount()).toBe(before);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        code: 'internal_error',
        message: 'Internal server error',
        errors: ['Internal server error'],
      });

      const log = lines.join('');
      for (const trace of TRACES) expect(log, `log mentions ${trace}`).not.toContain(trace);
      const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'unhandled error');
      expect(failure.level).toBe(50);
      expect(failure.err).toMatchObject({
        type: 'DrizzleQueryError',
        message: 'Failed query',
        paramCount: expect.any(Number),
      });
      expect(failure.err.cause).toMatchObject({ message: expect.stringContaining('refuse_zebediah') });
      expect(failure.err.query).toMatch(/insert into "orders"/i);
      expect(failure.err.cause).toMatchObject({ code: '23514', constraint: 'refuse_zebediah' });
      expect(failure.err.cause).not.toHaveProperty('detail');
      expect(failure.err.stack).toMatch(/^ {4}at /);
    },
  );

  it('keeps the value PostgreSQL quotes in a message out, and the message itself in', async () => {
    lines.length = 0;
    const failing = ctx.database.db.execute(sql`select ${'Zebediah Quartermaine'}::uuid`);
    const error = await failing.catch((e: unknown) => e);
    ctx.app.log.error({ err: error }, 'probe');
    const entry = JSON.parse(lines.at(-1)!);
    expect(entry.err.cause.code).toBe('22P02');
    expect(entry.err.cause.message).toBe('invalid input syntax for type uuid: [redacted]');
    expect(lines.join('')).not.toContain('Zebediah');
  });
});
