import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { SHADOWFAX } from './kit/couriers.js';
import { authed, CANCEL, post, SHIPMENTS, V1 } from './kit/http.js';
import { invoicingStore, validGstin } from './kit/invoices.js';
import { popplerRead } from './kit/labels.js';
import { boxedOrderBody, orchestrate, type OrderPayload } from './kit/orders.js';
import { createWarehouse } from './kit/warehouses.js';

// A multi-piece shipment's paperwork by a box's own AWB (docs/paperwork.md, "A box's own AWB"), on
// both engines: box 2's AWB prints box 2's label page alone (read back with pdftotext), re-issues
// the shipment's label, prints the shipment's one invoice and puts the shipment on a pickup; another
// account's box AWB is refused as any unknown AWB.

let ctx: TestContext;
let owner: { apiKey: string; warehouseId: string };
let stranger: { apiKey: string; warehouseId: string };

beforeAll(async () => {
  ctx = await createTestApp();
  const account = await ctx.createAccount('Box Paperwork');
  owner = { apiKey: account.apiKey, warehouseId: await createWarehouse(ctx, account.apiKey) };
  await invoicingStore(ctx, owner.apiKey, 'acme', { gstin: validGstin('07') });
  const other = await ctx.createAccount('Box Paperwork Other');
  stranger = { apiKey: other.apiKey, warehouseId: await createWarehouse(ctx, other.apiKey) };
});
afterAll(async () => {
  await ctx?.close();
});

type Booked = OrderPayload & { boxes: { awb: string }[] };
interface InBoxes {
  booked: Booked;
  orderId: string;
  master: string;
  box2: string;
}

async function bookInBoxes(who: { apiKey: string; warehouseId: string }, overrides: Record<string, unknown> = {}) {
  const body = boxedOrderBody(who.warehouseId, overrides);
  const booked = (await orchestrate(ctx, who.apiKey, body)) as Booked;
  const [master, box2] = booked.boxes.map((box) => box.awb) as [string, string];
  expect(master).toBe(booked.awb_code);
  return { booked, orderId: body.order_id as string, master, box2 } satisfies InBoxes;
}

const linesOf = (page: string) =>
  page
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
/** Which box each page of a label PDF is: its AWB line and its "Box n of N" line. */
async function pagesOf(pdf: Buffer) {
  const read = await popplerRead(pdf);
  return read.pageTexts.map((text) => linesOf(text).filter((line) => /^(AWB |Box \d+ of )/.test(line)));
}
const boxPage = (awb: string, n: number, master: string) => [`AWB ${awb}`, `Box ${n} of 2 · Master AWB ${master}`];
const getAs = (apiKey: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: authed(apiKey) });

describe('labels by a box AWB', () => {
  let s: InBoxes;
  let theirs: InBoxes;
  beforeAll(async () => {
    s = await bookInBoxes(owner);
    theirs = await bookInBoxes(stranger);
  });

  it("POST /labels prints that box's page alone; with its master AWB, every box once", async () => {
    const alone = await post(ctx, owner.apiKey, `${V1}/labels`, { awbs: [s.box2] });
    expect(alone.statusCode, alone.body).toBe(200);
    expect(alone.headers['content-disposition']).toBe('inline; filename="labels-1.pdf"');
    expect(await pagesOf(alone.rawPayload)).toEqual([boxPage(s.box2, 2, s.master)]);

    const both = await post(ctx, owner.apiKey, `${V1}/labels`, { awbs: [s.box2, s.master] });
    expect(both.statusCode, both.body).toBe(200);
    expect(await pagesOf(both.rawPayload)).toEqual([boxPage(s.master, 1, s.master), boxPage(s.box2, 2, s.master)]);
  });

  it("refuses another account's box AWB as any unknown AWB, and makes no PDF", async () => {
    const response = await post(ctx, owner.apiKey, `${V1}/labels`, { awbs: [s.box2, theirs.box2] });
    expect(response.statusCode).toBe(422);
    const message = `AWB ${theirs.box2} is not a shipment of this account`;
    expect(response.json()).toEqual({
      code: 'bulk_labels_refused',
      message,
      errors: [message],
      details: [{ field: 'awbs[1]', message }],
    });
  });

  it("GET /shipments/{box AWB}/label: the PDF is the box's page, the JSON the shipment's link", async () => {
    const pdf = await getAs(owner.apiKey, `${SHIPMENTS}/${s.box2}/label?format=pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="label-${s.box2}.pdf"`);
    expect(await pagesOf(pdf.rawPayload)).toEqual([boxPage(s.box2, 2, s.master)]);

    const link = await getAs(owner.apiKey, `${SHIPMENTS}/${s.box2}/label`);
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toEqual({
      shipment_id: s.booked.shipment_id,
      awb_code: s.master,
      label_url: expect.stringContaining(`/public/v1/labels/${s.booked.shipment_id}?expires=`),
      expires_at: expect.any(String),
    });
    const viaLink = await ctx.app.inject({
      method: 'GET',
      url: new URL(link.json().label_url).pathname + new URL(link.json().label_url).search,
    });
    expect(await pagesOf(viaLink.rawPayload)).toEqual([boxPage(s.master, 1, s.master), boxPage(s.box2, 2, s.master)]);

    const another = await getAs(owner.apiKey, `${SHIPMENTS}/${theirs.box2}/label?format=pdf`);
    expect(another.statusCode).toBe(404);
    expect(another.json().code).toBe('shipment_not_found');
  });

  it("re-issues the shipment's label by a box AWB: one version for every box", async () => {
    const reissued = await post(ctx, owner.apiKey, `${SHIPMENTS}/${s.box2}/label/reissue`, {});
    expect(reissued.statusCode, reissued.body).toBe(200);
    expect(reissued.json()).toMatchObject({ shipment_id: s.booked.shipment_id, awb_code: s.master, label_version: 2 });
    const pdf = await getAs(owner.apiKey, `${SHIPMENTS}/${s.box2}/label?format=pdf`);
    expect(linesOf((await popplerRead(pdf.rawPayload)).pageTexts[0]!)).toContain(
      'Label 2, re-issued 2026-11-20 12:00 IST',
    );
  });

  it("refuses a cancelled shipment's box label as void", async () => {
    const gone = await bookInBoxes(owner);
    expect((await post(ctx, owner.apiKey, CANCEL, { awbs: [gone.master] })).json().results[0].cancelled).toBe(true);
    const response = await post(ctx, owner.apiKey, `${V1}/labels`, { awbs: [gone.box2] });
    expect(response.statusCode).toBe(422);
    const message = `Box 2 (${gone.box2}) of shipment ${gone.master} was cancelled: its label is void`;
    expect(response.json()).toEqual({
      code: 'bulk_labels_refused',
      message,
      errors: [message],
      details: [{ field: 'awbs[0]', message }],
    });
  });
});

