import { randomUUID } from 'node:crypto';
import { asAccount } from '../../../test/kit/actors.js';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dakiyaFile, shipCod } from '../../../test/kit/cod.js';
import { DELHIVERY_SURFACE, SHADOWFAX } from '../../../test/kit/couriers.js';
import { book } from '../../../test/kit/orders.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { merchantWithCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { indiaDayOf } from '../../domain/calendar.js';
import { type CodLedger, createCodLedger } from './cod-ledger.service.js';
import { startParse } from './remittance-parser.js';

// The COD ledger's rules as functions over a seeded database (both engines): which shipments owe
// cash and from when, how a remittance file's lines pay, refuse or repeat, what an import answers,
// the overdue check against the injected clock, and that an account sees only its own AWBs. The
// parser's line rules are cod-remittance-parser-rules.test.ts's; the routes' contract is
// cod-ledger.once.test.ts's and cod-velocity.once.test.ts's.

let ctx: UseCaseContext;
let ledger: CodLedger;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As cod-ledger.register.ts builds it. The test app's own ledger opens receivables on delivery.
  ledger = createCodLedger({ ...ctx.rates, db: ctx.db, clock: ctx.clock, events: ctx.events });
});
afterAll(async () => {
  await ctx.close();
});

/** A week after shipCod's deliveries (2026-11-20): remittances dated up to 2026-11-28 have happened. */
const WEEK_LATER = '2026-11-28T06:30:00.000Z';

/** A file as the import route hands it over: parsed on the clock's India day, under a fresh import id. */
function apply(accountId: string, lines: [string, string, string, string][], fileName: string | null = null) {
  const parser = startParse({ today: indiaDayOf(ctx.clock.now()) });
  parser.push(dakiyaFile(lines));
  return ledger.applyFile(
    asAccount(accountId),
    { id: randomUUID(), parsed: parser.end(), fileName, source: 'api' },
    ctx.db,
  );
}

async function merchant() {
  const owner = await merchantWithCityWarehouse(ctx);
  return { ...owner, accountId: owner.id };
}

async function receivables(accountId: string) {
  return queryRows<{
    awb: string;
    amount_paise: number;
    received_paise: number;
    state: string;
    delivered_at: string;
    expected_date: string;
    utr: string | null;
    remittance_date: string | null;
  }>(
    ctx.db,
    sql`select awb, amount_paise::float8 as amount_paise, received_paise::float8 as received_paise, state,
          to_char(delivered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as delivered_at, expected_date::text as expected_date,
          utr, remittance_date::text as remittance_date
        from cod_receivables where account_id = ${accountId} order by awb`,
  );
}

async function discrepancies(accountId: string) {
  return queryRows<{ kind: string; awb: string; expected: number; received: number; has_receivable: boolean }>(
    ctx.db,
    sql`select kind, awb, expected_paise::float8 as expected, received_paise::float8 as received,
          receivable_id is not null as has_receivable
        from cod_discrepancies where account_id = ${accountId} order by awb, detected_at`,
  );
}

describe('which shipments owe COD, and from when', () => {
  it("a delivered COD shipment owes its amount in paise, due on its courier's cycle; prepaid and RTO owe nothing", async () => {
    const m = await merchant();
    const [shadowfax] = await shipCod(ctx, m, [998.5]);
    const [delhivery] = await shipCod(ctx, m, [1500], { carrierId: DELHIVERY_SURFACE });
    const [prepaid] = await shipCod(ctx, m, [700], { prepaid: true });
    const [rto] = await shipCod(ctx, m, [450], { end: 'rto_initiated' });
    const owed = (awb: string, paise: number, expected: string) => ({
      awb,
      amount_paise: paise,
      received_paise: 0,
      state: 'pending',
      delivered_at: '2026-11-20T11:30:00Z',
      expected_date: expected,
      utr: null,
      remittance_date: null,
    });
    // Shadowfax: D+7 working days, Sundays and Tuesday 24 (a bank holiday) skipped. Delhivery: the
    // first Tuesday or Friday 2 working days on, the holiday moving it to Wednesday 25.
    expect(await receivables(m.accountId)).toEqual(
      [owed(shadowfax!, 99850, '2026-11-30'), owed(delhivery!, 150000, '2026-11-25')].sort((a, b) =>
        a.awb.localeCompare(b.awb),
      ),
    );
    const { rows } = await ledger.settlements(m.accountId, [prepaid!, rto!]);
    expect(rows.get(prepaid!)).toMatchObject({ isCod: false, status: 'delivered', state: null, amountPaise: null });
    expect(rows.get(rto!)).toMatchObject({ isCod: true, codAmountPaise: 45000, status: 'rto_initiated', state: null });
  });

  it("a delivery opens a receivable once, and only if the shipment's own status is delivered", async () => {
    const m = await merchant();
    const [delivered] = await shipCod(ctx, m, [300]);
    const booked = await book(ctx, m.apiKey, m.warehouseId, { cod: true, value: 200 });
    const ids = await queryRows<{ id: string; awb: string }>(
      ctx.db,
      sql`select id, awb from shipments where account_id = ${m.accountId}`,
    );
    const idOf = (awb: string) => ids.find((s) => s.awb === awb)!.id;
    ctx.clock.set('2026-11-21T09:00:00.000Z');
    await ledger.onStatusChange(ctx.db, m.accountId, idOf(delivered!), 'delivered', ctx.clock.now());
    await ledger.onStatusChange(ctx.db, m.accountId, idOf(booked.awb_code!), 'delivered', ctx.clock.now());
    const [only] = await receivables(m.accountId);
    expect(await receivables(m.accountId)).toHaveLength(1);
    expect(only).toMatchObject({ awb: delivered, amount_paise: 30000, expected_date: '2026-11-30' });
  });
});

