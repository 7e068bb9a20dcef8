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
      expect(JSON.parse(body)).toEqual({ message, errors: [message] });
    }
  });

  it('a path parameter over 100 characters: 414 with the envelope', async () => {
    const { head, body } = await raw(`GET /t/${'a'.repeat(5000)}.json HTTP/1.1`);
    expect(head).toMatch(/^HTTP\/1\.1 414 URI Too Long\r\n/);
    expect(JSON.parse(body)).toEqual({
      message: 'A path parameter is too long',
      errors: ['A path parameter is too long'],
    });
  });

  it('a request line that is no HTTP: 400 with the envelope', async () => {
    const { head, body } = await raw('GET /healthz HTTP/9.x');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(body)).toEqual({ message: 'Malformed HTTP request', errors: ['Malformed HTTP request'] });
  });
});

describe('/t/{token}.json answers JSON', () => {
  it('its 404 is the JSON envelope for every unknown token, one with a line break included', async () => {
    for (const token of ['\t\r\n', 'a\nb', 'no-such-token-0123456789', ' ', '../../etc/passwd', '\u202e']) {
      const response = await ctx.app.inject({ method: 'GET', url: `/t/${percentEncode(token)}.json` });
      expect(response.statusCode, JSON.stringify(token)).toBe(404);
      expect(response.headers['content-type'], JSON.stringify(token)).toBe('application/json; charset=utf-8');
      expect(response.json()).toEqual({ message: 'Tracking link not found', errors: ['Tracking link not found'] });
    }
    // The page itself still answers its own 404 as a page.
    const page = await ctx.app.inject({ method: 'GET', url: '/t/no-such-token-0123456789' });
    expect([page.statusCode, page.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
  });
});