describe('the invoice by a box AWB', () => {
  it("is the shipment's one invoice: as JSON, after the box's label, and once in a print run", async () => {
    const s = await bookInBoxes(owner, { store_name: 'acme' });
    const json = await getAs(owner.apiKey, `${SHIPMENTS}/${s.box2}/invoice`);
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json()).toMatchObject({
      shipment_id: s.booked.shipment_id,
      awb_code: s.master,
      order_id: s.orderId,
      invoice_number: 'ACME/26-27/00001',
    });

    const withLabel = await getAs(owner.apiKey, `${SHIPMENTS}/${s.box2}/label?include=invoice`);
    expect(withLabel.statusCode, withLabel.body).toBe(200);
    const read = await popplerRead(withLabel.rawPayload);
    expect(read.pages).toBe(2);
    expect(linesOf(read.pageTexts[0]!).filter((line) => /^(AWB |Box \d+ of )/.test(line))).toEqual(
      boxPage(s.box2, 2, s.master),
    );
    expect(read.pageTexts[1]).toContain('Invoice No. ACME/26-27/00001');

    const run = await post(ctx, owner.apiKey, `${V1}/invoices`, { awbs: [s.box2, s.master] });
    expect(run.statusCode, run.body).toBe(200);
    const printed = await popplerRead(run.rawPayload);
    expect(printed.pages).toBe(1);
    expect(printed.pageTexts[0]).toContain('ACME/26-27/00001');
    expect(printed.pageTexts[0]).toContain(s.master);

    const theirs = await bookInBoxes(stranger);
    const refused = await post(ctx, owner.apiKey, `${V1}/invoices`, { awbs: [theirs.box2] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details).toEqual([{ field: 'awbs[0]', message: `${theirs.box2}: Shipment not found` }]);
  });
});

describe('a pickup by a box AWB', () => {
  it("takes the whole shipment once, listed by its master AWB; another account's box is not found", async () => {
    const s = await bookInBoxes(owner, { carrier_id: SHADOWFAX });
    const theirs = await bookInBoxes(stranger, { carrier_id: SHADOWFAX });
    const body = { warehouse_id: owner.warehouseId, carrier_id: SHADOWFAX };
    const refused = await post(ctx, owner.apiKey, `${V1}/pickups`, { ...body, awbs: [s.box2, theirs.box2] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'pickup_parcels_refused',
      errors: [`AWB ${theirs.box2} not found`],
      details: [{ field: 'awbs[1]', message: `AWB ${theirs.box2} not found` }],
    });

    const made = await post(ctx, owner.apiKey, `${V1}/pickups`, { ...body, awbs: [s.box2, s.master] });
    expect(made.statusCode, made.body).toBe(201);
    const pickup = made.json().data;
    expect(pickup.parcels).toBe(1);
    expect(pickup.shipments).toEqual([
      {
        awb: s.master,
        order_id: s.orderId,
        weight: s.booked.applied_weight,
        cod_amount: 0,
        status: 'pending',
        picked_up: false,
      },
    ]);
  });
});
