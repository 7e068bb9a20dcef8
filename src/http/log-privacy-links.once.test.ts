import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { ORCHESTRATE, post } from '../../test/kit/http.js';
import { labelPath } from '../../test/kit/labels.js';
import { orderBodyFromFields } from '../../test/kit/orders.js';
import { SHADOWFAX } from '../../test/kit/couriers.js';
import { createCityWarehouse } from '../../test/kit/warehouses.js';
import { privateLogger, REDACTED, urlForLog } from './log-privacy.js';

// Issue 24, point 6: label links and tracking-page links are bearer links to a customer's parcel
// for 24 hours, and every request line logged them whole. A booking, its label through the signed
// link and its tracking page through the token: the log keeps the routes and none of the secrets.

let ctx: TestContext;
const lines: string[] = [];
beforeAll(async () => {
  ctx = await createTestApp({ logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } });
});
afterAll(async () => {
  await ctx.close();
});

describe('capability links stay out of the request log', () => {
  it('books, fetches the label through its signed link and the tracking page through its token: no token or signature is logged', async () => {
    const { apiKey } = await ctx.createAccount();
    const warehouseId = await createCityWarehouse(ctx, apiKey);
    const booking = await post(ctx, apiKey, ORCHESTRATE, orderBodyFromFields(warehouseId, { carrierId: SHADOWFAX }));
    expect(booking.statusCode).toBe(200);
    const { shipment_id: shipmentId, label_url: labelUrl, track_url: trackUrl } = booking.json().payload;
    const signature = new URL(labelUrl).searchParams.get('signature')!;
    const expires = new URL(labelUrl).searchParams.get('expires')!;
    const token = new URL(trackUrl).pathname.slice('/t/'.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    lines.length = 0;

    const label = await ctx.app.inject({ method: 'GET', url: labelPath(labelUrl) });
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const page = await ctx.app.inject({ method: 'GET', url: `/t/${token}?lang=hi` });
    expect(page.statusCode).toBe(200);
    const json = await ctx.app.inject({ method: 'GET', url: `/t/${token}.json` });
    expect(json.statusCode).toBe(200);
    // A form post without its cookie: refused, and logged like the rest.
    const form = await ctx.app.inject({
      method: 'POST',
      url: `/t/${token}/reattempt?lang=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `csrf=${token}&landmark=x`,
    });
    expect(form.statusCode).toBeGreaterThanOrEqual(400);
    // A forged signature and a mistyped capability in the query are no safer to log.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: `/public/v1/labels/${shipmentId}?expires=${expires}&signature=${signature.slice(1)}x`,
    });
    expect(forged.statusCode).toBe(403);
    const stray = await ctx.app.inject({ method: 'GET', url: `/t/${token}.json?token=${signature}&sig=${signature}` });
    expect(stray.statusCode).toBe(200);

    const log = lines.join('');
    expect(log).not.toContain(token);
    expect(log).not.toContain(signature);
    expect(log).not.toContain(signature.slice(1));
    const urls = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === 'request')
      .map((entry) => `${entry.method} ${entry.url} ${entry.statusCode}`);
    expect(urls).toEqual([
      `GET /public/v1/labels/${shipmentId}?expires=${expires}&signature=${REDACTED} 200`,
      `GET /t/${REDACTED}?lang=hi 200`,
      `GET /t/${REDACTED}.json 200`,
      `POST /t/${REDACTED}/reattempt?lang=en ${form.statusCode}`,
      `GET /public/v1/labels/${shipmentId}?expires=${expires}&signature=${REDACTED} 403`,
      `GET /t/${REDACTED}.json?token=${REDACTED}&sig=${REDACTED} 200`,
    ]);
  });

  it('keeps the harmless query values and the paths of other routes as they were', () => {
    expect(urlForLog('/custom/api/v1/events?after=42&limit=10&type[]=shipment.created')).toBe(
      '/custom/api/v1/events?after=42&limit=10&type[]=shipment.created',
    );
    expect(urlForLog('/public/v1/store-logos/abc?v=3')).toBe('/public/v1/store-logos/abc?v=3');
    expect(urlForLog('/custom/api/v1/shipments?api_key=dk_live_x&%ZZ=1&flag')).toBe(
      `/custom/api/v1/shipments?api_key=${REDACTED}&%ZZ=${REDACTED}&flag`,
    );
    expect(urlForLog('/tracking/t/abc')).toBe('/tracking/t/abc');
  });
});

describe('the worker process logs by the same rules', () => {
  it("keeps a failed statement's values out of the worker's log, as the API's does", async () => {
    const written: string[] = [];
    const log = privateLogger({ level: 'info' }, { write: (line: string) => void written.push(line) });
    const error = await ctx.database.db.execute(sql`select ${'Zebediah Quartermaine'}::uuid`).catch((e: unknown) => e);
    log.error({ err: error, task: 'webhook deliveries' }, 'worker task failed');
    const entry = JSON.parse(written[0]!);
    expect(entry.err.cause.code).toBe('22P02');
    expect(entry.err.cause.message).toBe('invalid input syntax for type uuid: [redacted]');
    expect(entry.task).toBe('webhook deliveries');
    expect(written.join('')).not.toContain('Zebediah');
  });
});
