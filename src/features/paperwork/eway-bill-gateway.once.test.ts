import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  auditEntries,
  EWB_GATEWAY,
  gatewayBody,
  generateBill,
  refusedBill,
  setGateway,
  storedOrder,
} from '../../../test/kit/eway-bill.js';
import { authed } from '../../../test/kit/http.js';
import { validGstin } from '../../../test/kit/invoices.js';
import { merchant } from '../../../test/kit/warehouses.js';
import { queryRows } from '../../base/db/client.js';
import {
  type EwayBillGspSimulator,
  GSP_CLIENT_ID,
  GSP_CLIENT_SECRET,
  GSP_PASSWORD,
  GSP_USERNAME,
  type GspOverride,
  startEwayBillGspSimulator,
} from '../../demo/simulators/eway-bill-gsp-simulator.js';

// The e-way bill gateway's settings (sealed, answered masked) and every answer of the GSP mapped to
// ours, each answer in a shape public client code shows a GSP or NIC giving (the simulator's and
// gateway's comments cite them). Nothing is kept on the order unless a bill came back.

let ctx: TestContext;
let gsp: EwayBillGspSimulator;
beforeAll(async () => {
  ctx = await createTestApp({ settings: { outbound: { allowHttp: true, allowPrivate: true } } });
  gsp = await startEwayBillGspSimulator({ now: () => ctx.clock.now() });
});
afterAll(async () => {
  await gsp?.close();
  await ctx?.close();
});

/** A merchant whose gateway is set (with `more` replacing fields), and an order that needs a bill. */
async function ready(more: Record<string, unknown> = {}) {
  const m = await merchant(ctx);
  const set = await setGateway(ctx, m.apiKey, gatewayBody(gsp, more));
  expect(set.statusCode, set.body).toBe(200);
  return { ...m, orderId: await storedOrder(ctx, m.apiKey, m.warehouseId) };
}

/** The order's generation with the GSP's next generate call answering `override`: our answer's status and body. */
async function answeredWith(override: GspOverride, status: number) {
  const m = await ready();
  gsp.answerNext(override);
  return refusedBill(ctx, m, m.orderId, status);
}

describe('the e-way bill gateway settings', () => {
  it('are sealed: answered masked, absent from the row in clear and from the audit entry', async () => {
    const m = await merchant(ctx);
    const read = async () =>
      (await ctx.app.inject({ method: 'GET', url: EWB_GATEWAY, headers: authed(m.apiKey) })).json();
    expect(await read()).toEqual({ data: { configured: false } });
    const set = await setGateway(ctx, m.apiKey, gatewayBody(gsp));
    expect(set.statusCode).toBe(200);
    const masked = {
      configured: true,
      base_url: gsp.baseUrl,
      gstin: '07AAACR5055K1Z9',
      email: 'ops@acme.example',
      client_id: '****IENT',
      client_secret: '********',
      username: '****i_07',
      password: '********',
      updated_at: '2026-11-20T06:30:00.000Z',
    };
    expect(set.json()).toEqual({ data: masked });
    expect(await read()).toEqual({ data: masked });
    const [row] = await queryRows<{ row: string }>(
      ctx.database.db,
      sql`select row_to_json(g)::text as row from eway_bill_gateways g where account_id = ${m.id}::uuid`,
    );
    const audit = JSON.stringify(await auditEntries(ctx, m.id));
    for (const secret of [GSP_CLIENT_ID, GSP_CLIENT_SECRET, GSP_USERNAME, GSP_PASSWORD]) {
      expect(set.body).not.toContain(secret);
      expect(row!.row).not.toContain(secret);
      expect(audit).not.toContain(secret);
    }
    // Removed, generation is off again.
    const removed = await ctx.app.inject({ method: 'DELETE', url: EWB_GATEWAY, headers: authed(m.apiKey) });
    expect(removed.json()).toEqual({ data: { configured: false } });
    const orderId = await storedOrder(ctx, m.apiKey, m.warehouseId);
    expect((await refusedBill(ctx, m, orderId, 422)).code).toBe('eway_bill_gateway_missing');
  });

  it('refuses a GSTIN whose check character is wrong, and a base_url the outbound guard refuses, naming each', async () => {
    const m = await merchant(ctx);
    const wrong = await setGateway(ctx, m.apiKey, gatewayBody(gsp, { gstin: '07AAACR5055K1Z8' }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'eway_bill_gateway_invalid',
      details: [
        {
          field: 'gstin',
          message:
            'gstin 07AAACR5055K1Z8 is not a valid GSTIN: its last character should be 9, the check character of the first 14',
        },
      ],
    });
    // Credentials in the URL, which the outbound guard refuses too, are refused by the schema first.
    const withUser = await setGateway(ctx, m.apiKey, gatewayBody(gsp, { base_url: 'https://user:pass@gsp.example/' }));
    expect(withUser.statusCode).toBe(400);
    expect(withUser.json().details).toEqual([
      {
        field: 'base_url',
        message:
          'base_url must be an http(s) URL of a host and a path, without a user name, password, query or fragment',
      },
    ]);
  });
});

