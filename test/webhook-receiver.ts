import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the receiver does with the next request: answer a status, answer a redirect, never answer
 * ('hang'), or hold it unanswered until the test calls release() ('hold').
 */
export type Behaviour = number | 'hang' | 'hold' | { redirect: string };

export interface Received {
  /** The request's path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** When it closed unanswered ('hang' and 'hold' only): its sender gave up or died, or the receiver closed. */
  closedAt?: number;
  /** Who sent it, when the receiver was given `senderOf`. */
  sender?: number;
}

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) that records every request and answers from a
 * script, then with `fallback`. Hanging requests are released when it closes. `senderOf` names the
 * sender of each request from its connection, asked before answering, while the sender still holds it.
 */
export async function startReceiver(
  script: Behaviour[] = [],
  fallback: Behaviour = 200,
  senderOf?: (socket: Socket) => number | undefined,
) {
  const received: Received[] = [];
  const queue = [...script];
  let otherwise = fallback;
  const hanging = new Set<import('node:http').ServerResponse>();
  // Requests held unanswered now, in all and per path, and the most there ever were at once.
  const held = new Map<import('node:http').ServerResponse, string>();
  const heldOn = new Map<string, number>();
  const peak = { all: 0, onePath: 0 };
  const unhold = (response: import('node:http').ServerResponse) => {
    const path = held.get(response);
    if (path === undefined) return;
    held.delete(response);
    heldOn.set(path, heldOn.get(path)! - 1);
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const entry: Received = {
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
        sender: senderOf?.(request.socket),
      };
      received.push(entry);
      const behaviour = queue.shift() ?? otherwise;
      if (behaviour === 'hang' || behaviour === 'hold') {
        hanging.add(response);
        response.on('close', () => {
          if (!response.writableFinished) entry.closedAt ??= Date.now();
        });
        if (behaviour === 'hold') {
          held.set(response, path);
          heldOn.set(path, (heldOn.get(path) ?? 0) + 1);
          peak.all = Math.max(peak.all, held.size);
          peak.onePath = Math.max(peak.onePath, heldOn.get(path)!);
          // A sender that gives up (its timeout, its worker stopping) ends the hold.
          response.on('close', () => unhold(response));
        }
        return;
      }
      if (typeof behaviour === 'object') {
        response.writeHead(302, { location: behaviour.redirect }).end();
        return;
      }
      response.writeHead(behaviour, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Scripts the answers to the next requests. */
    answer(...behaviours: Behaviour[]) {
      queue.push(...behaviours);
    },
    /** Answers the requests after the script this way from now on. */
    fallBackTo(behaviour: Behaviour) {
      otherwise = behaviour;
    },
    /** Requests held now ('hold'), and the most held at once, in all and on one path. */
    get holding() {
      return held.size;
    },
    get peakHeld() {
      return { ...peak };
    },
    /** Answers every held request with `status`. */
    release(status = 200) {
      for (const response of [...held.keys()]) {
        unhold(response);
        hanging.delete(response);
        response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      }
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * Polls until `condition` holds (a loaded machine may take a while), failing with `what` after
 * `timeoutMs`: by default just inside the tests' 120 s time-out (vitest.config.ts), so that a wait
 * which fails says what it waited for, and a wait on a loaded machine has all of a test's time.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 110_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
