import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundFailure, PinnedAgents, requestPinned } from './outbound-request.js';
import { remoteExcerpt } from './remote-text.js';

// Real servers on 127.0.0.1 stand in for a receiver and for what it could point us at.

interface Seen {
  host: string | undefined;
  url: string | undefined;
}
let internal: http.Server;
let receiver: http.Server;
const internalSeen: Seen[] = [];
const receiverSeen: Seen[] = [];
const portOf = (server: http.Server) => (server.address() as AddressInfo).port;
const listen = (server: http.Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

beforeAll(async () => {
  internal = http.createServer((request, response) => {
    internalSeen.push({ host: request.headers.host, url: request.url });
    response.end('{"secret":"instance credentials"}');
  });
  receiver = http.createServer((request, response) => {
    receiverSeen.push({ host: request.headers.host, url: request.url });
    if (request.url === '/redirect') {
      response.writeHead(302, { location: `http://127.0.0.1:${portOf(internal)}/latest/meta-data` }).end();
    } else if (request.url === '/long') {
      response.end('x'.repeat(10_000));
    } else if (request.url === '/silent') {
      // Never answers.
    } else {
      response.end('{"ok":true}');
    }
  });
  await Promise.all([listen(internal), listen(receiver)]);
});
afterAll(async () => {
  receiver.closeAllConnections();
  await Promise.all([new Promise((r) => internal.close(r)), new Promise((r) => receiver.close(r))]);
});

const pinnedTo = (path: string, port = portOf(receiver)) => ({
  url: new URL(`http://provider.example:${port}${path}`),
  addresses: [{ address: '127.0.0.1', family: 4 as const }],
});

describe('requestPinned', () => {
  it('connects to the pinned address, never resolving the name, and keeps the name as the Host', async () => {
    const answer = await requestPinned(pinnedTo('/v21.0/123/messages'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs: 5000,
    });
    const { headers, ...rest } = answer;
    expect(rest).toEqual({ status: 200, body: '{"ok":true}', complete: true });
    // The headers come back as node:http read them, names lower-cased (a store's paging headers).
    expect(headers['content-length']).toBe('11');
    expect(receiverSeen.at(-1)).toEqual({ host: `provider.example:${portOf(receiver)}`, url: '/v21.0/123/messages' });
  });

  it('answers a redirect as it is: the address it names is never asked', async () => {
    const before = internalSeen.length;
    const answer = await requestPinned(pinnedTo('/redirect'), {
      method: 'POST',
      headers: {},
      body: '{}',
      timeoutMs: 5000,
    });
    expect(answer.status).toBe(302);
    expect(internalSeen.length).toBe(before);
  });

  it('reads at most maxAnswerBytes of an answer and says it was cut', async () => {
    const answer = await requestPinned(pinnedTo('/long'), {
      method: 'GET',
      headers: {},
      timeoutMs: 5000,
      maxAnswerBytes: 100,
    });
    expect(answer.status).toBe(200);
    expect(answer.complete).toBe(false);
    expect(answer.body.length).toBeLessThanOrEqual(100);
  });

  it('fails in its own words: a time-out, and a refused connection without the address', async () => {
    await expect(requestPinned(pinnedTo('/silent'), { method: 'GET', headers: {}, timeoutMs: 200 })).rejects.toEqual(
      new OutboundFailure('no answer within 0.2 s', 'timeout'),
    );
    const closed = http.createServer();
    await listen(closed);
    const port = portOf(closed);
    await new Promise((r) => closed.close(r));
    const failure = await requestPinned(pinnedTo('/', port), { method: 'GET', headers: {}, timeoutMs: 5000 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OutboundFailure);
    expect((failure as OutboundFailure).message).toBe('could not connect (ECONNREFUSED)');
  });

  it('keeps a connection whose answer was read to its end for the next request', async () => {
    const agents = new PinnedAgents();
    const sockets = new Set<unknown>();
    const seen = (_request: http.IncomingMessage, response: http.ServerResponse) => sockets.add(response.socket);
    receiver.on('request', seen);
    try {
      for (let i = 0; i < 3; i++) {
        const target = pinnedTo('/');
        await requestPinned(target, { method: 'GET', headers: {}, timeoutMs: 5000, agent: agents.for(target) });
      }
      expect(sockets.size).toBe(1);
    } finally {
      receiver.off('request', seen);
      agents.close();
    }
  });
});

describe('remoteExcerpt', () => {
  it('keeps a short message as it is', () => {
    expect(remoteExcerpt('(#132001) Template name does not exist in the translation')).toBe(
      '(#132001) Template name does not exist in the translation',
    );
  });

  it('drops control, bidirectional and zero-width characters, folds spaces and cuts to 120 characters', () => {
    expect(remoteExcerpt('line one\r\n\u001b[31mline two\u202e\u200b\ufeff end\u0000')).toBe(
      'line one [31mline two end',
    );
    const long = remoteExcerpt('मिस्ड '.repeat(60));
    expect([...long].length).toBe(120);
    expect(long.endsWith('…')).toBe(true);
  });
});