describe('remittance files', () => {
  it('a full payment reconciles; the answer sums the file; the same file again is all duplicates', async () => {
    const m = await merchant();
    const [a, b] = await shipCod(ctx, m, [998.5, 1499]);
    ctx.clock.set(WEEK_LATER);
    const lines: [string, string, string, string][] = [
      [a!, '998.50', 'UTIB0000123456', '2026-11-27'],
      [b!, '1499.00', 'utib0000123456', '27/11/2026'],
    ];
    const first = await apply(m.accountId, lines, 'shadowfax.csv');
    expect(first).toEqual({
      id: expect.any(String),
      format: 'dakiya',
      file_name: 'shadowfax.csv',
      lines: 2,
      applied: 2,
      duplicates: 0,
      applied_amount: 2497.5,
      utrs: ['UTIB0000123456'],
      discrepancies: 0,
      problems: [],
      problem_count: 0,
      found: [],
    });
    const paid = { state: 'reconciled', utr: 'UTIB0000123456', remittance_date: '2026-11-27' };
    expect(await receivables(m.accountId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ awb: a, amount_paise: 99850, received_paise: 99850, ...paid }),
        expect.objectContaining({ awb: b, amount_paise: 149900, received_paise: 149900, ...paid }),
      ]),
    );
    const [stored] = await queryRows(
      ctx.db,
      sql`select lines, applied, duplicates, problems, applied_paise::float8 as paise, source, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as at
          from cod_remittance_imports where id = ${first.id}`,
    );
    expect(stored).toEqual({
      lines: 2,
      applied: 2,
      duplicates: 0,
      problems: 0,
      paise: 249750,
      source: 'api',
      at: '2026-11-28T06:30',
    });

    const again = await apply(m.accountId, lines);
    expect(again).toMatchObject({ lines: 2, applied: 0, duplicates: 2, applied_amount: 0, utrs: [], problem_count: 0 });
    expect((await receivables(m.accountId)).map((r) => r.received_paise).sort((x, y) => x - y)).toEqual([
      99850, 149900,
    ]);
    // Only an import that applied something is announced.
    const events = await queryRows<{ type: string; subject_id: string }>(
      ctx.db,
      sql`select type, subject_id from events where account_id = ${m.accountId} and type like 'cod.%' order by sequence`,
    );
    expect(events).toEqual([{ type: 'cod.remittance_applied', subject_id: first.id }]);
  });

  it.each([
    ['paid exactly', 998, '998.00', 'delivered', 'reconciled', null],
    ['paid short', 998, '950.50', 'delivered', 'remitted', { kind: 'short_paid', expected: 99800, received: 95050 }],
    [
      'paid a paisa over',
      500,
      '500.01',
      'delivered',
      'remitted',
      { kind: 'over_paid', expected: 50000, received: 50001 },
    ],
    [
      'paid though returned',
      450,
      '450',
      'rto_initiated',
      null,
      { kind: 'paid_not_delivered', expected: 0, received: 45000 },
    ],
  ] as const)('%s', async (_name, cod, paid, end, state, discrepancy) => {
    const m = await merchant();
    const [awb] = await shipCod(ctx, m, [cod], { end });
    ctx.clock.set(WEEK_LATER);
    const answer = await apply(m.accountId, [[awb!, paid, 'UTR9', '2026-11-27']]);
    expect(answer).toMatchObject({ applied: 1, discrepancies: discrepancy ? 1 : 0, problem_count: 0 });
    expect((await receivables(m.accountId)).map((r) => r.state)).toEqual(state ? [state] : []);
    expect(await discrepancies(m.accountId)).toEqual(
      discrepancy ? [{ ...discrepancy, awb, has_receivable: discrepancy.kind !== 'paid_not_delivered' }] : [],
    );
    if (discrepancy)
      expect(answer.found).toEqual([
        expect.objectContaining({ kind: discrepancy.kind, awb, carrier_id: SHADOWFAX, detected_at: WEEK_LATER }),
      ]);
  });

  it("one file's lines for an AWB are summed; a later top-up reconciles and the earlier short payment stays on record", async () => {
    const m = await merchant();
    const [split, short] = await shipCod(ctx, m, [1000, 998]);
    ctx.clock.set(WEEK_LATER);
    const first = await apply(m.accountId, [
      [split!, '600', 'UTR1', '2026-11-26'],
      [split!, '400', 'UTR2', '2026-11-25'],
      [short!, '950.50', 'UTR1', '2026-11-26'],
    ]);
    expect(first).toMatchObject({ applied: 3, applied_amount: 1950.5, utrs: ['UTR1', 'UTR2'], discrepancies: 1 });
    const topUp = await apply(m.accountId, [[short!, '47.50', 'UTR3', '2026-11-28']]);
    expect(topUp).toMatchObject({ applied: 1, discrepancies: 0 });
    const [a, b] = await receivables(m.accountId);
    const byAwb = new Map([a!, b!].map((r) => [r.awb, r]));
    // The receivable names the latest transfer, not the file's last line.
    expect(byAwb.get(split!)).toMatchObject({
      received_paise: 100000,
      state: 'reconciled',
      utr: 'UTR1',
      remittance_date: '2026-11-26',
    });
    expect(byAwb.get(short!)).toMatchObject({
      received_paise: 99800,
      state: 'reconciled',
      utr: 'UTR3',
      remittance_date: '2026-11-28',
    });
    expect(await discrepancies(m.accountId)).toEqual([
      { kind: 'short_paid', awb: short, expected: 99800, received: 95050, has_receivable: true },
    ]);
  });

  it('an AWB already paid in full and paid again under another UTR is over paid by the second amount', async () => {
    const m = await merchant();
    const [awb] = await shipCod(ctx, m, [640]);
    ctx.clock.set(WEEK_LATER);
    await apply(m.accountId, [[awb!, '640', 'UTR1', '2026-11-27']]);
    const again = await apply(m.accountId, [[awb!, '640', 'UTR2', '2026-11-28']]);
    expect(again).toMatchObject({ applied: 1, duplicates: 0, discrepancies: 1 });
    expect(await receivables(m.accountId)).toEqual([
      expect.objectContaining({ received_paise: 128000, state: 'remitted', utr: 'UTR2' }),
    ]);
    expect(await discrepancies(m.accountId)).toEqual([
      { kind: 'over_paid', awb, expected: 64000, received: 128000, has_receivable: true },
    ]);
  });

  it.each([
    ['another amount', '299', '2026-11-27', 'amount 300 on 2026-11-27'],
    ['another date', '300', '2026-11-26', 'amount 300 on 2026-11-27'],
  ])(
    'a UTR taken before for the AWB, with %s, is refused: a line is never changed',
    async (_name, amount, date, was) => {
      const m = await merchant();
      const [awb] = await shipCod(ctx, m, [300]);
      ctx.clock.set(WEEK_LATER);
      await apply(m.accountId, [[awb!, '300', 'UTR5', '2026-11-27']]);
      const changed = await apply(m.accountId, [[awb!, amount, 'utr5', date]]);
      expect(changed).toMatchObject({ lines: 1, applied: 0, duplicates: 0, problem_count: 1, discrepancies: 0 });
      expect(changed.problems).toEqual([
        { line: 2, awb, reason: `utr UTR5 was already taken in for this AWB with ${was}; a line is never changed` },
      ]);
      expect(await receivables(m.accountId)).toEqual([
        expect.objectContaining({ received_paise: 30000, state: 'reconciled' }),
      ]);
    },
  );

  it("refuses by line an unknown AWB, another account's and a prepaid one, and applies the rest", async () => {
    const m = await merchant();
    const [good] = await shipCod(ctx, m, [500]);
    const [prepaid] = await shipCod(ctx, m, [700], { prepaid: true });
    const stranger = await merchant();
    const [theirs] = await shipCod(ctx, stranger, [800]);
    ctx.clock.set(WEEK_LATER);
    const answer = await apply(m.accountId, [
      ['SFX0000999999', '10', 'UTR1', '2026-11-27'],
      [theirs!, '800', 'UTR1', '2026-11-27'],
      [prepaid!, '700', 'UTR1', '2026-11-27'],
      [good!, '500', 'UTR1', '2026-11-27'],
    ]);
    expect(answer).toMatchObject({ lines: 4, applied: 1, applied_amount: 500, problem_count: 3 });
    expect(answer.problems).toEqual([
      { line: 2, awb: 'SFX0000999999', reason: 'AWB SFX0000999999 not found' },
      { line: 3, awb: theirs, reason: `AWB ${theirs} not found` },
      { line: 4, awb: prepaid, reason: `AWB ${prepaid} is a prepaid shipment: it has no cash on delivery to remit` },
    ]);
    expect(await receivables(stranger.accountId)).toEqual([
      expect.objectContaining({ awb: theirs, received_paise: 0, state: 'pending' }),
    ]);
    expect(await discrepancies(stranger.accountId)).toEqual([]);
  });
});

