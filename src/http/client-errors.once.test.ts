import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';
import { percentEncode } from '../../test/fuzz-requests.js';

// Issue 46, contract drift: refusals that come before any route (an over-long URL) answered in
// Fastify's own shape, and /t/{token}.json answered some unknown tokens with the HTML page.

let ctx: TestContext;
let server: URL;
beforeAll(async () => {
  ctx = await createTestApp();
  server = new URL(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await ctx.close();
});

/** One request written by hand on a socket, and the whole answer. */
function raw(requestLine: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(server.port), server.hostname, () =>
      socket.write(`${requestLine}\r\nHost: ${server.host}\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => {
      const at = answer.indexOf('\r\n\r\n');
      resolve({ head: answer.slice(0, at), body: answer.slice(at + 4) });
    });
    socket.on('error', reject);
  });
}

describe('refusals before any route, in the error envelope', () => {
  it('a URL over 16 KiB: 431 with the envelope, on every kind of path', async () => {
    for (const path of [`/t/${'a'.repeat(20_000)}.json`, `/custom/api/v1/warehouses?search=${'x'.repeat(70_000)}`]) {
      const { head, body } = await raw(`GET ${path} HTTP/1.1`);
      expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(head).toContain('content-type: application/json; charset=utf-8');
      const message =
        'The request line and headers are too large (at most 16 KiB in all): shorten the URL, or send the data in a JSON body';
      expect(JSON.parse(body)).toEqual({ code: 'headers_too_large', message, errors: [message] });
    }
  });

  it('a path parameter over 100 characters: 414 with the envelope', async () => {
    const { head, body } = await raw(`GET /t/${'a'.repeat(5000)}.json HTTP/1.1`);
    expect(head).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/);
    expect(JSON.parse(body)).toEqual({
      code: 'uri_too_long',
      message: 'A path parameter is too long',
      errors: ['A path parameter is too long'],
    });
  });

  it('headers over 16 KiB (the URL short): 431 with the envelope', async () => {
    for (const headers of [
      `X-Big: ${'y'.repeat(20_000)}`,
      Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n'),
    ]) {
      const { head, body } = await raw(`GET /healthz HTTP/1.1\r\n${headers}`);
      expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(JSON.parse(body).errors).toEqual([
        'The request line and headers are too large (at most 16 KiB in all): shorten the URL, or send the data in a JSON body',
      ]);
    }
  });

  it('a URL just under 16 KiB reaches the router: an unknown path is a 404 naming its first 200 characters', async () => {
    for (const tail of ['x'.repeat(15_000), '%41'.repeat(5000)]) {
      const path = `/custom/api/v1/${tail}`;
      const { head, body } = await raw(`GET ${path} HTTP/1.1`);
      expect(head).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
      expect(head).toContain('content-type: application/json; charset=utf-8');
      const message = `Route GET ${path.slice(0, 200)}... (${path.length} characters) not found`;
      expect(JSON.parse(body)).toEqual({ code: 'route_not_found', message, errors: [message] });
    }
  });

  it('a long path of a known route asked with another method: the 405 names it short too', async () => {
    const path = `/t/${'a'.repeat(300)}`;
    const { head, body } = await raw(`PATCH ${path} HTTP/1.1`);
    expect(head).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(head).toContain('allow: GET, HEAD');
    const message = `Method PATCH is not allowed on ${path.slice(0, 200)}... (303 characters): use GET, HEAD`;
    expect(JSON.parse(body)).toEqual({ code: 'method_not_allowed', message, errors: [message] });
  });

  it('a 15 KB query string on an account route: the 400 names the parameter, in the envelope', async () => {
    const { apiKey } = await ctx.createAccount();
    const url = new URL(`/custom/api/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries`, server);
    url.searchParams.set('limit', '9'.repeat(15_000));
    const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'invalid_request',
      message: 'limit must be 1 to 100',
      errors: ['limit must be 1 to 100'],
      details: [{ field: 'limit', message: 'limit must be 1 to 100' }],
    });
  });

  it('a request line that is no HTTP: 400 with the envelope', async () => {
    const { head, body } = await raw('GET /healthz HTTP/9.x');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(body)).toEqual({
      code: 'malformed_request',
      message: 'Malformed HTTP request',
      errors: ['Malformed HTTP request'],
    });
  });
});

describe('/t/{token}.json answers JSON', () => {
  it('its 404 is the JSON envelope for every unknown token, one with a line break included', async () => {
    for (const token of ['\t\r\n', 'a\nb', 'no-such-token-0123456789', ' ', '../../etc/passwd', '\u202e']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/t/${percentEncode(token)}.json` });
      expect(response.statusCode, JSON.stringify(token)).toBe(404);
      expect(response.headers['content-type'], JSON.stringify(token)).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({
        code: 'tracking_link_not_found',
        message: 'Tracking link not found',
        errors: ['Tracking link not found'],
      });
    }
    // The page itself still answers its own 404 as a page.
    const page = await ctx.app.inject({ method: 'GET', url: '/t/no-such-token-0123456789' });
    expect([page.statusCode, page.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
  });
});
