import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, V1 } from '../../../test/kit/http.js';
import { png } from '../../../test/kit/images.js';
import { book } from '../../../test/kit/orders.js';
import { type UseCaseContext, useCaseContext } from '../../../test/kit/use-cases.js';
import { createCityWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { createWeightDisputesService, type WeightDisputesService } from './weight-disputes.service.js';

// The weight-disputes service's rules as functions over a seeded database (both engines): which
// state allows which step (accept, dispute, the operator's verdict), the dispute window to the
// millisecond and its sweep, the evidence a dispute needs, and the event each step records. The
// routes' contract (uploads, the report import, listings) is weight-disputes.once.test.ts's.

let ctx: UseCaseContext;
let disputes: WeightDisputesService;
const DAY = 24 * 3_600_000;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As charges.register.ts builds it.
  disputes = createWeightDisputesService({
    db: ctx.db,
    clock: ctx.clock,
    catalogue: ctx.rates.catalogue,
    events: ctx.events,
    windowDays: ctx.settings.charges.disputeWindowDays,
  });
});
afterAll(async () => {
  await ctx.close();
});

const OPENED = '2026-11-20T06:30:00.000Z';
const PHOTO = png().toString('base64');

/** A new account with one booked shipment, and the discrepancy a courier's report opened on it at OPENED. */
async function discrepancy() {
  ctx.clock.set(OPENED);
  const account = await ctx.createAccount();
  const awb = (await book(ctx, account.apiKey, await createCityWarehouse(ctx, account.apiKey))).awb_code!;
  const response = await post(ctx, account.apiKey, `${V1}/weight-reports`, {
    file: `awb,charged_weight_g\n${awb},1200\n`,
  });
  expect(response.statusCode, response.body).toBe(200);
  const id = response.json().data.opened[0].id as string;
  return { accountId: account.id, id, awb };
}

async function steps(id: string) {
  const rows = await queryRows<{ type: string; state: string }>(
    ctx.db,
    sql`select e.type, e.data->'weight_discrepancy'->>'state' as state from events e
        join weight_discrepancies d on d.shipment_id = e.subject_id
        where d.id = ${id} and e.type like 'shipment.weight_discrepancy_%' order by e.sequence`,
  );
  return rows.map((r) => `${r.type} ${r.state}`);
}

type Step = 'accept' | 'dispute' | 'won' | 'lost';
const run = (step: Step, accountId: string, id: string) => {
  switch (step) {
    case 'accept':
      return disputes.accept(asAccount(accountId), id);
    case 'dispute':
      return disputes.dispute(asAccount(accountId), id, { comment: 'Packed at 480 g', images: [PHOTO] });
    default:
      return disputes.resolve(accountId, id, step, undefined);
  }
};

const NOT_OPEN = (state: string, verb: string) => ({
  code: 'discrepancy_not_open',
  kind: 'conflict',
  messages: [`the discrepancy is ${state}: only an open one can be ${verb}`],
});
const NOT_DISPUTED = (state: string) => ({
  code: 'discrepancy_not_disputed',
  kind: 'conflict',
  messages: [`the discrepancy is ${state}: only a disputed one can be won or lost`],
});

describe('which state allows which step', () => {
  const cases: [string, Step[], Step, object | string][] = [
    ['open', [], 'accept', 'accepted'],
    ['open', [], 'dispute', 'disputed'],
    ['open', [], 'won', NOT_DISPUTED('open')],
    ['open', [], 'lost', NOT_DISPUTED('open')],
    ['accepted', ['accept'], 'accept', NOT_OPEN('accepted', 'accepted')],
    ['accepted', ['accept'], 'dispute', NOT_OPEN('accepted', 'disputed')],
    ['accepted', ['accept'], 'won', NOT_DISPUTED('accepted')],
    ['disputed', ['dispute'], 'accept', NOT_OPEN('disputed', 'accepted')],
    ['disputed', ['dispute'], 'dispute', NOT_OPEN('disputed', 'disputed')],
    ['disputed', ['dispute'], 'won', 'won'],
    ['disputed', ['dispute'], 'lost', 'lost'],
    ['won', ['dispute', 'won'], 'lost', NOT_DISPUTED('won')],
    ['won', ['dispute', 'won'], 'accept', NOT_OPEN('won', 'accepted')],
    ['lost', ['dispute', 'lost'], 'won', NOT_DISPUTED('lost')],
    ['lost', ['dispute', 'lost'], 'dispute', NOT_OPEN('lost', 'disputed')],
  ];

  it.each(cases)('%s, then %s → %j', async (_state, before, step, outcome) => {
    const { accountId, id } = await discrepancy();
    ctx.clock.set('2026-11-21T06:30:00.000Z');
    for (const earlier of before) await run(earlier, accountId, id);
    const recorded = await steps(id);
    ctx.clock.set('2026-11-22T06:30:00.000Z');
    if (typeof outcome === 'object') {
      await expect(run(step, accountId, id)).rejects.toMatchObject(outcome);
      expect(await steps(id)).toEqual(recorded);
      return;
    }
    const view = await run(step, accountId, id);
    expect(view.state).toBe(outcome);
    expect(await disputes.get(accountId, id)).toEqual(view);
    const type = {
      accepted: 'shipment.weight_discrepancy_accepted',
      disputed: 'shipment.weight_discrepancy_disputed',
      won: 'shipment.weight_discrepancy_resolved',
      lost: 'shipment.weight_discrepancy_resolved',
    }[outcome];
    expect(await steps(id)).toEqual([...recorded, `${type} ${outcome}`]);
  });

  it('records who settled and when, and the trimmed verdict (a blank one is none)', async () => {
    const a = await discrepancy();
    ctx.clock.set('2026-11-21T08:00:00.000Z');
    expect(await disputes.accept(asAccount(a.accountId), a.id)).toMatchObject({
      state: 'accepted',
      settled_by: 'merchant',
      settled_at: '2026-11-21T08:00:00.000Z',
      disputed_at: null,
    });
    const b = await discrepancy();
    ctx.clock.set('2026-11-21T09:00:00.000Z');
    expect(
      await disputes.dispute(asAccount(b.accountId), b.id, { comment: '  Packed at 480 g  ', images: PHOTO }),
    ).toMatchObject({
      state: 'disputed',
      comment: 'Packed at 480 g',
      disputed_at: '2026-11-21T09:00:00.000Z',
      settled_by: null,
      evidence: [{ position: 1, content_type: 'image/png' }],
    });
    ctx.clock.set('2026-11-25T09:00:00.000Z');
    expect(await disputes.resolve(b.accountId, b.id, 'won', '  Courier re-weighed: 0.5 kg ')).toMatchObject({
      state: 'won',
      settled_by: 'operator',
      settled_at: '2026-11-25T09:00:00.000Z',
      resolution: 'Courier re-weighed: 0.5 kg',
    });
    const c = await discrepancy();
    await disputes.dispute(asAccount(c.accountId), c.id, { comment: 'x', images: [PHOTO] });
    expect((await disputes.resolve(c.accountId, c.id, 'lost', '   ')).resolution).toBeNull();
  });

  it("answers another account's discrepancy as an unknown one, at every step", async () => {
    const { id } = await discrepancy();
    const other = await ctx.createAccount();
    const notFound = { code: 'weight_discrepancy_not_found', kind: 'not_found' };
    for (const step of ['accept', 'dispute', 'won'] as const)
      await expect(run(step, other.id, id)).rejects.toMatchObject(notFound);
    await expect(disputes.get(other.id, id)).rejects.toMatchObject(notFound);
  });
});

