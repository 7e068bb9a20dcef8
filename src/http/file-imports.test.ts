import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import { COD_FILES, dakiyaFile, importRemittances, shipCod } from '../../test/kit/cod.js';
import { authed, post, UUID, V1 } from '../../test/kit/http.js';
import { BOUNDARY, multipart } from '../../test/kit/uploads.js';
import { merchantWithCityWarehouse } from '../../test/kit/warehouses.js';

// Issue 46: one account's remittance import stalled everyone. Imports are parsed in a thread as
// they stream in (a remittance file, a weight report), one per account at a time, with a row
// limit; the answer lists the first 100 problems and their count, quoting no value of the file
// over 200 characters (http/file-imports.ts, domain/import-problems.ts).

let ctx: TestContext;
useTestApp((made) => {
  ctx = made;
  // Remittances dated up to this day are in the past.
  made.clock.set('2026-11-28T06:30:00.000Z');
});

const REPORTS = `${V1}/weight-reports`;
const HEADER = 'awb,amount,utr,remittance_date\n';

describe('limits of one file', () => {
  it('refuses a remittance file of 50,001 lines whole, naming the limit; 50,000 are read', async () => {
    const { apiKey } = await ctx.createAccount();
    const line = (n: number) => `SFX${String(n).padStart(9, '0')},100,UTR1,2026-11-27\n`;
    const lines = (count: number) => Array.from({ length: count }, (_, i) => line(i)).join('');
    const over = await importRemittances(ctx, apiKey, HEADER + lines(50_001));
    const message =
      'a remittance file holds at most 50,000 lines; this one has more (line 50002 is past the limit): split it, each part may be sent on its own';
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json()).toEqual({
      code: 'cod_remittance_file_invalid',
      message: `file: ${message}`,
      errors: [`file: ${message}`],
      details: [{ field: 'file', message }],
    });
    // At the limit: read, every line an AWB the account does not have.
    const at = await importRemittances(ctx, apiKey, HEADER + lines(50_000));
    expect(at.statusCode, at.body).toBe(200);
    expect(at.json()).toMatchObject({ lines: 50_000, applied: 0, problem_count: 50_000 });
    expect(at.json().problems).toHaveLength(100);
  });

  it('refuses a weight report of 10,001 rows whole, naming the limit', async () => {
    const { apiKey } = await ctx.createAccount();
    const rows = Array.from({ length: 10_001 }, (_, i) => `SFX${i},1200\n`).join('');
    const over = await post(ctx, apiKey, REPORTS, { file: `awb,charged_weight_g\n${rows}` });
    const message = 'a report holds at most 10,000 rows; this one has more (line 10002 is past the limit)';
    expect(over.statusCode, over.body).toBe(422);
    expect(over.json()).toEqual({
      code: 'weight_report_invalid',
      message,
      errors: [message],
      details: [{ field: 'file', message }],
    });
  });
});

describe('what an answer says of bad lines', () => {
  it('lists the first 100 problems by line, from the parser and the database alike, and counts all 150', async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [paid] = await shipCod(ctx, owner, [500]);
    ctx.clock.set('2026-11-28T06:30:00.000Z');
    // Line 2 pays; then 150 bad lines: an AWB the account does not have (found so in the
    // database), then an amount that is not one (found so by the parser), in turn.
    const bad = Array.from({ length: 150 }, (_, i): [string, string, string, string] =>
      i % 2 === 0 ? [`SFX9${i}`, '100', 'UTR7', '2026-11-27'] : [`SFX8${i}`, 'ten', 'UTR7', '2026-11-27'],
    );
    const response = await importRemittances(
      ctx,
      owner.apiKey,
      dakiyaFile([[paid!, '500', 'UTR7', '2026-11-27'], ...bad]),
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ lines: 151, applied: 1, applied_amount: 500, problem_count: 150 });
    expect(body.problems).toHaveLength(100);
    expect(body.problems[0]).toEqual({ line: 3, awb: 'SFX90', reason: 'AWB SFX90 not found' });
    expect(body.problems[1]).toEqual({
      line: 4,
      awb: 'SFX81',
      reason: 'amount "ten" is not rupees with at most two decimals (e.g. 1499.50)',
    });
    expect(body.problems.map((p: { line: number }) => p.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 3));
  });

  it('quotes a field of 10,000 characters cut to 200, in the remittance file and in the weight report', async () => {
    const { apiKey } = await ctx.createAccount();
    const long = 'A'.repeat(10_000);
    const cut = `${'A'.repeat(199)}…`;
    const remittance = await importRemittances(ctx, apiKey, dakiyaFile([[long, long, 'UTR1', '2026-11-27']]));
    expect(remittance.statusCode, remittance.body).toBe(200);
    expect(remittance.json().problems).toEqual([
      {
        line: 2,
        awb: cut,
        reason: `awb is longer than 64 characters; amount "${cut}" is not rupees with at most two decimals (e.g. 1499.50)`,
      },
    ]);
    expect(remittance.body.length).toBeLessThan(2_000);
    const report = await post(ctx, apiKey, REPORTS, { file: `awb,charged_weight_g\n${long},1200\nSFX1,${long}\n` });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data.errors).toEqual([
      { line: 2, awb: cut, message: 'awb must be 1 to 64 characters' },
      {
        line: 3,
        awb: 'SFX1',
        message: `charged weight must be a number of grams above 0 and at most 1000000, got "${cut}"`,
      },
    ]);
    expect(report.json().data.error_count).toBe(2);
  });
});

