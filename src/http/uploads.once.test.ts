import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { authed, STORES, V1 } from '../../test/kit/http.js';

// Issue 46: a remittance file over its 20 MiB was told "logo must be at most 2 MiB": the multipart
// parser's one error for a file over its limit was answered in the logo's words on every route.
// Each route that takes a file now names its own field and limit (http/uploads.ts).

const MiB = 1024 * 1024;
const BOUNDARY = 'dakiya-upload-limit';
let ctx: TestContext;
let apiKey: string;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ apiKey } = await ctx.createAccount());
});
afterAll(async () => {
  await ctx.close();
});

/** A multipart body with text fields and one file part of `bytes` bytes. */
function form(fields: Record<string, string>, file: { field: string; name: string; type: string; bytes: number }) {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return Buffer.concat([
    Buffer.from(parts.join('') + head),
    Buffer.alloc(file.bytes, 'a'),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const upload = (url: string, payload: Buffer) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { ...authed(apiKey), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload,
  });

describe('a file over its route limit', () => {
  it('a remittance file of 20 MiB and a byte: 422 naming file and its 20 MiB, never the logo', async () => {
    const response = await upload(
      `${V1}/cod/remittance-files`,
      form({}, { field: 'file', name: 'remittance.csv', type: 'text/csv', bytes: 20 * MiB + 1 }),
    );
    const message = 'file must be at most 20 MiB (20971520 bytes)';
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({
      code: 'file_too_large',
      message,
      errors: [message],
      details: [{ field: 'file', message }],
    });
  });

  it('a logo of 2 MiB and a byte: 422 naming logo and its 2 MiB', async () => {
    const response = await upload(
      STORES,
      form({ store_name: 'limits' }, { field: 'logo', name: 'logo.png', type: 'image/png', bytes: 2 * MiB + 1 }),
    );
    const message = 'logo must be at most 2 MiB (2097152 bytes)';
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toEqual({
      code: 'file_too_large',
      message,
      errors: [message],
      details: [{ field: 'logo', message }],
    });
  });
});

describe('a second file part', () => {
  it('a remittance file sent twice in one body: 400 naming file, never the logo', async () => {
    const part = (name: string) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\nawb,amount\r\n`;
    const response = await upload(
      `${V1}/cod/remittance-files`,
      Buffer.from(`${part('a.csv')}${part('b.csv')}--${BOUNDARY}--\r\n`),
    );
    const message = 'Only one file (file) may be sent';
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      code: 'too_many_files',
      message,
      errors: [message],
      details: [{ field: 'file', message }],
    });
  });
});