describe("the outbound guard, by the operator's default rules", () => {
  it('refuses a plain-http or loopback base_url when saved, naming base_url', async () => {
    const strict = await createTestApp({ database: ctx.database });
    try {
      const account = await strict.createAccount();
      const body = { ...gatewayBody(gsp), base_url: 'https://127.0.0.1:8443' };
      const answer = await strict.app.inject({
        method: 'PUT',
        url: EWB_GATEWAY,
        headers: authed(account.apiKey),
        payload: body,
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'outbound_url_refused', details: [{ field: 'base_url' }] });
      expect(answer.json().message).toContain('base_url host 127.0.0.1 resolves to 127.0.0.1');
    } finally {
      await strict.app.close();
    }
  });
});

describe("the GSP's refusal of the credentials is a 502 naming the portal's code", () => {
  it.each([
    ['a wrong password', { password: 'not-the-password' }, '108 Invalid login credentials.'],
    ['a wrong client secret', { client_secret: 'not-the-secret' }, '110 Invalid Client-ID/Client-Secret'],
    [
      'a GSTIN not registered with the GSP',
      { gstin: validGstin('07', 'AAPFU0939F') },
      '111 GSTIN is not registerd to this GSP',
    ],
  ])('%s', async (_, more, words) => {
    const m = await ready(more);
    const answer = await refusedBill(ctx, m, m.orderId, 502);
    expect(answer).toMatchObject({
      code: 'eway_bill_gateway_auth_failed',
      message: `The GSP refused your e-way bill gateway's credentials at its auth call: ${words}; correct them with PUT /paperwork-settings/eway-bill-gateway`,
    });
  });

  it("at the generate call, NIC's own base64 shape (116) and a GSP's error_cd (238)", async () => {
    const nic = await answeredWith(
      { raw: { status: '0', error: Buffer.from('{"errorCodes":"116"}').toString('base64') } },
      502,
    );
    expect(nic.message).toContain('at its generate call: 116 Auth token is not valid for this client;');
    const gsp238 = await answeredWith(
      { raw: { status_cd: '0', error: { error_cd: '238', message: 'Invalid auth token' } } },
      502,
    );
    expect(gsp238.message).toContain('at its generate call: 238 Invalid auth token;');
  });
});