describe('one import per account at a time', () => {
  /** A multipart upload of a remittance file whose body stays open until `finish` is called. */
  function heldUpload(apiKey: string, fileName: string) {
    const body = new PassThrough();
    const answer = ctx.app.inject({
      method: 'POST',
      url: COD_FILES,
      headers: { ...authed(apiKey), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: body,
    });
    body.write(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${HEADER}`,
    );
    return {
      answer,
      finish(lines: string) {
        body.end(`${lines}\r\n--${BOUNDARY}--\r\n`);
        return answer;
      },
    };
  }

  it("answers a second import of the account 409 naming the running one; another account's import goes through", async () => {
    const owner = await merchantWithCityWarehouse(ctx);
    const [awb] = await shipCod(ctx, owner, [750]);
    ctx.clock.set('2026-11-28T06:30:00.000Z');
    const other = await merchantWithCityWarehouse(ctx);
    const [theirs] = await shipCod(ctx, other, [320]);
    ctx.clock.set('2026-11-28T06:30:00.000Z');

    const reading = ctx.app.fileImports.reading(owner.id);
    const first = heldUpload(owner.apiKey, 'shadowfax-27-11.csv');
    const running = await reading;
    expect(running).toMatchObject({ kind: 'remittance file', fileName: 'shadowfax-27-11.csv' });
    expect(running.id).toMatch(UUID);

    const message = `Another import of this account is running: the remittance file "shadowfax-27-11.csv" (import ${running.id}), started 2026-11-28T06:30:00.000Z. An account imports one file at a time: send this one again once it has finished`;
    const second = await importRemittances(ctx, owner.apiKey, dakiyaFile([[awb!, '750', 'UTR9', '2026-11-27']]));
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toEqual({ code: 'import_in_progress', message, errors: [message] });
    // A weight report is an import too.
    const report = await post(ctx, owner.apiKey, REPORTS, { file: `awb,charged_weight_g\n${awb},1200\n` });
    expect(report.statusCode, report.body).toBe(409);
    expect(report.json().message).toBe(message);

    // Meanwhile another account imports as if nothing ran.
    const theirImport = await importRemittances(
      ctx,
      other.apiKey,
      dakiyaFile([[theirs!, '320', 'UTR5', '2026-11-27']]),
    );
    expect(theirImport.statusCode, theirImport.body).toBe(200);
    expect(theirImport.json()).toMatchObject({ applied: 1, applied_amount: 320, problem_count: 0 });

    // The held file ends: it is applied under the id the 409 named, and the account imports again.
    const done = await first.finish(`${awb},750,UTR1,2026-11-27`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      id: running.id,
      file_name: 'shadowfax-27-11.csv',
      applied: 1,
      applied_amount: 750,
    });
    const after = await importRemittances(ctx, owner.apiKey, dakiyaFile([[awb!, '750', 'UTR1', '2026-11-27']]));
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json()).toMatchObject({ applied: 0, duplicates: 1 });
  });

  it('frees the slot however an upload is refused: a file refused whole (422), a field the schema refuses (400)', async () => {
    const { id, apiKey } = await ctx.createAccount();
    const reading = ctx.app.fileImports.reading(id);
    const empty = heldUpload(apiKey, 'empty.csv');
    await reading;
    const refused = await empty.finish('');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors).toEqual(['file: the file has a header but no remittance lines']);
    const longName = await ctx.app.inject({
      method: 'POST',
      url: COD_FILES,
      ...multipart(apiKey, [
        { name: 'file_name', value: 'n'.repeat(201) },
        { name: 'file', value: dakiyaFile([['SFX1', '10', 'U1', '2026-11-27']]), filename: 'a.csv' },
      ]),
    });
    expect(longName.statusCode, longName.body).toBe(400);
    expect(longName.json().details.map((d: { field: string }) => d.field)).toEqual(['file_name']);
    const next = await importRemittances(ctx, apiKey, dakiyaFile([['SFX1', '10', 'U1', '2026-11-27']]));
    expect(next.statusCode, next.body).toBe(200);
  });
});

it('the parse threads answer the import of a file whose pieces split a character, a quote and a line break', async () => {
  const { apiKey } = await ctx.createAccount();
  // 64 KiB pieces: a line of Devanagari straddles the first boundary, in a quoted field.
  const filler = `"${'अ'.repeat(30_000)}"`;
  const file = `awb,amount,utr,remittance_date,remarks\r\nSFX1,10,UTR1,2026-11-27,${filler}\r\nSFX2,"1,000",UTR1,2026-11-27,x\r\n`;
  const response = await ctx.app.inject({
    method: 'POST',
    url: COD_FILES,
    headers: { ...authed(apiKey), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="hindi.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(file),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({
    lines: 2,
    problems: [
      { line: 2, awb: 'SFX1', reason: 'AWB SFX1 not found' },
      { line: 3, awb: 'SFX2', reason: 'AWB SFX2 not found' },
    ],
  });
});
