import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

export interface BareServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A small JSON answer, about the size of a short API response's envelope. */
export const DEFAULT_BARE_BODY = { status: 'SUCCESS', result: { ok: true } };

/**
 * The baseline every endpoint benchmark compares with: a bare `node:http` server on 127.0.0.1 (a
 * random port) that reads the whole request body, then answers 200 with one fixed JSON body. No
 * routing, parsing, validation or auth: the most a Node process can do per connection here.
 */
export async function startBareServer(body: unknown = DEFAULT_BARE_BODY): Promise<BareServer> {
  const payload = Buffer.from(JSON.stringify(body));
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(payload.length) };
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, headers);
      response.end(payload);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The framework's floor: Fastify (the version the app runs) with one POST route answering the
 * same fixed bytes, its JSON body parsed, and nothing else: no logging, hooks, auth or validation.
 * What is left between it and the bare server is Fastify's own cost per request.
 */
export async function startBareFastify(path: string, body: unknown = DEFAULT_BARE_BODY): Promise<BareServer> {
  const payload = Buffer.from(JSON.stringify(body));
  const app = Fastify({ logger: false });
  app.post(path, (_request, reply) => {
    reply.type('application/json; charset=utf-8').send(payload);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, close: () => app.close() };
}