describe('the dispute window', () => {
  it('is the configured days from the report, to the millisecond', async () => {
    const { accountId, id } = await discrepancy();
    const due = new Date(Date.parse(OPENED) + ctx.settings.charges.disputeWindowDays * DAY).toISOString();
    expect((await disputes.get(accountId, id)).due_at).toBe(due);
    ctx.clock.set(due);
    await expect(run('dispute', accountId, id)).rejects.toMatchObject({
      code: 'dispute_window_closed',
      kind: 'conflict',
      messages: [`the dispute window closed at ${due}: the charge is accepted`],
    });
    expect((await disputes.get(accountId, id)).state).toBe('open');
    ctx.clock.set(new Date(Date.parse(due) - 1).toISOString());
    expect((await run('dispute', accountId, id)).state).toBe('disputed');
  });

  it('the merchant may still accept after the window, before the sweep does', async () => {
    const { accountId, id } = await discrepancy();
    ctx.clock.set(new Date(Date.parse(OPENED) + 30 * DAY).toISOString());
    expect(await disputes.accept(asAccount(accountId), id)).toMatchObject({
      state: 'accepted',
      settled_by: 'merchant',
    });
  });

  it('the sweep accepts an open discrepancy once its window has run out, as the window, and leaves a disputed one', async () => {
    const open = await discrepancy();
    const disputed = await discrepancy();
    await run('dispute', disputed.accountId, disputed.id);
    const due = Date.parse((await disputes.get(open.accountId, open.id)).due_at);
    ctx.clock.set(new Date(due - 1).toISOString());
    await disputes.acceptDue();
    expect((await disputes.get(open.accountId, open.id)).state).toBe('open');
    ctx.clock.set(new Date(due).toISOString());
    expect(await disputes.acceptDue()).toBeGreaterThanOrEqual(1);
    expect(await disputes.get(open.accountId, open.id)).toMatchObject({
      state: 'accepted',
      settled_by: 'window',
      settled_at: new Date(due).toISOString(),
    });
    expect((await disputes.get(disputed.accountId, disputed.id)).state).toBe('disputed');
    expect(await steps(open.id)).toEqual([
      'shipment.weight_discrepancy_opened open',
      'shipment.weight_discrepancy_accepted accepted',
    ]);
    // A second sweep finds nothing of it to do.
    await disputes.acceptDue();
    expect((await steps(open.id)).length).toBe(2);
  });
});

describe("a dispute's evidence", () => {
  it.each([
    [
      'no image',
      { comment: 'why', images: [] as string[] },
      [{ field: 'images', message: 'images must hold 1 to 5 photos of the packed parcel' }],
    ],
    [
      'six images',
      { comment: 'why', images: Array(6).fill(PHOTO) },
      [{ field: 'images', message: 'images must hold 1 to 5 photos of the packed parcel' }],
    ],
    [
      'a blank comment and a file that is not an image, together',
      { comment: '   ', images: [PHOTO, Buffer.from('hello, not a picture').toString('base64')] },
      [
        { field: 'images/1', message: 'images/1 must be a PNG, JPEG, WebP or GIF image' },
        { field: 'comment', message: 'comment must say why the charged weight is wrong' },
      ],
    ],
  ])('refuses %s, and the discrepancy stays open', async (_name, input, details) => {
    const { accountId, id } = await discrepancy();
    await expect(disputes.dispute(asAccount(accountId), id, input)).rejects.toMatchObject({
      code: 'dispute_evidence_invalid',
      kind: 'unprocessable',
      messages: details.map((d) => d.message),
      details,
    });
    expect(await disputes.get(accountId, id)).toMatchObject({ state: 'open', evidence: [], comment: null });
  });
});