describe('the overdue check', () => {
  it('flags each pending receivable once, the day after its expected day by India time; paid ones never', async () => {
    // Receivables of earlier tests are due on the same days: flagged first, so the counts are this test's.
    ctx.clock.set('2027-01-01T00:00:00.000Z');
    await ledger.checkOverdue();
    const m = await merchant();
    const [unpaid, paid, short] = await shipCod(ctx, m, [640, 300, 500]);
    ctx.clock.set(WEEK_LATER);
    await apply(m.accountId, [
      [paid!, '300', 'UTR1', '2026-11-27'],
      [short!, '100', 'UTR1', '2026-11-27'],
    ]);
    // 23:59 on the due day, India time (UTC+5:30).
    ctx.clock.set('2026-11-30T18:29:59.000Z');
    expect(await ledger.checkOverdue()).toBe(0);
    ctx.clock.set('2026-11-30T18:30:00.000Z');
    expect(await ledger.checkOverdue()).toBe(1);
    expect(await ledger.checkOverdue()).toBe(0);
    const [missing] = await queryRows(
      ctx.db,
      sql`select kind, awb, expected_paise::float8 as expected, received_paise::float8 as received, expected_date::text as day,
            remittance_id, to_char(detected_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as detected
          from cod_discrepancies where account_id = ${m.accountId} and kind = 'missing_from_remittance'`,
    );
    expect(missing).toEqual({
      kind: 'missing_from_remittance',
      awb: unpaid,
      expected: 64000,
      received: 0,
      day: '2026-11-30',
      remittance_id: null,
      detected: '2026-11-30T18:30:00',
    });
    const announced = await queryRows<{ type: string; subject_type: string; kind: string }>(
      ctx.db,
      sql`select type, subject_type, data->'discrepancy'->>'kind' as kind from events
          where account_id = ${m.accountId} and type = 'cod.discrepancy_found' order by created_at`,
    );
    // The short payment was announced by its import; the missing cash by the check, about the receivable.
    expect(announced).toEqual([
      { type: 'cod.discrepancy_found', subject_type: 'cod_remittance_import', kind: 'short_paid' },
      { type: 'cod.discrepancy_found', subject_type: 'cod_receivable', kind: 'missing_from_remittance' },
    ]);
    // Flagging does not change what is owed: the receivable stays pending until a line pays it.
    expect((await receivables(m.accountId)).find((r) => r.awb === unpaid)).toMatchObject({ state: 'pending' });
  });
});

