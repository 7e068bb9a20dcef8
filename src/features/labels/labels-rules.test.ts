import { sql } from 'drizzle-orm';
import { asAccount } from '../../../test/kit/actors.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CANCEL, post } from '../../../test/kit/http.js';
import { book } from '../../../test/kit/orders.js';
import { bookReturn } from '../../../test/kit/returns.js';
import { SHADOWFAX } from '../../../test/kit/couriers.js';
import { type UseCaseContext, useCaseContext, scanIntakeDeps } from '../../../test/kit/use-cases.js';
import { createWarehouse } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import { ensureServerSecret } from '../../base/db/secrets.js';
import { createLabelLinks } from '../../domain/shipment/label-links.js';
import { createTrackingService } from '../tracking/tracking.service.js';
import { createLabelsService, type LabelsService } from './labels.service.js';

// The labels service's rules as functions over a seeded database (both engines): which shipment has
// a label to print (none yet, void once cancelled), the re-issue before pickup only and what it
// records, and a link signed before a re-issue refused. The routes' contract is labels-reissue.once.test.ts's
// and labels-bulk.once.test.ts's (the PDFs' contents are labels-pdf.once.test.ts's).

let ctx: UseCaseContext;
let labels: LabelsService;
let apiKey: string;
let accountId: string;
let warehouseId: string;
let ingest: (awb: string) => Promise<unknown>;
beforeAll(async () => {
  ctx = await useCaseContext();
  // As labels.register.ts builds it: links signed with the server's secret.
  const links = createLabelLinks({
    secret: await ensureServerSecret(ctx.db, 'label-links'),
    publicBaseUrl: ctx.settings.server.publicBaseUrl,
    ttlSeconds: ctx.settings.labels.urlTtlSeconds,
    clock: ctx.clock,
  });
  labels = createLabelsService({
    db: ctx.db,
    links,
    catalogue: ctx.rates.catalogue,
    clock: ctx.clock,
    events: ctx.events,
  });
  const tracking = createTrackingService(scanIntakeDeps(ctx));
  ingest = (awb) =>
    tracking.ingest(SHADOWFAX, [
      { awb, status: 'in_transit', sub_status: 'picked_up', event_time: '2026-11-20T09:50:00.000Z' },
    ]);
  ({ apiKey, id: accountId } = await ctx.createAccount());
  warehouseId = await createWarehouse(ctx, apiKey, { name: 'Labels Hub' });
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(() => {
  ctx.clock.set('2026-11-20T10:00:00.000Z');
});

const booked = async () => {
  const b = await book(ctx, apiKey, warehouseId);
  return { id: b.shipment_id, awb: b.awb_code! };
};
const cancelled = async () => {
  const b = await booked();
  expect((await post(ctx, apiKey, CANCEL, { awbs: [b.awb] })).json().results[0].cancelled).toBe(true);
  return b;
};
const unbooked = async () => (await book(ctx, apiKey, warehouseId, {}, false)).shipment_id;

async function labelRow(id: string) {
  const [row] = await queryRows<{ label_version: number; reissued: string | null; printed: string | null }>(
    ctx.db,
    sql`select label_version,
               to_char(label_reissued_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as reissued,
               to_char(label_printed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as printed
        from shipments where id = ${id}`,
  );
  return row!;
}

const PDF = Buffer.from('%PDF');

describe('which shipment has a label (link and pdfFor)', () => {
  it.each([
    [
      'an unknown id',
      async () => ({ ref: '00000000-0000-4000-8000-000000000000' }),
      { code: 'shipment_not_found', kind: 'not_found', messages: ['Shipment not found'] },
    ],
    [
      "another account's AWB",
      async () => {
        const other = await ctx.createAccount();
        const hub = await createWarehouse(ctx, other.apiKey, { name: 'Elsewhere' });
        return { ref: (await book(ctx, other.apiKey, hub)).awb_code! };
      },
      { code: 'shipment_not_found', kind: 'not_found', messages: ['Shipment not found'] },
    ],
    [
      'an order no courier has booked',
      async () => {
        const id = await unbooked();
        return { ref: id, messages: [`Shipment ${id} has no label yet: no courier has given it an AWB`] };
      },
      { code: 'label_not_ready', kind: 'not_found' },
    ],
    [
      'a cancelled shipment',
      async () => {
        const { awb } = await cancelled();
        return { ref: awb, messages: [`Shipment ${awb} was cancelled: its label is void`] };
      },
      { code: 'label_void', kind: 'gone' },
    ],
  ])('refuses %s, for a link and for the PDF alike', async (_name, seed, refusal) => {
    const { ref, messages } = (await seed()) as { ref: string; messages?: string[] };
    const expected = { ...refusal, ...(messages && { messages }) };
    await expect(labels.link(accountId, ref)).rejects.toMatchObject(expected);
    await expect(labels.pdfFor(accountId, ref)).rejects.toMatchObject(expected);
  });

  it('gives a link by id or by AWB, and the PDF, noting the first print once', async () => {
    const { id, awb } = await booked();
    const byId = await labels.link(accountId, id);
    expect(byId).toMatchObject({ shipment_id: id, awb_code: awb });
    expect(byId.label_url.startsWith(`${ctx.settings.server.publicBaseUrl}/`)).toBe(true);
    expect(await labels.link(accountId, awb)).toEqual(byId);
    expect(await labelRow(id)).toEqual({ label_version: 1, reissued: null, printed: null });
    ctx.clock.set('2026-11-20T10:05:00.000Z');
    const pdf = await labels.pdfFor(accountId, awb);
    expect([pdf.awb, pdf.bytes.subarray(0, 4)]).toEqual([awb, PDF]);
    ctx.clock.set('2026-11-20T10:06:00.000Z');
    await labels.pdfFor(accountId, id);
    expect((await labelRow(id)).printed).toBe('2026-11-20T10:05:00.000');
  });
});

describe('reissue', () => {
  it("makes version 2 of a pending shipment's label, records why, and refuses links signed before it", async () => {
    const { id, awb } = await booked();
    ctx.clock.set('2026-11-20T10:10:00.000Z');
    const answer = await labels.reissue(asAccount(accountId), awb, 'address corrected');
    expect(answer).toMatchObject({
      shipment_id: id,
      awb_code: awb,
      label_version: 2,
      reissued_at: '2026-11-20T10:10:00.000Z',
    });
    expect(await labelRow(id)).toEqual({ label_version: 2, reissued: '2026-11-20T10:10:00.000', printed: null });
    const [event] = await queryRows<{
      type: string;
      data: { label_version: number; previous_version: number; reason: string };
    }>(ctx.db, sql`select type, data from events where subject_id = ${id} order by sequence desc limit 1`);
    expect(event!.type).toBe('shipment.label_reissued');
    expect(event!.data).toMatchObject({ label_version: 2, previous_version: 1, reason: 'address corrected' });

    // A link signed a second before the re-issue prints nothing and notes no print; one signed in its second does.
    await expect(labels.render(id, new Date('2026-11-20T10:09:59.999Z'))).rejects.toMatchObject({
      code: 'label_superseded',
      kind: 'gone',
      messages: [`The label of ${awb} was re-issued after this link was made: fetch the new label`],
    });
    expect((await labelRow(id)).printed).toBeNull();
    expect((await labels.render(id, new Date('2026-11-20T10:10:00.000Z')))!.awb).toBe(awb);
    expect((await labels.render(id))!.awb).toBe(awb);
    expect((await labelRow(id)).printed).toBe('2026-11-20T10:10:00.000');

    ctx.clock.set('2026-11-20T10:20:00.000Z');
    expect((await labels.reissue(asAccount(accountId), id, undefined)).label_version).toBe(3);
    const [third] = await queryRows<{ data: { reason: unknown; previous_version: number } }>(
      ctx.db,
      sql`select data from events where subject_id = ${id} order by sequence desc limit 1`,
    );
    expect(third!.data).toMatchObject({ previous_version: 2, reason: null });
  });

  it.each([
    [
      'picked up',
      async () => {
        const b = await booked();
        await ingest(b.awb);
        return { ref: b.awb, id: b.id };
      },
      (awb: string) => ({
        code: 'shipment_past_pickup',
        kind: 'conflict',
        messages: [`Shipment ${awb} is in_transit: a label can be re-issued only before pickup`],
      }),
    ],
    [
      'cancelled',
      async () => {
        const b = await cancelled();
        return { ref: b.awb, id: b.id };
      },
      (awb: string) => ({
        code: 'label_void',
        kind: 'gone',
        messages: [`Shipment ${awb} was cancelled: its label is void`],
      }),
    ],
    [
      'not booked with a courier',
      async () => {
        const id = await unbooked();
        return { ref: id, id };
      },
      (id: string) => ({
        code: 'label_not_ready',
        kind: 'not_found',
        messages: [`Shipment ${id} has no label yet: no courier has given it an AWB`],
      }),
    ],
    [
      'a return',
      async () => {
        const r = await bookReturn(ctx, apiKey, warehouseId);
        return { ref: r.shipment_id, id: r.shipment_id };
      },
      () => ({
        code: 'return_label_not_reissuable',
        kind: 'unprocessable',
        messages: ["A return's label cannot be re-issued: fetch it again with GET /shipments/{id}/label"],
        details: [
          {
            field: 'id',
            message: "A return's label cannot be re-issued: fetch it again with GET /shipments/{id}/label",
          },
        ],
      }),
    ],
  ])('refuses a shipment %s, and records nothing', async (_name, seed, refusal) => {
    const { ref, id } = await seed();
    const [before] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from events where subject_id = ${id}`,
    );
    await expect(labels.reissue(asAccount(accountId), ref, 'why not')).rejects.toMatchObject(refusal(ref));
    const [after] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from events where subject_id = ${id}`,
    );
    expect(Number(after!.n)).toBe(Number(before!.n));
  });
});

describe('bulkPdf', () => {
  it("names every AWB that is not the account's or is void, by its place, and makes no PDF", async () => {
    const good = await booked();
    const gone = await cancelled();
    const problems = [
      { field: 'awbs[1]', message: 'AWB NOPE123 is not a shipment of this account' },
      { field: 'awbs[2]', message: `Shipment ${gone.awb} was cancelled: its label is void` },
      { field: 'awbs[3]', message: `Shipment ${gone.awb} was cancelled: its label is void` },
    ];
    await expect(labels.bulkPdf(accountId, [good.awb, 'NOPE123', gone.awb, gone.awb])).rejects.toMatchObject({
      code: 'bulk_labels_refused',
      kind: 'unprocessable',
      messages: problems.map((p) => p.message),
      details: problems,
    });
    expect((await labelRow(good.id)).printed).toBeNull();
  });

  it('prints a repeated AWB once, and notes each label printed', async () => {
    const a = await booked();
    const b = await booked();
    const answer = await labels.bulkPdf(accountId, [a.awb, b.awb, a.awb]);
    expect([answer.held, answer.pdf.subarray(0, 4)]).toEqual([[], PDF]);
    expect([(await labelRow(a.id)).printed, (await labelRow(b.id)).printed]).toEqual([
      '2026-11-20T10:00:00.000',
      '2026-11-20T10:00:00.000',
    ]);
  });
});
