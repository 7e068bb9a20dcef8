import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, useTestApp } from '../../../test/app.js';
import { eventsSettled } from '../../../test/databases.js';
import {
  admin,
  authed,
  book,
  createCityWarehouse,
  HOUR,
  multipart,
  png,
  post,
  UNKNOWN_ID,
  V1,
} from '../../../test/kit/index.js';

// Weight discrepancies through the API: a courier's report opens them, the merchant accepts or
// disputes (photos and a comment), the operator records the verdict, the window accepts the rest.

const REPORTS = `${V1}/weight-reports`;
const DISPUTES = `${V1}/weight-disputes`;
const DAY = 24 * HOUR;

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
});

/** A merchant with `n` prepaid Shadowfax shipments, Delhi → Mumbai (zone C), 0.5 kg: booked freight ₹42. */
async function merchant(n: number) {
  const account = await ctx.createAccount();
  const warehouseId = await createCityWarehouse(ctx, account.apiKey);
  const awbs: string[] = [];
  for (let i = 0; i < n; i++) awbs.push((await book(ctx, account.apiKey, warehouseId)).awb_code!);
  return { ...account, awbs };
}

const importReport = async (apiKey: string, file: string) => {
  const response = await post(ctx, apiKey, REPORTS, { file });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

async function openOne(apiKey: string, awb: string, grams = 1200) {
  const data = await importReport(apiKey, `awb,charged_weight_g\n${awb},${grams}\n`);
  expect(data.opened).toHaveLength(1);
  return data.opened[0].id as string;
}

const get = (apiKey: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });
/** The discrepancy events of an account, once every transaction that could still add one has ended (PostgreSQL). */
const eventTypes = async (apiKey: string) => {
  await eventsSettled(ctx.database);
  return (
    (await get(apiKey, `${V1}/events?limit=100`)).json().data as {
      type: string;
      data: { weight_discrepancy?: { state: string } };
    }[]
  )
    .filter((e) => e.type.startsWith('shipment.weight_discrepancy_'))
    .map((e) => `${e.type} ${e.data.weight_discrepancy?.state}`);
};