describe("the portal's refusal of the request", () => {
  it('is a 422 naming each field with its code and words, trailing comma and unknown codes included', async () => {
    expect(await answeredWith({ codes: ['214'] }, 422)).toMatchObject({
      code: 'eway_bill_refused',
      details: [{ field: 'toPincode', message: 'toPincode: 214 Invalid Consignee PIN Code' }],
    });
    // As a Go client reads an answer: "219,702," (702 is in no list found).
    const two = await answeredWith(
      { raw: { status_cd: '0', status_desc: 'Invalid Tax Rate', error: { message: '{"errorCodes":"219,702,"}' } } },
      422,
    );
    expect(two.details).toEqual([
      { field: 'itemList', message: 'itemList: 219 Invalid Tax Rate for Inter State Transaction' },
      { field: 'request', message: 'request: 702 an error code Dakiya does not know' },
    ]);
    // A WhiteBooks client's "shape A": a top-level errorCode.
    const top = await answeredWith({ raw: { errorCode: '206', errorDesc: 'Invaild Invoice Number' } }, 422);
    expect(top.details).toEqual([{ field: 'docNo', message: 'docNo: 206 Invaild Invoice Number' }]);
  });

  it('is a 503 when the portal says the fault is its own (240), and 409 when it has a bill of the document (604)', async () => {
    expect(await answeredWith({ codes: ['240'] }, 503)).toMatchObject({
      code: 'eway_bill_gateway_unavailable',
      message:
        'The e-way bill portal could not generate the bill now (240 Could not generate eway bill, pls contact helpdesk): nothing was stored; try again later',
    });
    // Two accounts of one GSTIN bill the same order id: the portal refuses the second document.
    const first = await ready();
    const second = await merchant(ctx);
    await setGateway(ctx, second.apiKey, gatewayBody(gsp));
    await storedOrder(ctx, second.apiKey, second.warehouseId, 75_000, { order_id: first.orderId });
    expect((await generateBill(ctx, first.apiKey, first.orderId)).statusCode).toBe(200);
    expect(await refusedBill(ctx, second, first.orderId, 409)).toMatchObject({
      code: 'eway_bill_duplicate',
      details: [{ field: 'docNo' }],
    });
  });
});

describe("the portal's bill", () => {
  it("is read as Odoo's test of its gateway and a PeriOne answer show it, validUpto null included", async () => {
    const odoo = await ready();
    gsp.answerNext({
      raw: {
        status_cd: '1',
        status_desc: 'EWAYBILL request succeeds',
        data: {
          ewayBillNo: 123456789012,
          ewayBillDate: '11/06/2024 06:37:15 AM',
          validUpto: '12/06/2024 06:37:15 AM',
          alert: ', Distance between these two pincodes is 118, ',
        },
      },
    });
    const answer = await generateBill(ctx, odoo.apiKey, odoo.orderId);
    expect(answer.json().data).toMatchObject({
      ewaybill_no: '123456789012',
      ewaybill_date: '2024-06-11',
      generated_at: '2024-06-11T06:37:15+05:30',
      valid_upto: '2024-06-12T06:37:15+05:30',
      alert: ', Distance between these two pincodes is 118,',
    });
    const perione = await ready();
    gsp.answerNext({
      raw: {
        status_cd: '1',
        status_desc: 'EWAYBILL request succeeds',
        data: { ewayBillNo: 781630401011, ewayBillDate: '03/05/2026 04:27:00 PM', validUpto: null, alert: '' },
      },
    });
    expect((await generateBill(ctx, perione.apiKey, perione.orderId)).json().data).toMatchObject({
      ewaybill_no: '781630401011',
      ewaybill_date: '2026-05-03',
      generated_at: '2026-05-03T16:27:00+05:30',
      valid_upto: null,
      alert: null,
    });
  });

  it('is not kept when the answer is unreadable: 502, the portal to be looked at', async () => {
    const noBill = await answeredWith(
      { raw: { status_cd: '1', status_desc: 'EWAYBILL request succeeds', data: {} } },
      502,
    );
    expect(noBill.code).toBe('eway_bill_gateway_unreadable');
    const html = await answeredWith({ status: 200, text: '<html>Login</html>' }, 502);
    expect(html.message).toMatch(
      /^The e-way bill gateway's answer could not be read \(the GSP answered HTTP 200 with something other than JSON\)/,
    );
  });
});

describe('the GSP down', () => {
  it('is a 503, never a 500, with nothing kept: an HTTP 503 of its own, or nothing listening', async () => {
    const busy = await answeredWith({ status: 503, text: 'Service Unavailable' }, 503);
    expect(busy).toMatchObject({
      code: 'eway_bill_gateway_unavailable',
      message:
        'The e-way bill gateway could not be used: the GSP answered HTTP 503; nothing was stored, try again later',
    });
    const closed = await startEwayBillGspSimulator();
    const gone = closed.baseUrl;
    await closed.close();
    const m = await ready({ base_url: gone });
    const refused = await refusedBill(ctx, m, m.orderId, 503);
    expect(refused.message).toBe(
      'The e-way bill gateway could not be used: the GSP could not be reached: could not connect (ECONNREFUSED); nothing was stored, try again later',
    );
  });
});
