import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../../test/app.js';
import { queryRows } from '../../base/db/client.js';
import { EXCHANGE_STATUSES, type ExchangeLegs, exchangeStatus } from '../../domain/shipment/exchange-status.js';
import { RETURN_STATUSES } from '../../domain/shipment/return-status-machine.js';
import { SHIPMENT_STATUSES } from '../../domain/shipment/status-machine.js';
import { exchangeStatusSql } from './exchange-status-sql.js';

let ctx: TestContext;
useTestApp((app) => {
  ctx = app;
});

// Every combination of the legs' facts: each forward status, each return status, each QC result
// and both holds (10 x 7 x 3 x 2 = 420 rows).
const CASES: ExchangeLegs[] = SHIPMENT_STATUSES.flatMap((forward) =>
  RETURN_STATUSES.flatMap((back) =>
    [null, 'passed', 'failed'].flatMap((qcStatus) =>
      [false, true].map((replacementHeld) => ({ forward, return: back, qcStatus, replacementHeld })),
    ),
  ),
);

describe("the exchange listing's status in SQL", () => {
  it('agrees with exchangeStatus() on every combination of the legs, and reaches every status', async () => {
    const rows = sql.join(
      CASES.map(
        (c, i) =>
          sql`(${i}::int, ${c.forward}::text, ${c.return}::text, ${c.qcStatus}::text, ${c.replacementHeld}::boolean)`,
      ),
      sql`, `,
    );
    const status = exchangeStatusSql({
      forward: sql`v.f`,
      return: sql`v.r`,
      qcStatus: sql`v.qc`,
      replacementHeld: sql`v.held`,
    });
    const answered = await queryRows<{ i: number; status: string }>(
      ctx.database.db,
      sql`select v.i, ${status} as status from (values ${rows}) as v(i, f, r, qc, held) order by v.i`,
    );
    expect(answered.map((row) => [CASES[Number(row.i)], row.status])).toEqual(CASES.map((c) => [c, exchangeStatus(c)]));
    expect(new Set(answered.map((row) => row.status))).toEqual(new Set(EXCHANGE_STATUSES));
  });
});