describe('POST /weight-reports', () => {
  let m: Awaited<ReturnType<typeof merchant>>;
  beforeAll(async () => {
    // Well after the other tests' windows, so that their sweeps find none of these.
    ctx.clock.set('2027-01-10T06:30:00.000Z');
    m = await merchant(4);
  });

  it('opens a discrepancy per heavier row, priced on the booked slabs; reports every bad row with its line; the same file again changes nothing', async () => {
    const [a, b, c, d] = m.awbs as [string, string, string, string];
    const file = [
      'awb,charged_weight_g,length_cm,breadth_cm,height_cm',
      `${a},1200,30,20,10`, // 3 slabs at zone C: 42 + 2 × 40 = ₹122, ₹80 over the booked ₹42
      `${b},450,,,`, // lighter than declared: nothing to charge
      '',
      `UNKNOWN123,900`,
      `${c},abc`,
      `${c},501`, // one slab more: ₹40
      `${a},1300`,
      `${d},800,30,,10`,
      `,700`,
    ].join('\n');
    const first = await importReport(m.apiKey, file);
    expect(first).toEqual({
      rows: 8,
      opened: [
        { id: expect.any(String), awb: a, charged_weight: 1200, extra_charge: 80 },
        { id: expect.any(String), awb: c, charged_weight: 501, extra_charge: 40 },
      ],
      unchanged: 0,
      no_extra_charge: 1,
      errors: [
        { line: 5, awb: 'UNKNOWN123', message: 'no shipment with this AWB in this account' },
        { line: 6, awb: c, message: 'charged weight must be a number of grams above 0 and at most 1000000, got "abc"' },
        { line: 8, awb: a, message: 'the AWB is already on line 2 of this file' },
        {
          line: 9,
          awb: d,
          message:
            'length, breadth and height must all be given, each a number of centimetres above 0 and at most 1000',
        },
        { line: 10, awb: null, message: 'awb must be 1 to 64 characters' },
      ],
      error_count: 5,
    });
    const opened = await get(m.apiKey, `${DISPUTES}/${first.opened[0].id}`);
    expect(opened.json().data).toMatchObject({
      awb: a,
      state: 'open',
      declared_weight: 500,
      charged_weight: 1200,
      charged_dimensions: { length: 30, breadth: 20, height: 10 },
      booked_freight: 42,
      charged_freight: 122,
      extra_charge: 80,
      opened_at: '2027-01-10T06:30:00.000Z',
      due_at: '2027-01-17T06:30:00.000Z',
      settled_by: null,
    });

    const again = await importReport(m.apiKey, file);
    expect(again).toEqual({ ...first, opened: [], unchanged: 2 });
    const list = (await get(m.apiKey, DISPUTES)).json();
    expect(list.data.map((row: { awb: string }) => row.awb).sort()).toEqual([a, c].sort());
    expect(await eventTypes(m.apiKey)).toEqual([
      'shipment.weight_discrepancy_opened open',
      'shipment.weight_discrepancy_opened open',
    ]);

    // Another weight for an AWB that already has its discrepancy is refused by line, not applied.
    const other = await importReport(m.apiKey, `awb,charged_weight_g\n${a},2000\n`);
    expect(other.errors).toEqual([
      { line: 2, awb: a, message: 'the shipment already has a weight discrepancy (open) at 1200 g' },
    ]);
  });

  it("reads Delhivery's column names, as JSON or as an uploaded file, and the operator's import for the account", async () => {
    const [, b, , d] = m.awbs as [string, string, string, string];
    const upload = await ctx.app.inject({
      method: 'POST',
      url: REPORTS,
      ...multipart(m.apiKey, [
        {
          name: 'file',
          value: `Waybill,Charged Weight (gm),Length,Breadth,Height\r\n"${b}",1000,25,20,15\r\n`,
          filename: 'report.csv',
          contentType: 'text/csv',
        },
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json().data.opened).toEqual([
      { id: expect.any(String), awb: b, charged_weight: 1000, extra_charge: 40 },
    ]);
    const byOperator = await ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${m.id}/weight-reports`,
      headers: admin,
      payload: { file: `AWB,charged_weight\n${d},1499.5\n` },
    });
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    expect(byOperator.json().data.opened).toEqual([
      { id: expect.any(String), awb: d, charged_weight: 1499.5, extra_charge: 80 },
    ]);
  });

  it('refuses a file it cannot read as a whole (422 naming file), and a missing one (400)', async () => {
    const noColumns = await post(ctx, m.apiKey, REPORTS, { file: 'tracking,kg\nX,1\n' });
    expect(noColumns.statusCode).toBe(422);
    expect(noColumns.json().details).toEqual([{ field: 'file', message: expect.stringContaining('AWB column') }]);
    const open = await post(ctx, m.apiKey, REPORTS, { file: 'awb,charged_weight_g\n"X,1\n' });
    expect(open.statusCode).toBe(422);
    expect(open.json().errors).toEqual(['a quoted cell opened on line 2 is never closed']);
    expect((await post(ctx, m.apiKey, REPORTS, {})).statusCode).toBe(400);
  });
});

describe('a discrepancy from open to settled', () => {
  let m: Awaited<ReturnType<typeof merchant>>;
  const ids: string[] = [];
  beforeAll(async () => {
    ctx.clock.set('2026-11-20T06:30:00.000Z');
    m = await merchant(4);
    for (const awb of m.awbs) ids.push(await openOne(m.apiKey, awb));
  });
  const outcome = (id: string, body: object, accountId = m.id) =>
    ctx.app.inject({
      method: 'POST',
      url: `/admin/v1/accounts/${accountId}/weight-disputes/${id}/outcome`,
      headers: admin,
      payload: body,
    });
  const dispute = (id: string, body: object) => post(ctx, m.apiKey, `${DISPUTES}/${id}/dispute`, body);

  it('accepted by the merchant: charged, and only once', async () => {
    ctx.clock.set('2026-11-21T06:30:00.000Z');
    const accepted = await post(ctx, m.apiKey, `${DISPUTES}/${ids[0]}/accept`, undefined);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toMatchObject({
      state: 'accepted',
      settled_by: 'merchant',
      settled_at: '2026-11-21T06:30:00.000Z',
    });
    const twice = await post(ctx, m.apiKey, `${DISPUTES}/${ids[0]}/accept`, undefined);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('discrepancy_not_open');
    expect(twice.json().errors).toEqual(['the discrepancy is accepted: only an open one can be accepted']);
    expect((await dispute(ids[0]!, { comment: 'late', images: [png().toString('base64')] })).statusCode).toBe(409);
  });

  it('disputed with photos and a comment, then won: the adjustment is waived', async () => {
    const photo = png(300);
    const disputed = await ctx.app.inject({
      method: 'POST',
      url: `${DISPUTES}/${ids[1]}/dispute`,
      ...multipart(m.apiKey, [
        { name: 'comment', value: 'Weighed 480 g at packing; photo attached.' },
        { name: 'images', value: photo, filename: 'scale.png', contentType: 'image/png' },
        { name: 'images', value: png(200), filename: 'box.png', contentType: 'image/png' },
      ]),
    });
    expect(disputed.statusCode, disputed.body).toBe(200);
    const data = disputed.json().data;
    expect(data).toMatchObject({
      state: 'disputed',
      comment: 'Weighed 480 g at packing; photo attached.',
      disputed_at: '2026-11-21T06:30:00.000Z',
      settled_at: null,
    });
    expect(
      data.evidence.map((e: { position: number; size: number; content_type: string }) => [
        e.position,
        e.size,
        e.content_type,
      ]),
    ).toEqual([
      [1, 300, 'image/png'],
      [2, 200, 'image/png'],
    ]);
    const image = await get(m.apiKey, data.evidence[0].url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(photo)).toBe(true);
    expect((await post(ctx, m.apiKey, `${DISPUTES}/${ids[1]}/accept`, undefined)).statusCode).toBe(409);

    const won = await outcome(ids[1]!, { outcome: 'won', resolution: 'The courier accepted the photos.' });
    expect(won.statusCode, won.body).toBe(200);
    expect(won.json().data).toMatchObject({
      state: 'won',
      settled_by: 'operator',
      resolution: 'The courier accepted the photos.',
    });
    expect((await outcome(ids[1]!, { outcome: 'lost' })).statusCode).toBe(409);
  });

  it('disputed in JSON, then lost: charged', async () => {
    const disputed = await dispute(ids[2]!, { comment: 'Box was 20x15x10.', images: png().toString('base64') });
    expect(disputed.statusCode, disputed.body).toBe(200);
    const lost = await outcome(ids[2]!, { outcome: 'lost' });
    expect(lost.json().data).toMatchObject({ state: 'lost', settled_by: 'operator', resolution: null });
    expect((await outcome(ids[3]!, { outcome: 'won' })).statusCode).toBe(409);
    expect((await outcome(ids[3]!, { outcome: 'draw' })).statusCode).toBe(400);
    // The verdict is given per account: under another account's id the discrepancy does not exist.
    const other = await ctx.createAccount();
    expect((await outcome(ids[2]!, { outcome: 'won' }, other.id)).statusCode).toBe(404);
  });

  it('accepted by the window once it has run out, by the sweeper; a dispute after it is refused', async () => {
    ctx.clock.set('2026-11-27T06:29:59.000Z');
    expect(await ctx.app.weightDisputeSweeper.runOnce()).toBe(0);
    ctx.clock.set('2026-11-27T06:30:00.000Z');
    const late = await dispute(ids[3]!, { comment: 'Too late?', images: [png().toString('base64')] });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('dispute_window_closed');
    expect(late.json().errors).toEqual([
      'the dispute window closed at 2026-11-27T06:30:00.000Z: the charge is accepted',
    ]);
    expect(await ctx.app.weightDisputeSweeper.runOnce()).toBe(1);
    expect((await get(m.apiKey, `${DISPUTES}/${ids[3]}`)).json().data).toMatchObject({
      state: 'accepted',
      settled_by: 'window',
      settled_at: '2026-11-27T06:30:00.000Z',
    });
    expect(await ctx.app.weightDisputeSweeper.runOnce()).toBe(0);
  });

  it('records an event for each step, which the listing filters by state', async () => {
    expect((await eventTypes(m.apiKey)).sort()).toEqual(
      [
        ...Array(4).fill('shipment.weight_discrepancy_opened open'),
        'shipment.weight_discrepancy_accepted accepted',
        'shipment.weight_discrepancy_disputed disputed',
        'shipment.weight_discrepancy_resolved won',
        'shipment.weight_discrepancy_disputed disputed',
        'shipment.weight_discrepancy_resolved lost',
        'shipment.weight_discrepancy_accepted accepted',
      ].sort(),
    );
    const accepted = (await get(m.apiKey, `${DISPUTES}?state=accepted&state=won`)).json().data as { id: string }[];
    expect(accepted.map((d) => d.id).sort()).toEqual([ids[0], ids[1], ids[3]].sort());
  });

  it("is another account's 404 on every route", async () => {
    const other = await ctx.createAccount();
    for (const url of [`${DISPUTES}/${ids[1]}`, `${DISPUTES}/${ids[1]}/evidence/1`, `${DISPUTES}/${UNKNOWN_ID}`]) {
      expect((await get(other.apiKey, url)).statusCode, url).toBe(404);
    }
    expect((await post(ctx, other.apiKey, `${DISPUTES}/${ids[3]}/accept`, undefined)).statusCode).toBe(404);
    expect(
      (
        await post(ctx, other.apiKey, `${DISPUTES}/${ids[3]}/dispute`, {
          comment: 'x',
          images: [png().toString('base64')],
        })
      ).statusCode,
    ).toBe(404);
    expect((await get(other.apiKey, DISPUTES)).json()).toEqual({ data: [], next_cursor: null });
    // The other account's report naming these AWBs finds none of them.
    const report = await importReport(other.apiKey, `awb,charged_weight_g\n${m.awbs[0]},5000\n`);
    expect(report.errors).toEqual([{ line: 2, awb: m.awbs[0], message: 'no shipment with this AWB in this account' }]);
  });
});

describe('evidence limits', () => {
  let m: Awaited<ReturnType<typeof merchant>>;
  let id: string;
  beforeAll(async () => {
    ctx.clock.set('2026-12-01T06:30:00.000Z');
    m = await merchant(1);
    id = await openOne(m.apiKey, m.awbs[0]!);
  });
  const send = (parts: Parameters<typeof multipart>[1]) =>
    ctx.app.inject({
      method: 'POST',
      url: `${DISPUTES}/${id}/dispute`,
      ...multipart(m.apiKey, [{ name: 'comment', value: 'See photos' }, ...parts]),
    });
  const image = (value: Buffer, i = 0) => ({ name: 'images', value, filename: `p${i}.png`, contentType: 'image/png' });

  it('refuses a sixth image, an image over 2 MiB, and a file that is not an image; the discrepancy stays open', async () => {
    const six = await send([0, 1, 2, 3, 4, 5].map((i) => image(png(), i)));
    expect(six.statusCode).toBe(400);
    expect(six.json().details).toEqual([{ field: 'images', message: 'images must be 1 to 5 images' }]);

    const big = await send([image(png(2 * 1024 * 1024 + 1))]);
    expect(big.statusCode, big.body).toBe(422);
    expect(big.json().details).toEqual([
      { field: 'images', message: 'images must be at most 2 MiB (2097152 bytes) a file' },
    ]);
    const seven = await send([0, 1, 2, 3, 4, 5, 6].map((i) => image(png(), i)));
    expect(seven.statusCode, seven.body).toBe(400);
    expect(seven.json().details).toEqual([{ field: 'images', message: 'images must be 1 to 5 images' }]);

    const text = await send([image(Buffer.from('%PDF-1.4 not an image'))]);
    expect(text.statusCode).toBe(422);
    expect(text.json().details).toEqual([
      { field: 'images/0', message: 'images/0 must be a PNG, JPEG, WebP or GIF image' },
    ]);

    const json = await post(ctx, m.apiKey, `${DISPUTES}/${id}/dispute`, {
      comment: 'x',
      images: [png(2 * 1024 * 1024 + 1).toString('base64')],
    });
    expect(json.statusCode).toBe(422);
    expect(json.json().details).toEqual([
      { field: 'images/0', message: 'images/0 must be at most 2 MiB (2097152 bytes)' },
    ]);
    expect((await post(ctx, m.apiKey, `${DISPUTES}/${id}/dispute`, { comment: 'x', images: [] })).statusCode).toBe(400);
    const all = await post(ctx, m.apiKey, `${DISPUTES}/${id}/dispute`, {
      comment: '   ',
      images: [png().toString('base64'), 'not base64!', 'AAAA'],
    });
    expect(all.statusCode).toBe(422);
    expect(all.json().details).toEqual([
      { field: 'images/1', message: 'images/1 must be a file upload or a base64-encoded image' },
      { field: 'images/2', message: 'images/2 must be a PNG, JPEG, WebP or GIF image' },
      { field: 'comment', message: 'comment must say why the charged weight is wrong' },
    ]);

    expect((await get(m.apiKey, `${DISPUTES}/${id}`)).json().data).toMatchObject({ state: 'open', evidence: [] });
    const five = await send([0, 1, 2, 3, 4].map((i) => image(png(2 * 1024 * 1024), i)));
    expect(five.statusCode, five.body).toBe(200);
    expect(five.json().data.evidence).toHaveLength(5);
  });
});

describe('GET /weight-disputes', () => {
  it('pages with a cursor, filters by state, courier and day, and refuses a cursor it did not write', async () => {
    ctx.clock.set('2026-12-05T06:30:00.000Z');
    const m = await merchant(5);
    const ids: string[] = [];
    for (const awb of m.awbs) {
      ids.push(await openOne(m.apiKey, awb));
      ctx.clock.advance(DAY);
    }
    const seen: string[] = [];
    let url = `${DISPUTES}?limit=2`;
    for (let pages = 0; pages < 3; pages++) {
      const page = (await get(m.apiKey, url)).json();
      seen.push(...page.data.map((d: { id: string }) => d.id));
      if (pages < 2) url = `${DISPUTES}?limit=2&cursor=${page.next_cursor}`;
      else expect(page.next_cursor).toBeNull();
    }
    expect(seen).toEqual([...ids].reverse());
    const days = (await get(m.apiKey, `${DISPUTES}?from=2026-12-06&to=2026-12-07&carrier_id=CARSHFXSTD001`)).json()
      .data;
    expect(days.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect((await get(m.apiKey, `${DISPUTES}?carrier_id=CARDTDCSTD001`)).json().data).toEqual([]);
    const bad = await get(m.apiKey, `${DISPUTES}?cursor=abc&from=2026-02-30`);
    expect(bad.statusCode).toBe(400);
    expect((await get(m.apiKey, `${DISPUTES}?cursor=abc`)).json().details).toEqual([
      { field: 'cursor', message: 'cursor must be a next_cursor this listing answered' },
    ]);
    expect((await get(m.apiKey, `${DISPUTES}?state=closed`)).statusCode).toBe(400);
  });

  it('exports CSV with formula-like cells neutralised', async () => {
    ctx.clock.set('2026-12-20T06:30:00.000Z');
    const m = await merchant(1);
    const id = await openOne(m.apiKey, m.awbs[0]!);
    const comment = '=HYPERLINK("http://evil.example","click"), -2+3, @SUM(A1)';
    expect(
      (await post(ctx, m.apiKey, `${DISPUTES}/${id}/dispute`, { comment, images: [png().toString('base64')] }))
        .statusCode,
    ).toBe(200);
    const csv = await get(m.apiKey, `${DISPUTES}?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe(
      'awb,carrier_id,state,declared_weight_g,charged_weight_g,booked_freight,charged_freight,extra_charge,opened_at,due_at,disputed_at,settled_by,settled_at,comment,resolution\r\n' +
        `${m.awbs[0]},CARSHFXSTD001,disputed,500,1200,42.00,122.00,80.00,2026-12-20T06:30:00.000Z,2026-12-27T06:30:00.000Z,2026-12-20T06:30:00.000Z,,,` +
        `"'=HYPERLINK(""http://evil.example"",""click""), -2+3, @SUM(A1)",\r\n`,
    );
  });
});

it('needs a credential', async () => {
  expect((await ctx.app.inject({ method: 'GET', url: DISPUTES })).statusCode).toBe(401);
  expect(
    (
      await ctx.app.inject({
        method: 'POST',
        url: '/admin/v1/accounts/00000000-0000-4000-8000-000000000000/weight-reports',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}x` },
        payload: { file: 'awb,charged_weight_g\n' },
      })
    ).statusCode,
  ).toBe(401);
});