describe('one account, its own AWBs', () => {
  it("answers each of the account's AWBs once, never another account's, with today from the clock", async () => {
    const m = await merchant();
    const [mine] = await shipCod(ctx, m, [250]);
    const stranger = await merchant();
    const [theirs] = await shipCod(ctx, stranger, [800]);
    ctx.clock.set('2026-12-01T20:00:00.000Z');
    const { rows, today } = await ledger.settlements(m.accountId, [mine!, theirs!, mine!, 'NOPE1']);
    expect(today).toBe('2026-12-02');
    expect([...rows.keys()]).toEqual([mine]);
    expect(rows.get(mine!)).toEqual({
      awb: mine,
      isCod: true,
      codAmountPaise: 25000,
      status: 'delivered',
      state: 'pending',
      amountPaise: 25000,
      receivedPaise: 0,
      expectedDate: '2026-11-30',
      utr: null,
      remittanceDate: null,
    });
  });

  it('an operator may import only for an account that exists', async () => {
    const m = await merchant();
    await expect(ledger.requireAccount(m.accountId)).resolves.toBeUndefined();
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expect(ledger.requireAccount(unknown)).rejects.toMatchObject({
      code: 'remittance_account_not_found',
      kind: 'not_found',
      messages: [`account ${unknown} not found`],
    });
  });
});
